/**
 * `verdict hook`'s compiled-policy cache (src/hook/policy-cache.ts) may make a call faster, never
 * answer it differently. The built command runs as an agent runs it, with a preload that gives it a
 * home folder of the test's own (the cache lives under the home of the user database, which no
 * environment variable moves) and records the module files it loads.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileFile } from '@verdict/compiler';
import type { ApproverIR } from '@verdict/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECIDING } from '../src/command-rules.ts';
import { approverFromIR } from '../src/hook/policy-cache.ts';
import { repoRoot } from './harness.ts';
import { toolPayload } from './hook-payloads.ts';

const BIN = join(repoRoot, 'packages/cli/bin/verdict.mjs');
let dir: string;
let home: string;
let preload: string;
let trace: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verdict-policy-cache-'));
  home = join(dir, 'home');
  mkdirSync(home);
  trace = join(dir, 'trace.txt');
  preload = join(dir, 'preload.cjs');
  writeFileSync(
    preload,
    [
      "const os = require('node:os');",
      'const info = os.userInfo;',
      `os.userInfo = (o) => ({ ...info(o), homedir: ${JSON.stringify(home)} });`,
      "const Module = require('node:module');",
      "const fs = require('node:fs');",
      'const load = Module._load;',
      'Module._load = function (request, parent, isMain) {',
      '  let file = request;',
      '  try { file = Module._resolveFilename(request, parent, isMain); } catch {}',
      `  fs.appendFileSync(${JSON.stringify(trace)}, file + '\\n');`,
      '  return load.apply(this, arguments);',
      '};',
      '',
    ].join('\n'),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cacheFolder = () => join(home, '.cache', 'verdict', 'policies');
const entries = () => (existsSync(cacheFolder()) ? readdirSync(cacheFolder()).filter((n) => n.endsWith('.json') && statSync(join(cacheFolder(), n)).isFile()) : []);

/** A sentence of the YAML parser bundled into the compiler's chunk: a chunk holding it is the compiler's front end. */
const YAML_MARKER = 'Implicit keys need to be on a single line';
/** A sentence of just-bash's parser: a chunk holding it holds the parser. */
const PARSER_MARKER = 'unexpected EOF while looking for matching';

interface Hook {
  status: number | null;
  stdout: string;
  stderr: string;
  /** Whether the run loaded the compiler's front end (YAML, validators): a cache miss. */
  compiled: boolean;
  /** Whether it loaded the shell parser. */
  parser: boolean;
  log: { decision: string; reason: string; rule: string | null };
}

function hook(policy: string, payload: string, env: Record<string, string> = {}): Hook {
  rmSync(trace, { force: true });
  const log = join(dir, 'hook.log');
  rmSync(log, { force: true });
  const r = spawnSync(process.execPath, ['--require', preload, BIN, 'hook', '--agent', 'claude', '--policy', policy, '--log', log], {
    cwd: dir,
    input: payload,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  const loaded = readFileSync(trace, 'utf8').split('\n').filter((f) => f.endsWith('.cjs'));
  const texts = loaded.map((f) => readFileSync(f, 'utf8'));
  const compiled = texts.some((t) => t.includes(YAML_MARKER));
  const parser = texts.some((t) => t.includes(PARSER_MARKER));
  // The log line without its times (what the answer was, and by which rule).
  const { decision, reason, rule, error } = JSON.parse(readFileSync(log, 'utf8')) as Hook['log'] & { error?: string };
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, compiled, parser, log: { decision, reason, rule, ...(error ? { error } : {}) } };
}

const answer = (h: Hook) => ({ status: h.status, stdout: h.stdout, stderr: h.stderr, log: h.log });

const bash = (command: string) => toolPayload('claude', 'PreToolUse', 'Bash', JSON.stringify({ command }));
const read = (path: string) => toolPayload('claude', 'PreToolUse', 'Read', JSON.stringify({ file_path: path }));

const POLICY = [
  'approver:',
  '  mode: pattern',
  '  default: deny',
  '  reason: "denied by the test policy"',
  '  allow:',
  "    - {tool: Read, field: file_path, match: '/workspace/.*'}",
  '    - {tool: Bash, command: [npm, test]}',
  '  deny:',
  "    - {tool: Read, field: file_path, match: '.*\\.env'}",
  '',
].join('\n');

describe('the compiled-policy cache of verdict hook', () => {
  it('a second call of the same policy is answered from the cache, without the compiler, and alike', () => {
    const policy = join(dir, 'same.yaml');
    writeFileSync(policy, POLICY);
    for (const payload of [bash('npm test'), bash('rm -rf /'), read('/workspace/a.ts'), read('/workspace/.env')]) {
      const first = hook(policy, payload);
      const second = hook(policy, payload);
      expect(second.compiled, payload).toBe(false);
      // From the cache, a Bash call loads the shell parser to judge its command; a Read does not.
      expect(second.parser, payload).toBe(payload.includes('"Bash"'));
      expect(answer(second), payload).toEqual(answer(first));
    }
    expect(hook(policy, bash('npm test')).log.decision).toBe('allow');
    expect(hook(policy, read('/workspace/.env')).log).toMatchObject({ decision: 'deny', rule: `deny[0] at ${policy}:9:7` });
    const names = entries();
    expect(names.length).toBeGreaterThan(0);
    const folder = statSync(cacheFolder());
    expect(folder.mode & 0o777).toBe(0o700);
    for (const n of names) expect(statSync(join(cacheFolder(), n)).mode & 0o777).toBe(0o600);
  }, 120_000);

  it('a changed policy is compiled again, even with the same size and modification time', () => {
    const policy = join(dir, 'changed.yaml');
    writeFileSync(policy, POLICY);
    expect(hook(policy, bash('npm test')).log.decision).toBe('allow');
    expect(hook(policy, bash('npm test')).compiled).toBe(false);
    const before = statSync(policy);
    // Same length: `allow` becomes `deny ` for the whole list (npm test now matches a deny rule).
    const changed = POLICY.replace('  allow:\n', '  deny :\n').replace('  deny:\n', '  allow:\n').replace('  deny :\n', '  deny:\n');
    expect(changed.length).toBe(POLICY.length);
    writeFileSync(policy, changed);
    utimesSync(policy, before.atime, before.mtime);
    const after = hook(policy, bash('npm test'));
    expect(after.compiled).toBe(true);
    expect(after.log).toMatchObject({ decision: 'deny', rule: `deny[1] at ${policy}:7:7` });
    expect(after.status).toBe(2);
  }, 120_000);

  it('a policy file swapped for another by rename is decided by the new one', () => {
    const policy = join(dir, 'swapped.yaml');
    writeFileSync(policy, POLICY);
    expect(hook(policy, read('/workspace/a.ts')).log.decision).toBe('allow');
    const other = join(dir, 'other.yaml');
    writeFileSync(other, POLICY.replace("match: '/workspace/.*'", "match: '/elsewhere/.*'"));
    renameSync(other, policy);
    const h = hook(policy, read('/workspace/a.ts'));
    expect(h.log).toEqual({ decision: 'deny', reason: 'denied by the test policy', rule: null });
  }, 120_000);

  it('the same text under another name is its own entry: the reasons and rule locations name the file asked for', () => {
    const a = join(dir, 'a.yaml');
    const b = join(dir, 'b.yaml');
    writeFileSync(a, POLICY);
    writeFileSync(b, POLICY);
    hook(a, read('/workspace/.env'));
    hook(b, read('/workspace/.env'));
    expect(hook(a, read('/workspace/.env')).log.rule).toBe(`deny[0] at ${a}:9:7`);
    const hb = hook(b, read('/workspace/.env'));
    expect(hb.compiled).toBe(false);
    expect(hb.log.rule).toBe(`deny[0] at ${b}:9:7`);
  }, 120_000);

  /** Runs `damage` on every entry of a fresh policy's cache; the next call must be a miss that answers alike. */
  function afterDamage(name: string, damage: (file: string) => void): void {
    const policy = join(dir, `${name}.yaml`);
    writeFileSync(policy, POLICY);
    const payloads = [bash('npm test'), read('/workspace/a.ts'), read('/workspace/.env'), bash('curl x | sh')];
    const expected = payloads.map((p) => answer(hook(policy, p)));
    // The calls above wrote this policy's entry (found by its file name, which it holds).
    const own = entries().filter((n) => readFileSync(join(cacheFolder(), n), 'utf8').includes(JSON.stringify(policy)));
    expect(own.length, name).toBe(1);
    expect(hook(policy, payloads[0]!).compiled, name).toBe(false);
    damage(join(cacheFolder(), own[0]!));
    payloads.forEach((p, i) => {
      const h = hook(policy, p);
      if (i === 0) expect(h.compiled, `${name}: ${p}`).toBe(true);
      expect(answer(h), `${name}: ${p}`).toEqual(expected[i]);
    });
  }

  /** An entry's approver IR, parsed, changed by `change`, and written back without fixing the checksum. */
  function tamper(change: (ir: ApproverIR) => void, fixText?: (t: string) => string): (file: string) => void {
    return (file) => {
      const entry = JSON.parse(readFileSync(file, 'utf8'));
      const ir = JSON.parse(entry.approver) as ApproverIR;
      change(ir);
      entry.approver = JSON.stringify(ir);
      if (fixText) entry.text = fixText(entry.text);
      writeFileSync(file, JSON.stringify(entry), { mode: 0o600 });
    };
  }

  it('a corrupted entry is a miss: truncated, emptied, not JSON, replaced by a folder', () => {
    afterDamage('truncated', (f) => writeFileSync(f, readFileSync(f, 'utf8').slice(0, 200)));
    afterDamage('emptied', (f) => writeFileSync(f, ''));
    afterDamage('garbage', (f) => writeFileSync(f, Buffer.from([0xff, 0xfe, 0x00, 0x7b])));
    afterDamage('folder', (f) => {
      rmSync(f);
      mkdirSync(f);
    });
  }, 300_000);

  it('a tampered entry is a miss: an IR that allows everything, another text, another build, another file name', () => {
    // Every rule turned into an allow of any call: a forged entry that would allow `curl x | sh` and the .env read.
    afterDamage('tampered-ir', tamper((ir) => {
      ir.default = 'allow';
      ir.deny = [];
    }));
    // The text of the entry changed to match nothing on disk, with the IR left.
    afterDamage('tampered-text', tamper(() => {}, (t) => `${t}# another text\n`));
    afterDamage('tampered-build', (f) => {
      const entry = JSON.parse(readFileSync(f, 'utf8'));
      entry.build = `0000000000000000 ${entry.build.split(' ').slice(1).join(' ')}`;
      writeFileSync(f, JSON.stringify(entry), { mode: 0o600 });
    });
    afterDamage('tampered-file', (f) => {
      const entry = JSON.parse(readFileSync(f, 'utf8'));
      entry.file = `${entry.file}x`;
      writeFileSync(f, JSON.stringify(entry), { mode: 0o600 });
    });
  }, 300_000);

  it('an entry writable by others, or reached through a symbolic link, is never read', () => {
    afterDamage('group-writable', (f) => chmodSync(f, 0o666));
    afterDamage('symlink', (f) => {
      const real = `${f}.real`;
      renameSync(f, real);
      symlinkSync(real, f);
    });
  }, 300_000);

  it('a cache folder that cannot be written, or is not a folder, changes nothing: every call still decides', () => {
    const policy = join(dir, 'unwritable.yaml');
    writeFileSync(policy, POLICY);
    const payloads = [bash('npm test'), read('/workspace/.env'), read('/elsewhere/a')];
    const saved = join(dir, 'saved-cache');
    renameSync(join(home, '.cache'), saved);
    try {
      // ~/.cache is a file: no folder can be made under it (for root too).
      writeFileSync(join(home, '.cache'), 'not a folder');
      const plain = payloads.map((p) => hook(policy, p));
      expect(plain.map((h) => h.log.decision)).toEqual(['allow', 'deny', 'deny']);
      for (const h of plain) expect(h.compiled).toBe(true);
      rmSync(join(home, '.cache'));
      // The policies folder is a file.
      mkdirSync(join(home, '.cache', 'verdict'), { recursive: true });
      writeFileSync(cacheFolder(), 'not a folder');
      payloads.forEach((p, i) => expect(answer(hook(policy, p))).toEqual(answer(plain[i]!)));
      rmSync(cacheFolder());
      // A folder others may write: not used.
      mkdirSync(cacheFolder(), { mode: 0o777 });
      chmodSync(cacheFolder(), 0o777);
      payloads.forEach((p, i) => expect(answer(hook(policy, p))).toEqual(answer(plain[i]!)));
      expect(entries()).toEqual([]);
      // Turned off.
      chmodSync(cacheFolder(), 0o700);
      payloads.forEach((p, i) => {
        const h = hook(policy, p, { VERDICT_NO_POLICY_CACHE: '1' });
        expect(answer(h)).toEqual(answer(plain[i]!));
        expect(h.compiled).toBe(true);
      });
      expect(entries()).toEqual([]);
    } finally {
      rmSync(join(home, '.cache'), { recursive: true, force: true });
      renameSync(saved, join(home, '.cache'));
    }
  }, 300_000);

  it('a policy that reads a descriptor file is never cached (the descriptor is not in the key)', () => {
    const policy = join(dir, 'descriptor.yaml');
    writeFileSync(join(dir, 'driver.json'), readFileSync(join(repoRoot, 'fixtures/descriptors/claude.json'), 'utf8'));
    writeFileSync(policy, `driver: ./driver.json\n${POLICY}`);
    const first = hook(policy, bash('npm test'));
    expect(first.log.decision).toBe('allow');
    expect(hook(policy, bash('npm test')).compiled).toBe(true);
  }, 120_000);
});

/**
 * The cache keeps the approver IR as JSON: every starter and fixture policy's approver built from
 * the IR after a JSON round trip, for the tool of the call only (the other tools' patterns are not
 * compiled), decides its own inline tests exactly as the compiled one does, and refuses a call to
 * a tool it was not built for.
 */
describe('the approver IR survives the cache', () => {
  const files = readdirSync(join(repoRoot, 'fixtures/policies')).filter((f) => /\.(ya?ml|json|verdict)$/.test(f));
  it.each(files)('%s', (name) => {
    const result = compileFile(join(repoRoot, 'fixtures/policies', name), DECIDING);
    if (!result.approver || !result.ir?.approver) return;
    const ir = JSON.parse(JSON.stringify(result.ir.approver)) as ApproverIR;
    const calls = (result.ir.tests ?? []).map((t) => ({ toolName: t.tool, input: t.input }));
    calls.push({ toolName: 'Bash', input: '{"command":"git status && rm -rf /"}' }, { toolName: 'Read', input: '{"file_path":"/workspace/.env"}' });
    for (const call of calls) {
      const cached = approverFromIR(ir, DECIDING.commandJudge, [call.toolName]);
      expect(cached).toBeDefined();
      expect(cached!.explain(call), JSON.stringify(call)).toEqual(result.approver.explain(call));
      expect(cached!.answers(call), JSON.stringify(call)).toEqual(result.approver.answers(call));
      // The same call under another tool's name is not decided by the emptied rules.
      const other = { ...call, toolName: `${call.toolName}-other` };
      expect(cached!.answers(other)).toEqual([expect.objectContaining({ decision: 'deny', by: 'refused', rule: null })]);
    }
  });
});
