/**
 * `verdict serve` under faults, through the real process: killed with SIGKILL while a hook waits on
 * it (the hook decides in-process and answers), a 100 MB body, 1,000 idle connections, slow clients
 * (a body that stops arriving, headers a byte at a time), more requests than it takes at once, a
 * policy that turns invalid mid-run, and a graceful stop with a request half sent. Every request
 * that asks for a decision gets the endpoint's deny or a decision, never silence or an allow by
 * default; no wall-clock assertion beyond "answered before the test's timeout".
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './harness.ts';
import { readAnswer } from './hook-agent-models.ts';
import { shellPayload } from './hook-payloads.ts';
import { call, post, type Response, killAll, runBuilt, serve, until } from './serve-harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'verdict-serve-faults-'));
afterAll(() => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

const V1 = 'approver: {mode: pattern, default: deny, allow: [{tool: bash, match: "ls -la"}, {tool: shell, match: "git status"}]}\n';
const INVALID = 'approver: {mode: pattern, default: deny, allow: [{tool: bash, match: "ls -la("}]}\n';
const V3 = 'approver: {mode: pattern, default: deny, allow: [{tool: bash, match: "ls -la|pwd"}]}\n';
const LS = '{"toolName":"bash","input":"{\\"command\\":\\"ls -la\\"}"}';
const PWD = '{"toolName":"bash","input":"{\\"command\\":\\"pwd\\"}"}';

let n = 0;
function fresh(policyText = V1): { policy: string; socket: string } {
  n++;
  const policy = join(dir, `p${n}.yaml`);
  writeFileSync(policy, policyText);
  return { policy, socket: join(dir, `s${n}.sock`) };
}

/** A request whose head and the first part of its body are sent; `rest()` sends the remainder. */
function partial(socket: string, path: string, body: string, headers: Record<string, string> = {}): { response: Promise<Response>; rest(): void } {
  const cut = Math.floor(body.length / 2);
  let rest = (): void => {};
  const response = new Promise<Response>((resolve, reject) => {
    const req = request({ socketPath: socket, method: 'POST', path, headers: { 'Content-Length': String(Buffer.byteLength(body)), ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.flushHeaders();
    req.write(body.slice(0, cut));
    rest = () => req.end(body.slice(cut));
  });
  return { response, rest: () => rest() };
}

/**
 * A POST that reads the answer even if the server stops reading the body first (as a client that
 * reads while it writes does): an error writing the rest after the answer came is not a failure.
 */
function postReadingAnswer(socket: string, path: string, body: Buffer): Promise<Response> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request({ socketPath: socket, method: 'POST', path, headers: { 'Content-Length': String(body.length) }, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', (err) => (answered ? undefined : reject(err)));
    req.end(body);
  });
}

async function inflight(socket: string): Promise<number> {
  const h = JSON.parse((await call(socket, 'GET', '/healthz')).body) as { inflight: number };
  return h.inflight;
}

async function metric(socket: string, name: string): Promise<number> {
  const m = (await call(socket, 'GET', '/metrics')).body;
  const line = m.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return Number(line?.split(' ').at(-1));
}

describe('verdict serve under faults', () => {
  it('kill -9 while a hook waits on it: the hook decides in-process and answers as `verdict hook` does', async () => {
    const { policy, socket } = fresh();
    // The server's hook endpoint never decides (the fault switch of the shared hook code), so the
    // hook client is certainly waiting on it when the server is killed.
    const s = await serve(policy, socket, [], { VERDICT_HOOK_FAULT: 'hang' });
    const log = join(dir, 'kill.log');
    const payloads = ['git status', 'rm -rf /'].map((c) => shellPayload('claude', 'PreToolUse', c));
    const hooks = payloads.map((payload) =>
      runBuilt(['hook', '--agent', 'claude', '--policy', policy, '--server', `unix:${socket}`, '--server-timeout', '20s', '--deadline', '40s', '--log', log], payload),
    );
    // Load on the decide endpoint at the same time (it keeps deciding until the kill).
    let decided = 0;
    let stop = false;
    const load = (async () => {
      while (!stop) {
        try {
          const r = await post(socket, '/v1/decide', LS);
          if (JSON.parse(r.body).decision === 'allow') decided++;
        } catch {
          return;
        }
      }
    })();
    await until(async () => (await inflight(socket)) >= 2, 20_000, 'both hooks to wait on the server');
    s.child.kill('SIGKILL');
    expect(await s.exited).toBe('SIGKILL');
    stop = true;
    await load;
    expect(decided).toBeGreaterThan(0);
    const answers = await Promise.all(hooks);
    for (const [i, payload] of payloads.entries()) {
      const local = await runCli(['hook', '--agent', 'claude', '--policy', policy], payload);
      expect(answers[i]).toEqual({ code: local.code, stdout: local.stdout, stderr: local.stderr });
    }
    expect(readAnswer('claude', 'PreToolUse', answers[1]!)).toBe('blocked');
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { server: string });
    expect(lines.map((l) => l.server)).toEqual([expect.stringMatching(/^fell back to in-process: /), expect.stringMatching(/^fell back to in-process: /)]);
  });

  it('a server that does not answer within --server-timeout: the hook decides in-process', async () => {
    const { policy, socket } = fresh();
    const s = await serve(policy, socket, [], { VERDICT_HOOK_FAULT: 'hang' });
    try {
      const log = join(dir, 'slow-server.log');
      const payload = shellPayload('codex', 'PreToolUse', 'rm -rf /');
      const remote = await runBuilt(['hook', '--agent', 'codex', '--policy', policy, '--server', `unix:${socket}`, '--server-timeout', '300ms', '--log', log], payload);
      const local = await runCli(['hook', '--agent', 'codex', '--policy', policy], payload);
      expect(remote).toEqual({ code: local.code, stdout: local.stdout, stderr: local.stderr });
      expect(readAnswer('codex', 'PreToolUse', remote)).toBe('blocked');
      expect(JSON.parse(readFileSync(log, 'utf8')).server).toBe('fell back to in-process: no answer within 300 ms');
    } finally {
      await s.stop();
    }
  });

  it('a body of 100 MB is refused with the deny (413), without holding it, and the server goes on', async () => {
    const { policy, socket } = fresh();
    const s = await serve(policy, socket);
    try {
      const rssBefore = await metric(socket, 'process_resident_memory_bytes');
      const big = Buffer.alloc(100 * 1024 * 1024, 0x20);
      big.write('{"toolName":"bash","input":"', 0);
      const a = await postReadingAnswer(socket, '/v1/decide', big);
      expect(a.status).toBe(413);
      expect(JSON.parse(a.body)).toEqual({ decision: 'deny', reason: 'verdict: the request body is longer than 8388608 bytes', rule: null });
      // No Content-Length (chunked): refused once 8 MiB have arrived.
      let answered = false;
      const b = await new Promise<Response>((resolve, reject) => {
        const req = request({ socketPath: socket, method: 'POST', path: '/v1/hooks/claude', agent: false }, (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', (err) => (answered ? undefined : reject(err)));
        for (let i = 0; i < 100; i++) req.write(big.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024));
        req.end();
      });
      expect(b.status).toBe(200); // Claude Code's http hook reads only a 2xx body
      expect(b.headers['verdict-error']).toBe('too_large');
      expect(readAnswer('claude', 'PreToolUse', { code: 0, stdout: b.body, stderr: '' })).toBe('blocked');
      const rssAfter = await metric(socket, 'process_resident_memory_bytes');
      expect(rssAfter - rssBefore).toBeLessThan(60 * 1024 * 1024);
      expect(JSON.parse((await post(socket, '/v1/decide', LS)).body).decision).toBe('allow');
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('1,000 idle connections neither block requests nor stay open past the deadline', async () => {
    const { policy, socket } = fresh();
    const s = await serve(policy, socket, ['--deadline', '5s']);
    const idle: Socket[] = [];
    try {
      // In batches, trying again on EAGAIN: a unix socket's listen backlog refuses what the server
      // has not yet accepted (the server is busy accepting, not hung).
      const open = (): Promise<Socket> =>
        new Promise((resolve, reject) => {
          const c = connect(socket, () => resolve(c));
          c.once('error', reject);
        });
      for (let b = 0; b < 50; b++) {
        await Promise.all(
          Array.from({ length: 20 }, async () => {
            for (let attempt = 0; ; attempt++) {
              try {
                const c = await open();
                c.on('error', () => {});
                idle.push(c);
                return;
              } catch (err) {
                if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || attempt > 50) throw err;
                await new Promise((r) => setTimeout(r, 20));
              }
            }
          }),
        );
      }
      expect(await metric(socket, 'verdict_open_connections')).toBeGreaterThanOrEqual(1000);
      const r = await post(socket, '/v1/decide', LS);
      expect(JSON.parse(r.body).decision).toBe('allow');
      await until(async () => (await metric(socket, 'verdict_open_connections')) < 10, 30_000, 'the idle connections to be closed');
    } finally {
      for (const c of idle) c.destroy();
      expect(await s.stop()).toBe(0);
    }
  });

  it('slow clients: a body that stops arriving is answered deny at the deadline (504); headers a byte at a time are cut off; others are served meanwhile', async () => {
    const { policy, socket } = fresh();
    const s = await serve(policy, socket, ['--deadline', '1s']);
    try {
      const slow = partial(socket, '/v1/decide', LS);
      const slowHook = partial(socket, '/v1/hooks/claude?form=command', shellPayload('claude', 'PreToolUse', 'git status'));
      const slowHttpHook = partial(socket, '/v1/hooks/claude', shellPayload('claude', 'PreToolUse', 'git status'));
      // A slowloris: a byte of the head every 100 ms.
      const loris = connect(socket);
      let lorisClosed = false;
      loris.on('error', () => {});
      loris.on('close', () => (lorisClosed = true));
      const head = 'POST /v1/decide HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nX-Padding: ' + 'a'.repeat(200);
      let i = 0;
      const drip = setInterval(() => {
        if (!lorisClosed && i < head.length) loris.write(head[i++]!);
      }, 100);
      for (let k = 0; k < 5; k++) expect(JSON.parse((await post(socket, '/v1/decide', LS)).body).decision).toBe('allow');
      const a = await slow.response;
      expect(a.status).toBe(504);
      expect(JSON.parse(a.body)).toEqual({ decision: 'deny', reason: 'verdict: no decision within the deadline of 1000 ms (the request was still arriving)', rule: null });
      const b = await slowHook.response;
      expect(b.status).toBe(504);
      expect(JSON.parse(b.body)).toMatchObject({ exitCode: 2, decision: 'deny' });
      const c = await slowHttpHook.response;
      expect(c.status).toBe(200);
      expect(readAnswer('claude', 'PreToolUse', { code: 0, stdout: c.body, stderr: '' })).toBe('blocked');
      await until(() => lorisClosed, 10_000, 'the slowloris connection to be closed');
      clearInterval(drip);
      expect(i).toBeLessThan(head.length);
      expect(await metric(socket, 'verdict_errors_total{kind="deadline"}')).toBe(3);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('more requests than --max-inflight: the rest are answered 503 with the deny at once, never queued forever', async () => {
    const { policy, socket } = fresh();
    const s = await serve(policy, socket, ['--max-inflight', '2', '--deadline', '5s']);
    try {
      const held = [partial(socket, '/v1/decide', LS), partial(socket, '/v1/decide', LS)];
      await until(async () => (await inflight(socket)) >= 2, 10_000, 'two requests in progress');
      const over = await post(socket, '/v1/decide', LS);
      expect(over.status).toBe(503);
      expect(JSON.parse(over.body)).toEqual({ decision: 'deny', reason: 'verdict: the server has 2 requests in progress: try again', rule: null });
      const overHook = await post(socket, '/v1/hooks/codex', shellPayload('codex', 'PreToolUse', 'git status'));
      expect(overHook.status).toBe(200);
      expect(readAnswer('codex', 'PreToolUse', { code: Number(overHook.headers['verdict-exit-code']), stdout: overHook.body, stderr: '' })).toBe('blocked');
      for (const h of held) h.rest();
      for (const h of held) expect(JSON.parse((await h.response).body).decision).toBe('allow');
      expect(JSON.parse((await post(socket, '/v1/decide', LS)).body).decision).toBe('allow');
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('a policy that turns invalid mid-run keeps the old one serving (log, metric, /healthz); a valid one is then swapped in; no answer from a policy that did not load', async () => {
    const { policy, socket } = fresh();
    const s = await serve(policy, socket);
    const seen = new Map<string, number>();
    let stop = false;
    let failures = 0;
    const load = (async () => {
      while (!stop) {
        const r = await post(socket, '/v1/decide', PWD);
        if (r.status !== 200) failures++;
        const v = String(r.headers['verdict-policy-version']);
        seen.set(`${v} ${JSON.parse(r.body).decision}`, (seen.get(`${v} ${JSON.parse(r.body).decision}`) ?? 0) + 1);
      }
    })();
    try {
      const v1 = JSON.parse((await call(socket, 'GET', '/healthz')).body).policy.version as string;
      writeFileSync(policy, INVALID);
      await until(async () => JSON.parse((await call(socket, 'GET', '/healthz')).body).status === 'reload-failed', 10_000, 'the failed reload');
      const h = JSON.parse((await call(socket, 'GET', '/healthz')).body);
      expect(h.policy.version).toBe(v1);
      expect(h.lastReload.error).toMatch(new RegExp(`^${policy.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1:\\d+: error: `));
      const v2 = h.lastReload.version as string;
      expect(await metric(socket, 'verdict_policy_reloads_total{result="failed"}')).toBeGreaterThanOrEqual(1);
      expect(await metric(socket, 'verdict_policy_last_reload_ok')).toBe(0);
      expect(s.stderr()).toContain(`reload of \`${policy}\` failed; still serving ${v1}:`);
      expect(JSON.parse((await post(socket, '/v1/decide', LS)).body).decision).toBe('allow');
      writeFileSync(policy, V3);
      await until(async () => JSON.parse((await call(socket, 'GET', '/healthz')).body).status === 'ok', 10_000, 'the good reload');
      const v3 = JSON.parse((await call(socket, 'GET', '/healthz')).body).policy.version as string;
      await until(() => (seen.get(`${v3} allow`) ?? 0) > 0, 10_000, 'an answer from the new policy');
      stop = true;
      await load;
      expect(failures).toBe(0);
      // pwd: denied by v1, allowed by v3; the invalid text never decided anything
      expect([...seen.keys()].sort()).toEqual([`${v1} deny`, `${v3} allow`].sort());
      expect(v2).not.toBe(v1);
      expect([...seen.keys()].some((k) => k.startsWith(v2))).toBe(false);
    } finally {
      stop = true;
      await load.catch(() => {});
      expect(await s.stop()).toBe(0);
    }
  });

  it('a policy written in place in two writes 150 ms apart is never served half written (the half is valid and allows what the whole asks about)', async () => {
    // The whole policy asks about `pwd`; its first half, valid on its own, allows it.
    const whole = 'approver:\n  mode: pattern\n  default: deny\n  allow:\n    - {tool: bash, match: "pwd|ls -la"}\n  ask:\n    - {tool: bash, match: "pwd"}\n';
    const half = whole.slice(0, whole.indexOf('  ask:'));
    const { policy, socket } = fresh(V1);
    const s = await serve(policy, socket);
    const decisions = new Set<string>();
    let stop = false;
    const load = (async () => {
      while (!stop) decisions.add(JSON.parse((await post(socket, '/v1/decide', PWD)).body).decision as string);
    })();
    try {
      for (let round = 0; round < 3; round++) {
        writeFileSync(policy, V1);
        await until(async () => JSON.parse((await post(socket, '/v1/decide', PWD)).body).decision === 'deny', 10_000, 'v1 again');
        decisions.clear();
        const { openSync, writeSync, closeSync } = await import('node:fs');
        const fd = openSync(policy, 'w');
        writeSync(fd, half);
        await new Promise((r) => setTimeout(r, 150));
        writeSync(fd, whole.slice(half.length));
        closeSync(fd);
        await until(async () => JSON.parse((await post(socket, '/v1/decide', PWD)).body).decision === 'ask', 10_000, 'the whole policy');
        expect([...decisions].includes('allow'), `round ${round}: ${[...decisions].join(', ')}`).toBe(false);
      }
      expect(s.stderr()).toContain('the file changed while it was read');
    } finally {
      stop = true;
      await load.catch(() => {});
      expect(await s.stop()).toBe(0);
    }
  });

  it('a reload whose own inline tests fail is refused, with the failing test in the log; the old policy keeps serving', async () => {
    const { policy, socket } = fresh(V1);
    const s = await serve(policy, socket);
    try {
      const v1 = JSON.parse((await call(socket, 'GET', '/healthz')).body).policy.version as string;
      writeFileSync(policy, `${V3}tests:\n  - {name: pwd stays denied, tool: bash, input: {command: pwd}, expect: deny}\n`);
      await until(async () => JSON.parse((await call(socket, 'GET', '/healthz')).body).status === 'reload-failed', 10_000, 'the refused reload');
      expect(JSON.parse((await call(socket, 'GET', '/healthz')).body).policy.version).toBe(v1);
      expect(s.stderr()).toContain('1 of its own inline tests fail');
      expect(s.stderr()).toContain('pwd stays denied: expected deny, got allow');
      expect(JSON.parse((await post(socket, '/v1/decide', PWD)).body).decision).toBe('deny');
    } finally {
      expect(await s.stop()).toBe(0);
    }
  });

  it('SIGHUP reloads; SIGTERM answers a request that was half sent, refuses new ones, exits 0', async () => {
    const { policy, socket } = fresh();
    const s = await serve(policy, socket, ['--no-watch']);
    writeFileSync(policy, V3);
    await new Promise((r) => setTimeout(r, 200));
    expect(JSON.parse((await post(socket, '/v1/decide', PWD)).body).decision).toBe('deny'); // not watched
    s.child.kill('SIGHUP');
    await until(async () => JSON.parse((await post(socket, '/v1/decide', PWD)).body).decision === 'allow', 10_000, 'the SIGHUP reload');
    const half = partial(socket, '/v1/decide', PWD);
    await until(async () => (await inflight(socket)) >= 1, 10_000, 'the request in progress');
    s.child.kill('SIGTERM');
    await until(() => s.stderr().includes('SIGTERM: answering 1 accepted request(s)'), 10_000, 'the shutdown to begin');
    half.rest();
    const r = await half.response;
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).decision).toBe('allow');
    expect(await s.exited).toBe(0);
    await expect(post(socket, '/v1/decide', PWD)).rejects.toThrow();
  });
});
