/**
 * `verdict hook --server ADDR` without `--policy`: the answer is the server's, relayed exactly, or
 * the agent's deny. A server that is not there, does not answer in time, or answers anything but a
 * well-formed hook answer (not HTTP, no or a wrong Content-Length, a chunked body, a status other
 * than 200, a body of another shape) never turns into an allow. The servers here are plain sockets
 * of the test, so each answer is exactly the bytes written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolPayload } from './hook-payloads.ts';
import { runBuilt } from './serve-harness.ts';

let dir: string;
const servers: Server[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'verdict-hook-server-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

/** A unix socket server that reads a request whole, then answers with `reply(request)` (bytes) or nothing. */
async function fake(name: string, reply: ((request: string) => string | Buffer) | 'silent'): Promise<string> {
  const path = join(dir, `${name}.sock`);
  const server = createServer((socket: Socket) => {
    let got = '';
    socket.on('data', (c: Buffer) => {
      got += c.toString('latin1');
      const end = got.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(got)?.[1] ?? NaN);
      if (end < 0 || got.length - end - 4 < length || reply === 'silent') return;
      socket.end(reply(got));
    });
    socket.on('error', () => {});
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(path, r));
  return `unix:${path}`;
}

const bash = toolPayload('claude', 'PreToolUse', 'Bash', '{"command":"rm -rf build"}');
const permission = toolPayload('claude', 'PermissionRequest', 'Bash', '{"command":"ls"}', { permission_suggestions: [{ type: 'addRules' }] });

/** A hook answer as `verdict serve` gives it with ?form=command, for an allow. */
const ALLOW = JSON.stringify({ exitCode: 0, stdout: '', stderr: '', decision: 'allow', reason: '', rule: 'allow[0] at p.yaml:1:1', agent: 'claude', event: 'PreToolUse', tool: 'Bash', policyVersion: 'sha256:0' });
const http = (status: string, headers: string[], body: string): string => `HTTP/1.1 ${status}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n${body}`;
const len = (body: string) => `Content-Length: ${Buffer.byteLength(body)}`;

function expectDeny(r: { code: number; stdout: string; stderr: string }, event: 'PreToolUse' | 'PermissionRequest', why: RegExp): void {
  if (event === 'PreToolUse') {
    expect(r.code).toBe(2);
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toMatch(why);
  } else {
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout).hookSpecificOutput;
    expect(out.decision.behavior).toBe('deny');
    expect(out.decision.message).toMatch(why);
  }
  expect(r.stderr).toBe('');
}

describe('verdict hook --server without --policy fails closed', () => {
  it('relays a well-formed answer exactly (the control: this client reads the server right)', async () => {
    const server = await fake('good', () => http('200 OK', ['Content-Type: application/json', len(ALLOW), 'Connection: close'], ALLOW));
    const r = await runBuilt(['hook', '--agent', 'claude', '--server', server], bash);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('no server at the address: deny, in the dialect of the event', async () => {
    for (const [payload, event] of [[bash, 'PreToolUse'], [permission, 'PermissionRequest']] as const) {
      const r = await runBuilt(['hook', '--agent', 'claude', '--server', `unix:${join(dir, 'nobody.sock')}`], payload);
      expectDeny(r, event, /verdict serve at `unix:.*nobody\.sock` gave no answer \(ENOENT\), and there is no --policy/);
    }
    const tcp = await runBuilt(['hook', '--agent', 'claude', '--server', '127.0.0.1:1'], bash);
    expectDeny(tcp, 'PreToolUse', /gave no answer \(ECONNREFUSED\)/);
  });

  it('a server that does not answer within --server-timeout: deny', async () => {
    const server = await fake('silent', 'silent');
    const t = performance.now();
    const r = await runBuilt(['hook', '--agent', 'claude', '--server', server, '--server-timeout', '300ms'], bash);
    expectDeny(r, 'PreToolUse', /gave no answer \(no answer within 300 ms\)/);
    expect(performance.now() - t).toBeLessThan(20_000);
  });

  const garbage: [string, string | Buffer, RegExp][] = [
    ['not HTTP', 'allow\n', /the answer (has no end of headers|is not HTTP)/],
    ['a status line of another protocol', http('200 OK', [len(ALLOW)], ALLOW).replace('HTTP/1.1', 'HTTP/2.0'), /the answer is not HTTP/],
    ['no Content-Length', http('200 OK', ['Connection: close'], ALLOW), /no Content-Length/],
    ['a Content-Length longer than the body', http('200 OK', [`Content-Length: ${ALLOW.length + 5}`], ALLOW), /bytes of body, not/],
    ['a Content-Length shorter than the body', http('200 OK', [`Content-Length: ${ALLOW.length - 5}`], ALLOW), /bytes of body, not/],
    ['two Content-Lengths that disagree', http('200 OK', [len(ALLOW), 'Content-Length: 3'], ALLOW), /bad Content-Length/],
    ['a chunked body', http('200 OK', ['Transfer-Encoding: chunked'], `${ALLOW.length.toString(16)}\r\n${ALLOW}\r\n0\r\n\r\n`), /chunked/],
    ['status 500 with an allow body', http('500 Internal Server Error', [len(ALLOW)], ALLOW), /status 500/],
    ['a body that is not JSON', http('200 OK', [len('{"exitCode":0,')], '{"exitCode":0,'), /not a hook answer/],
    ['a decision that is not one', http('200 OK', [len(ALLOW.replace('"allow"', '"yes"'))], ALLOW.replace('"allow"', '"yes"')), /not a hook answer/],
    ['an exit code agents read as "run it"', http('200 OK', [len(ALLOW.replace('"exitCode":0', '"exitCode":1'))], ALLOW.replace('"exitCode":0', '"exitCode":1')), /not a hook answer/],
    ['an answer without its policy version', http('200 OK', [len(ALLOW.replace(',"policyVersion":"sha256:0"', ''))], ALLOW.replace(',"policyVersion":"sha256:0"', '')), /not a hook answer/],
    ['a header line without a colon', http('200 OK', [len(ALLOW), 'garbage'], ALLOW), /malformed header/],
  ];
  it.each(garbage)('an answer with %s: deny', async (name, bytes, why) => {
    const server = await fake(name.replace(/\W+/g, '-'), () => bytes);
    const r = await runBuilt(['hook', '--agent', 'claude', '--server', server], bash);
    expectDeny(r, 'PreToolUse', why);
  });

  it('with --policy, a server that fails is decided in-process instead (by the policy, never an allow by default)', async () => {
    const server = await fake('garbage-with-policy', () => 'nonsense');
    const r = await runBuilt(['hook', '--agent', 'claude', '--policy', 'fixtures/policies/claude-code.yaml', '--server', server], bash);
    expectDeny(r, 'PreToolUse', /`rm -rf build` matches rule deny\[0\]/);
  });
});
