/**
 * `verdict serve` through the real command: `/v1/decide` answers byte for byte as `verdict eval`
 * does (single and batch), `/v1/hooks/<agent>` answers as `verdict hook` does (and `verdict hook
 * --server` relays it exactly), every response names the policy version, `/healthz` and `/metrics`
 * say what a user needs, tokens and listen addresses are checked, the audit log rotates and keeps
 * inputs out unless asked.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookAgent } from '@verdict/engine';
import { runCli, type RunResult } from './harness.ts';
import { readAnswer } from './hook-agent-models.ts';
import { EVENT_KINDS, shellPayload } from './hook-payloads.ts';
import { call, post, killAll, runBuilt, type Served, serve } from './serve-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'verdict-serve-'));
const POLICY = join(dir, 'policy.yaml');
writeFileSync(
  POLICY,
  `approver:
  mode: pattern
  default: deny
  deny:
    - {tool: shell, match: 'rm -rf'}
    - {tool: bash, match: 'rm -rf'}
  ask:
    - {tool: shell, match: 'git push'}
  allow:
    - {tool: shell, match: 'git status'}
    - {tool: bash, match: 'ls'}
`,
);
let server: Served;
const socket = join(dir, 's.sock');
const auditFile = join(dir, 'audit.log');

beforeAll(async () => {
  server = await serve(POLICY, socket, ['--log', auditFile]);
});
afterAll(async () => {
  await server?.stop();
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** Request lines of every kind `verdict eval` reads: plain, raw input, bad JSON, repeated and folded keys, invalid UTF-8. */
const LINES: Buffer[] = [
  Buffer.from('{"toolName":"bash","input":"{\\"command\\":\\"ls -la\\"}"}'),
  Buffer.from('{"toolName":"bash","input":{"command":"rm -rf /"},"sessionId":"s1"}'),
  Buffer.from('{"toolName":"bash","input":{"command" : "ls"  }}'),
  Buffer.from('{"TOOLNAME":"bash","input":"{}"}'),
  Buffer.from('{"toolName":"bash","toolname":"x","input":"{}"}'),
  Buffer.from('{"toolName":"bash",'),
  Buffer.from('[1,2]'),
  Buffer.from('{"input":"{}"}'),
  Buffer.concat([Buffer.from('{"toolName":"bash","input":"{\\"command\\":\\"ls \xff'), Buffer.from([0xff, 0xfe]), Buffer.from('\\"}"}')]),
  Buffer.from('{"toolName":"write","input":"{\\"file_path\\":\\"/x\\",\\"content\\":\\"\\ud800\\"}"}'),
];

async function evalAnswer(lines: Buffer[]): Promise<string> {
  const r = await runCli(['eval', '--policy', POLICY], Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
  expect(r.code).toBe(0);
  return r.stdout;
}

describe('POST /v1/decide', () => {
  it('answers each request as `verdict eval` answers its line, byte for byte', async () => {
    const want = (await evalAnswer(LINES)).split('\n');
    for (const [i, line] of LINES.entries()) {
      const r = await post(socket, '/v1/decide', line);
      expect(r.status).toBe(200);
      expect(r.body, line.toString('latin1')).toBe(`${want[i]}\n`);
      expect(r.headers['verdict-policy-version']).toMatch(/^sha256:[0-9a-f]{16}$/);
      expect(r.headers['server-timing']).toMatch(/^verdict;dur=\d+\.\d{3}$/);
    }
  });
  it('takes a request written over several lines (a host’s pretty-printed JSON) as one', async () => {
    const r = await post(socket, '/v1/decide', '{\n  "toolName": "bash",\n  "input": {"command": "rm -rf /"}\n}\n');
    expect(JSON.parse(r.body)).toMatchObject({ decision: 'deny', rule: { list: 'deny', index: 1 } });
  });
  it('answers a JSON-lines batch as `verdict eval` answers the same input (blank lines skipped, a BOM dropped)', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), ...LINES.flatMap((l) => [l, Buffer.from('\n \r\n')])]);
    const r = await post(socket, '/v1/decide', body, { 'Content-Type': 'application/x-ndjson' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/x-ndjson');
    expect(r.body).toBe(await evalAnswer(LINES));
  });
  it('answers an unknown route 404 and a GET on /v1/decide 405, with no decision', async () => {
    const a = await post(socket, '/v1/decid', '{}');
    expect(a.status).toBe(404);
    expect(JSON.parse(a.body).error).toMatch(/no route `\/v1\/decid`/);
    const b = await call(socket, 'GET', '/v1/decide');
    expect(b.status).toBe(405);
    expect(JSON.parse(b.body)).toEqual({ decision: 'deny', reason: 'verdict: `GET` is not allowed on `/v1/decide`: use POST', rule: null });
  });
});

/** `verdict hook` as an agent runs it, with `--server` or without; the hook's log says whether the server answered. */
function hookProcess(agent: HookAgent, payload: string, args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  return runBuilt(['hook', '--agent', agent, '--policy', POLICY, ...args], payload, env);
}

describe('POST /v1/hooks/<agent>', () => {
  for (const { agent, event } of EVENT_KINDS) {
    it(`${agent} ${event}: \`verdict hook --server\` answers exactly as \`verdict hook\` does, and the server answered`, async () => {
      const log = join(dir, `hook-${agent}-${event}.log`);
      for (const command of ['git status', 'rm -rf /', 'git push origin', 'make']) {
        const payload = shellPayload(agent, event, command);
        const local = await runCli(['hook', '--agent', agent, '--policy', POLICY], payload);
        const remote = await hookProcess(agent, payload, ['--server', `unix:${socket}`, '--log', log]);
        expect(remote, `${command}`).toEqual({ code: local.code, stdout: local.stdout, stderr: local.stderr });
      }
      const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { server?: string });
      expect(lines.map((l) => l.server)).toEqual(Array(4).fill(expect.stringMatching(/^answered by sha256:/)));
    });
  }
  it('Claude Code’s http hook: a deny is a 200 with the deny JSON (exit 2 has no HTTP form), an allow is an empty 200', async () => {
    const deny = await post(socket, '/v1/hooks/claude', shellPayload('claude', 'PreToolUse', 'rm -rf /'), { 'Content-Type': 'application/json' });
    expect(deny.status).toBe(200);
    expect(readAnswer('claude', 'PreToolUse', { code: 0, stdout: deny.body, stderr: '' })).toBe('blocked');
    expect(JSON.parse(deny.body).hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    expect(deny.headers['verdict-decision']).toBe('deny');
    const allow = await post(socket, '/v1/hooks/claude', shellPayload('claude', 'PreToolUse', 'git status'));
    expect({ status: allow.status, body: allow.body, decision: allow.headers['verdict-decision'] }).toEqual({ status: 200, body: '', decision: 'allow' });
    const approve = await post(socket, '/v1/hooks/claude?approve=1', shellPayload('claude', 'PreToolUse', 'git status'));
    expect(JSON.parse(approve.body).hookSpecificOutput.permissionDecision).toBe('allow');
  });
  it('a payload that does not parse, and an unknown agent in the path, are denies in the dialect', async () => {
    const bad = await post(socket, '/v1/hooks/claude', '{"hook_event_name":');
    expect(bad.status).toBe(200);
    expect(JSON.parse(bad.body).hookSpecificOutput.permissionDecisionReason).toBe('verdict: the payload is not valid JSON');
    const malformed = await post(socket, '/v1/hooks/%E0%A4%A?form=command', shellPayload('claude', 'PreToolUse', 'git status'));
    expect(JSON.parse(malformed.body)).toMatchObject({ exitCode: 2, decision: 'deny', stderr: '', stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'verdict: unknown agent `%E0%A4%A` in the path (want claude, codex, gemini or cursor)' } })}\n` });
    const unknown = await post(socket, '/v1/hooks/clade?form=command', shellPayload('claude', 'PreToolUse', 'git status'));
    expect(JSON.parse(unknown.body)).toMatchObject({ exitCode: 2, decision: 'deny', stderr: '', stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'verdict: unknown agent `clade` in the path (want claude, codex, gemini or cursor)' } })}\n` });
  });
});

describe('health, metrics, audit log', () => {
  it('/healthz names the serving version; /metrics counts decisions by rule, latency and reloads', async () => {
    const h = await call(socket, 'GET', '/healthz');
    const health = JSON.parse(h.body);
    expect(health).toMatchObject({ status: 'ok', policy: { file: POLICY, version: h.headers['verdict-policy-version'] }, lastReload: { ok: true } });
    await post(socket, '/v1/decide', '{"toolName":"bash","input":"{\\"command\\":\\"rm -rf x\\"}"}');
    const m = (await call(socket, 'GET', '/metrics')).body;
    expect(m).toMatch(/^verdict_decisions_total\{endpoint="decide",decision="deny",rule="deny\[1\]"\} [1-9]\d*$/m);
    expect(m).toMatch(/^verdict_request_duration_seconds_bucket\{endpoint="decide",le="\+Inf"\} [1-9]\d*$/m);
    expect(m).toContain('verdict_policy_reloads_total{result="failed"} 0');
    expect(m).toContain(`verdict_policy_info{version="${health.policy.version}"} 1`);
  });
  it('the audit log has one line per decision with version, tool, rule and location, and no input', async () => {
    await post(socket, '/v1/decide', '{"toolName":"bash","input":"{\\"command\\":\\"rm -rf SECRET-TOKEN-123\\"}"}');
    await new Promise((r) => setTimeout(r, 100));
    const text = readFileSync(auditFile, 'utf8');
    expect(text).not.toContain('SECRET-TOKEN-123');
    const last = text.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.inputBytes === 61).at(-1);
    expect(last).toMatchObject({ endpoint: 'decide', tool: 'bash', decision: 'deny', rule: 'deny[1]', at: `${POLICY}:6:7`, policy: expect.stringMatching(/^sha256:/) });
    expect(typeof last.ms).toBe('number');
  });
});

describe('a server of its own', () => {
  it('--log-inputs logs the input; --log-max-size rotates the log to FILE.1', async () => {
    const sock = join(dir, 'rot.sock');
    const log = join(dir, 'rot.log');
    const s = await serve(POLICY, sock, ['--log', log, '--log-inputs', '--log-max-size', '2KiB', '--log-keep', '2']);
    try {
      for (let i = 0; i < 40; i++) await post(sock, '/v1/decide', `{"toolName":"bash","input":"{\\"command\\":\\"ls ${i}\\"}"}`);
    } finally {
      expect(await s.stop()).toBe(0);
    }
    expect(existsSync(`${log}.1`)).toBe(true);
    expect(existsSync(`${log}.2`)).toBe(true);
    expect(existsSync(`${log}.3`)).toBe(false);
    for (const f of [log, `${log}.1`]) {
      expect(readFileSync(f).length).toBeLessThanOrEqual(2048 + 400);
      for (const line of readFileSync(f, 'utf8').trim().split('\n')) expect(JSON.parse(line).input).toMatch(/^\{"command":"ls \d+"\}$/);
    }
    expect(readFileSync(log, 'utf8')).toContain('ls 39');
  });
  it('a token: requests without it are answered 401 with the deny, with it decided', async () => {
    const sock = join(dir, 'tok.sock');
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 's3cret\n');
    const s = await serve(POLICY, sock, ['--token-file', tokenFile]);
    try {
      const no = await post(sock, '/v1/decide', '{"toolName":"bash","input":"{\\"command\\":\\"ls\\"}"}');
      expect(no.status).toBe(401);
      expect(JSON.parse(no.body).decision).toBe('deny');
      const wrong = await post(sock, '/v1/decide', '{"toolName":"bash","input":"{\\"command\\":\\"ls\\"}"}', { Authorization: 'Bearer s3cre' });
      expect(wrong.status).toBe(401);
      const yes = await post(sock, '/v1/decide', '{"toolName":"bash","input":"{\\"command\\":\\"ls\\"}"}', { Authorization: 'Bearer s3cret' });
      expect(JSON.parse(yes.body).decision).toBe('allow');
      // verdict hook --server sends the token from VERDICT_SERVE_TOKEN; without it, it is refused and decides in-process
      const log = join(dir, 'tok-hook.log');
      const payload = shellPayload('claude', 'PreToolUse', 'git status');
      const withToken = await hookProcess('claude', payload, ['--server', `unix:${sock}`, '--log', log], { VERDICT_SERVE_TOKEN: 's3cret' });
      const without = await hookProcess('claude', payload, ['--server', `unix:${sock}`, '--log', log], { VERDICT_SERVE_TOKEN: '' });
      expect(withToken).toEqual(without);
      expect(readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l).server)).toEqual([expect.stringMatching(/^answered by sha256:/), 'fell back to in-process: status 401']);
    } finally {
      await s.stop();
    }
  });
  it('a TCP address that is not loopback needs --insecure-listen and a token', async () => {
    const a = await runCli(['serve', '--policy', POLICY, '--listen', '0.0.0.0:0']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/^verdict serve: `0\.0\.0\.0:0` is not a loopback address.*\n  help: listen on `unix:PATH`/);
    const b = await runCli(['serve', '--policy', POLICY, '--listen', '0.0.0.0:0', '--insecure-listen']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/^verdict serve: `--insecure-listen` needs a bearer token\n/);
  });
  it('a policy that does not load at start: its located diagnostics and exit 2', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'approver: {mode: pattern, default: deny, allow: [{tool: bash, match: "a(b"}]}\n');
    const r = await runCli(['serve', '--policy', bad, '--listen', `unix:${join(dir, 'bad.sock')}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1:\\d+: error: `));
  });
  it('an address in use by a live server is refused; a stale socket file is replaced', async () => {
    const r = await runCli(['serve', '--policy', POLICY, '--listen', `unix:${socket}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`verdict serve: cannot listen on \`unix:${socket}\`: another server answers on it\n`);
  });
});
