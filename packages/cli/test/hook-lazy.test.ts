/**
 * `verdict hook` runs once per tool call, so its start-up is paid on every call: it must not load
 * the linter, the DSL's parser library or fast-check. The built command runs as a real process with a
 * preload that records every module file it loads (the bundle's chunks are CommonJS).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from './harness.ts';
import { toolPayload } from './hook-payloads.ts';

/** A preload in `dir` that records every module file the process loads in `dir/trace.txt`. */
function tracer(dir: string): { preload: string; trace: string } {
  const trace = join(dir, 'trace.txt');
  const preload = join(dir, 'trace.cjs');
  writeFileSync(
    preload,
    `const Module = require('node:module');\nconst fs = require('node:fs');\nconst load = Module._load;\n` +
      `Module._load = function (request, parent, isMain) {\n  let file = request;\n  try { file = Module._resolveFilename(request, parent, isMain); } catch {}\n` +
      `  fs.appendFileSync(${JSON.stringify(trace)}, file + '\\n');\n  return load.apply(this, arguments);\n};\n`,
  );
  return { preload, trace };
}

/** Runs the built `verdict hook --agent claude` on one payload, recording every module file it loads. */
function traceHook(policy: string, payload: string): { status: number | null; stdout: string; stderr: string; loaded: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-hook-lazy-'));
  try {
    const { preload, trace } = tracer(dir);
    let file = policy;
    if (policy.includes('\n')) {
      file = join(dir, 'policy.yaml');
      writeFileSync(file, policy);
    }
    const r = spawnSync(process.execPath, ['--require', preload, join(repoRoot, 'packages/cli/bin/verdict.mjs'), 'hook', '--agent', 'claude', '--policy', file], {
      cwd: repoRoot,
      input: payload,
      encoding: 'utf8',
      env: { ...process.env, VERDICT_NO_CODE_CACHE: '1' },
    });
    const loaded = readFileSync(trace, 'utf8').split('\n').filter((f) => f.startsWith('/'));
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, loaded };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const HEAVY = [/node_modules\/.*\/(chevrotain|fast-check)\//, /dist\/chunks\/(lint|fuzz|properties|test)-[^/]*\.cjs$/];
const JUST_BASH = /node_modules\/.*\/just-bash\//;
/** A sentence of @verdict/shell's judge: a chunk holding it holds the judge. */
const JUDGE_MARKER = 'the command cannot be judged';

function chunks(loaded: string[]): string[] {
  return loaded.filter((f) => f.endsWith('.cjs'));
}

it('the hook path loads neither lint, chevrotain, fast-check nor, for a policy without command rules, the shell parser', () => {
  // A policy with no command rules (the bundled starters all have some).
  const policy = ['approver:', '  mode: pattern', '  default: deny', '  reason: "denied: only reads inside /workspace run here"', '  allow:', "    - {tool: Read, field: file_path, match: '/workspace/.*'}", "    - {tool: Bash, field: command, match: 'npm test'}", ''].join('\n');
  const { status, stdout, stderr, loaded } = traceHook(policy, toolPayload('claude', 'PreToolUse', 'Read', '{"file_path":"/workspace/a"}'));
  expect([status, stdout, stderr]).toEqual([0, '', '']);
  expect(loaded.some((f) => /dist\/chunks\/hook-[^/]*\.cjs$/.test(f))).toBe(true);
  for (const heavy of [...HEAVY, JUST_BASH]) expect(loaded.filter((f) => heavy.test(f))).toEqual([]);
  // The lint catalogue is in no chunk the hook loads (a rule id is a marker of it).
  for (const file of chunks(loaded)) expect(readFileSync(file, 'utf8'), file).not.toContain('rules/shell-injection');
  // Nor the shell judge.
  for (const file of chunks(loaded)) expect(readFileSync(file, 'utf8'), file).not.toContain(JUDGE_MARKER);
}, 60_000);

it('a policy with command rules loads the shell parser in the hook, and decides with it', () => {
  // The starter policy's command rules: `sudo` behind `timeout` is denied by deny[1], which a regex over the text missed.
  const { status, stdout, stderr, loaded } = traceHook('fixtures/policies/claude-code.yaml', toolPayload('claude', 'PreToolUse', 'Bash', '{"command":"git status && timeout 5 sudo x"}'));
  expect([status, stderr]).toEqual([2, '']);
  expect(stdout).toContain('`sudo x` matches rule deny[1]');
  // just-bash is bundled into the CLI's chunks: the judge's chunk is the marker that the parser came along.
  expect(chunks(loaded).some((file) => readFileSync(file, 'utf8').includes(JUDGE_MARKER))).toBe(true);
  // Still neither lint, chevrotain nor fast-check.
  for (const heavy of HEAVY) expect(loaded.filter((f) => heavy.test(f))).toEqual([]);
  for (const file of chunks(loaded)) expect(readFileSync(file, 'utf8'), file).not.toContain('rules/shell-injection');
}, 60_000);

/** A sentence of just-bash's parser (bundled into the CLI's chunks): a chunk holding it holds the parser. */
const PARSER_MARKER = 'unexpected EOF while looking for matching';

it('a policy with command rules, on a call to a tool that carries no shell command, checks them but loads no shell parser', () => {
  // The starter's command rules are on Bash; a Read is decided by its field rules alone.
  const read = traceHook('fixtures/policies/claude-code.yaml', toolPayload('claude', 'PreToolUse', 'Read', '{"file_path":"/repo/src/a.ts"}'));
  expect([read.status, read.stdout, read.stderr]).toEqual([0, '', '']);
  for (const file of chunks(read.loaded)) {
    const text = readFileSync(file, 'utf8');
    expect(text, file).not.toContain(PARSER_MARKER);
    expect(text, file).not.toContain(JUDGE_MARKER);
  }
  expect(read.loaded.filter((f) => JUST_BASH.test(f))).toEqual([]);
  const denied = traceHook('fixtures/policies/claude-code.yaml', toolPayload('claude', 'PreToolUse', 'Read', '{"file_path":"/repo/.env"}'));
  expect([denied.status, denied.stderr]).toEqual([2, '']);
  expect(denied.stdout).toContain('denied by the verdict policy');
  // A Bash call of the same policy does load it (the previous test's judge decides there).
  const bash = traceHook('fixtures/policies/claude-code.yaml', toolPayload('claude', 'PreToolUse', 'Bash', '{"command":"git status"}'));
  expect(bash.status).toBe(0);
  expect(chunks(bash.loaded).some((file) => readFileSync(file, 'utf8').includes(PARSER_MARKER))).toBe(true);
}, 60_000);

it('a broken command rule fails the policy on a call to any tool, the parser loaded or not', () => {
  const policy = ['approver:', '  mode: pattern', '  default: allow', '  allow:', "    - {tool: Read, field: file_path, match: '/workspace/.*'}", '    - {tool: Bash, command: [ls, []]}', ''].join('\n');
  for (const [tool, input] of [['Read', '{"file_path":"/workspace/a"}'], ['Bash', '{"command":"ls"}']] as const) {
    const { status, stdout, stderr } = traceHook(policy, toolPayload('claude', 'PreToolUse', tool, input));
    expect([status, stderr], tool).toEqual([2, '']);
    expect(stdout, tool).toContain('does not load');
  }
}, 60_000);

/** Sentences of the engine's chunk (the approver) and of re2js (bundled with it). */
const ENGINE_MARKERS = ['denied by pattern policy', 'missing closing )'];

it('`verdict hook --server` relays the server\'s answer without loading the engine, re2js or a policy', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-hook-lazy-'));
  const socket = join(dir, 's.sock');
  // A server that answers every request with a deny of its own (a plain socket: no engine in this process's answer either).
  const body = JSON.stringify({ exitCode: 2, stdout: '', stderr: 'denied by the server\n', decision: 'deny', reason: 'denied by the server', rule: null, policyVersion: 'sha256:0' });
  const server = createServer((s: Socket) => {
    let got = '';
    s.on('data', (c: Buffer) => {
      got += c.toString('latin1');
      const end = got.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(got)?.[1] ?? NaN);
      if (end >= 0 && got.length - end - 4 >= length) s.end(`HTTP/1.1 200 OK\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    s.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(socket, r));
  try {
    const { preload, trace } = tracer(dir);
    const child = spawn(process.execPath, ['--require', preload, join(repoRoot, 'packages/cli/bin/verdict.mjs'), 'hook', '--agent', 'claude', '--server', `unix:${socket}`], {
      cwd: repoRoot,
      env: { ...process.env, VERDICT_NO_CODE_CACHE: '1' },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.end(toolPayload('claude', 'PreToolUse', 'Bash', '{"command":"npm test"}'));
    const status = await new Promise<number | null>((r) => child.on('close', r));
    // The server's answer, relayed (not the in-process decision, which would allow `npm test`).
    expect([status, stderr]).toEqual([2, 'denied by the server\n']);
    const loaded = readFileSync(trace, 'utf8').split('\n').filter((f) => f.startsWith('/'));
    expect(loaded.some((f) => /dist\/chunks\/client-[^/]*\.cjs$/.test(f))).toBe(true);
    for (const file of chunks(loaded)) {
      const text = readFileSync(file, 'utf8');
      for (const marker of ENGINE_MARKERS) expect(text, file).not.toContain(marker);
    }
  } finally {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
