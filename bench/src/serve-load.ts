// `verdict serve` under load: the built command in a child process, the 100-rule corpus policy, the
// corpus's tool calls as POST /v1/decide requests from a lean HTTP/1.1 client (keep-alive
// connections, one request in flight on each), over the unix socket and over loopback TCP.
//   pnpm build && pnpm --filter @verdict/bench exec tsx src/serve-load.ts [--quick]
//   ONLY=unix|reloads|memory|curl runs one section; RATE=N changes the open loop's 5,000/s
// Sections:
//   throughput  closed loop, 16 connections: requests/s, client and server p50/p99/p99.9
//   rate        open loop at 5,000 requests/s (latency from the scheduled send time, so a stall
//               counts against every request it delays), server-side p99 from Server-Timing
//   reloads     5,000 requests/s while the policy file is rewritten 100 times (every tenth text
//               invalid): no failed request, every answer names a version that loaded, and its
//               decision is the one that version's policy gives in-process
//   memory      1,000,000 requests (100,000 with --quick): the server's RSS and heap every 10 %
//   curl        a Claude Code http hook payload through curl over the socket, one curl per call:
//               curl's own time_total and the wall time of the process
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileSource } from '@verdict/compiler';
import type { ApprovalRequest, CompiledApprover } from '@verdict/engine';
import { makeCalls, makePolicy } from './corpus.ts';

/**
 * The `Verdict-Policy-Version` of a policy text, as the README documents it for every client: `sha256:`
 * and the first 16 hex digits of the SHA-256 of the file's bytes (the bench reads the server as a
 * client does, not through the CLI's sources).
 */
function versionOf(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)}`;
}

const quick = process.argv.includes('--quick');
const RATE = Number(process.env['RATE'] ?? 5000);
const ONLY = process.env['ONLY'];
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'packages/cli/bin/verdict.mjs');
const dir = mkdtempSync(join(tmpdir(), 'verdict-serve-load-'));
const policyFile = join(dir, 'policy.json');
const socketPath = join(dir, 'verdict.sock');

/** The corpus policy as a file; `k` changes its default reason, so each text has its own version. */
function policyText(k: number, invalid = false): string {
  const p = makePolicy(100);
  const approver = { mode: p.mode, default: p.default, reason: `${p.reason} (text ${k})`, deny: p.deny, allow: invalid ? [...p.allow, { tool: 'bash', match: 'a(' }] : p.allow };
  return `${JSON.stringify({ approver }, null, 1)}\n`;
}

function writeAtomically(text: string): void {
  const tmp = `${policyFile}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, policyFile);
}

const calls = makeCalls(10_000);
const bodies = calls.map((c) => Buffer.from(JSON.stringify(c)));
/** Each request's whole bytes, head and body, made once: one write per request. */
const requests = bodies.map((b) => Buffer.concat([Buffer.from(`POST /v1/decide HTTP/1.1\r\nHost: verdict\r\nContent-Type: application/json\r\nContent-Length: ${b.length}\r\n\r\n`), b]));

interface Answer {
  status: number;
  version: string;
  serverMs: number;
  body: string;
}

/** One keep-alive connection with one request in flight: a request is a buffer, the answer parsed from the bytes. */
class Connection {
  private socket: Socket;
  private buffer = Buffer.alloc(0);
  private pending: ((a: Answer) => void) | undefined;
  private failed: ((e: Error) => void) | undefined;
  private closed = false;
  readonly ready: Promise<void>;
  constructor(target: { path: string } | { port: number; host: string }) {
    this.socket = 'path' in target ? connect(target.path) : connect(target.port, target.host);
    this.socket.setNoDelay(true);
    this.ready = new Promise((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('data', (d: Buffer) => this.onData(d));
    this.socket.on('error', (e) => this.failed?.(e));
    this.socket.on('close', () => {
      this.closed = true;
      this.failed?.(new Error('connection closed'));
    });
  }
  private onData(d: Buffer): void {
    this.buffer = this.buffer.length === 0 ? d : Buffer.concat([this.buffer, d]);
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? '0');
    if (this.buffer.length < end + 4 + length) return;
    const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    const answer: Answer = {
      status: Number(head.slice(9, 12)),
      version: /\r\nverdict-policy-version: (\S+)/i.exec(head)?.[1] ?? '',
      serverMs: Number(/\r\nserver-timing: verdict;dur=([\d.]+)/i.exec(head)?.[1] ?? 'NaN'),
      body,
    };
    const p = this.pending;
    this.pending = undefined;
    this.failed = undefined;
    p?.(answer);
  }
  /** Sends one whole request (head and body). */
  send(request: Buffer): Promise<Answer> {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      this.pending = resolve;
      this.failed = reject;
      this.socket.write(request);
    });
  }
  get(path: string): Promise<Answer> {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    return new Promise((resolve, reject) => {
      this.pending = resolve;
      this.failed = reject;
      this.socket.write(`GET ${path} HTTP/1.1\r\nHost: verdict\r\n\r\n`);
    });
  }
  close(): void {
    this.failed = undefined;
    this.socket.destroy();
  }
}

const running = new Set<ChildProcess>();

function startServer(listen: string, extra: string[] = []): Promise<{ child: ChildProcess; address: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--policy', policyFile, '--listen', listen, '--max-inflight', '4096', ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  running.add(child);
  child.on('exit', () => running.delete(child));
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (\S+),/.exec(err);
      if (m) resolve({ child, address: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`verdict serve exited ${code}: ${err}`)));
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const quantile = (sorted: Float64Array, q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
function stats(xs: number[]): string {
  const s = Float64Array.from(xs).sort();
  return `p50 ${quantile(s, 0.5).toFixed(3)}  p99 ${quantile(s, 0.99).toFixed(3)}  p99.9 ${quantile(s, 0.999).toFixed(3)}  max ${s[s.length - 1]!.toFixed(3)} ms`;
}

async function connections(target: { path: string } | { port: number; host: string }, n: number): Promise<Connection[]> {
  const cs = Array.from({ length: n }, () => new Connection(target));
  await Promise.all(cs.map((c) => c.ready));
  return cs;
}

/** Closed loop: each connection sends its next request as soon as the last is answered. */
async function closedLoop(cs: Connection[], total: number): Promise<{ rate: number; client: number[]; server: number[]; failed: number }> {
  const client: number[] = [];
  const server: number[] = [];
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    cs.map(async (c) => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const a = await c.send(requests[i % requests.length]!);
        client.push(performance.now() - t);
        server.push(a.serverMs);
        if (a.status !== 200) failed++;
      }
    }),
  );
  return { rate: (total / (performance.now() - t0)) * 1000, client, server, failed };
}

/**
 * Open loop at `perSecond`: requests are due at fixed times; each goes out on a free connection as
 * soon as it is due (latency counted from when it was due). `during` runs alongside.
 */
async function openLoop(cs: Connection[], perSecond: number, total: number, onAnswer?: (i: number, a: Answer) => void): Promise<{ client: number[]; server: number[]; failed: number; late: number }> {
  const client: number[] = [];
  const server: number[] = [];
  let failed = 0;
  const free = [...cs];
  const t0 = performance.now();
  let issued = 0;
  let answered = 0;
  let late = 0;
  const waiting: number[] = []; // due times with no free connection yet
  return new Promise((resolve) => {
    const issue = (c: Connection, i: number, due: number): void => {
      c.send(requests[i % requests.length]!).then(
        (a) => {
          client.push(performance.now() - due);
          server.push(a.serverMs);
          if (a.status !== 200) failed++;
          onAnswer?.(i, a);
          answered++;
          const w = waiting.shift();
          if (w !== undefined) issue(c, issued++, w);
          else free.push(c);
          if (answered === total) resolve({ client, server, failed, late });
        },
        () => {
          failed++;
          answered++;
          if (answered === total) resolve({ client, server, failed, late });
        },
      );
    };
    const tick = (): void => {
      const now = performance.now();
      const due = Math.min(total, Math.floor(((now - t0) * perSecond) / 1000));
      while (issued + waiting.length < due) {
        const at = t0 + ((issued + waiting.length) * 1000) / perSecond;
        const c = free.pop();
        if (c) issue(c, issued++, at);
        else {
          waiting.push(at);
          late++;
        }
      }
      if (issued + waiting.length < total) setTimeout(tick, 1);
    };
    tick();
  });
}

/** A value from /metrics, on a fresh connection (an idle one is closed by the server after 5 s). */
async function metric(target: { path: string }, name: string): Promise<number> {
  const [c] = await connections(target, 1);
  const a = await c!.get('/metrics');
  c!.close();
  const line = a.body.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${quick ? 'quick' : 'full'} run, 100-rule corpus policy, ${bodies.length} distinct calls (median body ${[...bodies].map((b) => b.length).sort((a, b) => a - b)[bodies.length >> 1]} B)`);
  writeAtomically(policyText(0));
  for (const transport of ONLY === undefined ? (['unix', 'tcp'] as const) : ONLY === 'unix' ? (['unix'] as const) : ([] as const)) {
    const { child, address } = await startServer(transport === 'unix' ? `unix:${socketPath}` : '127.0.0.1:0');
    const target = transport === 'unix' ? { path: socketPath } : { host: '127.0.0.1', port: Number(address.split(':').at(-1)) };
    const cs = await connections(target, 16);
    await closedLoop(cs, 20_000); // warm-up
    const t = await closedLoop(cs, quick ? 50_000 : 200_000);
    console.log(`[${transport}] throughput, 16 connections: ${(t.rate / 1000).toFixed(1)}k requests/s, failed ${t.failed}`);
    console.log(`[${transport}]   client ${stats(t.client)}`);
    console.log(`[${transport}]   server ${stats(t.server)}`);
    const open = await connections(target, 48);
    const o = await openLoop([...cs, ...open], RATE, quick ? 25_000 : 100_000);
    console.log(`[${transport}] 5,000 requests/s open loop, 64 connections: failed ${o.failed}, requests that waited for a free connection ${o.late}`);
    console.log(`[${transport}]   client ${stats(o.client)}`);
    console.log(`[${transport}]   server ${stats(o.server)}`);
    for (const c of [...cs, ...open]) c.close();
    await stopServer(child);
  }

  // Reloads under load: texts 1..100 written while requests flow; every tenth is invalid.
  if (ONLY === undefined || ONLY === 'reloads') {
    writeAtomically(policyText(0));
    const { child } = await startServer(`unix:${socketPath}`, ['--no-watch']);
    const cs = await connections({ path: socketPath }, 64);
    // Texts are made before the run and compiled for checking after it (the client shares the CPU).
    const plan = Array.from({ length: 101 }, (_, k) => {
      const bad = k > 0 && k % 10 === 0;
      const text = policyText(k, bad);
      return { text, bad, version: versionOf(text) };
    });
    const texts = new Map(plan.map((t) => [t.version, t]));
    // Each text is written (renamed into place) and then SIGHUP sent, so each is one reload attempt.
    let reloads = 0;
    const reloadTimer = setInterval(() => {
      if (reloads >= 100) return clearInterval(reloadTimer);
      reloads++;
      writeAtomically(plan[reloads]!.text);
      child.kill('SIGHUP');
    }, quick ? 100 : 150);
    const answers: Array<{ i: number; version: string; body: string }> = [];
    const total = quick ? 40_000 : 100_000;
    const o = await openLoop(cs, 5000, total, (i, a) => void answers.push({ i, version: a.version, body: a.body }));
    const approvers = new Map<string, CompiledApprover | undefined>();
    const wrong: string[] = [];
    const seen = new Set<string>();
    for (const { i, version, body } of answers) {
      seen.add(version);
      const written = texts.get(version);
      if (!written || written.bad) {
        wrong.push(`answer ${i}: version ${version} ${written ? 'did not load' : 'was never written'}`);
        continue;
      }
      if (!approvers.has(version)) approvers.set(version, compileSource(written.text, policyFile).approver);
      const want = approvers.get(version)!.decide(calls[i % calls.length]! as ApprovalRequest);
      const got = JSON.parse(body) as { decision: string; reason: string };
      if (got.decision !== want.decision || got.reason !== want.reason) wrong.push(`answer ${i}: ${got.decision} ${got.reason} where ${version} gives ${want.decision} ${want.reason}`);
    }
    const invalid = plan.slice(1, reloads + 1).filter((t) => t.bad);
    clearInterval(reloadTimer);
    const ok = await metric({ path: socketPath }, 'verdict_policy_reloads_total{result="ok"}');
    const failedReloads = await metric({ path: socketPath }, 'verdict_policy_reloads_total{result="failed"}');
    console.log(`[reloads] ${reloads} texts written and SIGHUP sent (${invalid.length} invalid) during ${total} requests at 5,000/s, 64 connections: reloads ok ${ok}, failed ${failedReloads}; ${seen.size} versions answered`);
    console.log(`[reloads]   failed requests ${o.failed}, answers from a version that did not load or deciding otherwise than it: ${wrong.length}${wrong.length ? ` (${wrong.slice(0, 3).join('; ')})` : ''}`);
    console.log(`[reloads]   client ${stats(o.client)}`);
    console.log(`[reloads]   server ${stats(o.server)}`);
    for (const c of cs) c.close();
    await stopServer(child);
  }

  // Memory over 1M requests.
  if (ONLY === undefined || ONLY === 'memory') {
    writeAtomically(policyText(0));
    const { child } = await startServer(`unix:${socketPath}`);
    const cs = await connections({ path: socketPath }, 16);
    const total = quick ? 100_000 : 1_000_000;
    await closedLoop(cs, 20_000);
    const rows: string[] = [];
    const t0 = performance.now();
    for (let k = 0; k < 10; k++) {
      await closedLoop(cs, total / 10);
      const rss = await metric({ path: socketPath }, 'process_resident_memory_bytes');
      const heap = await metric({ path: socketPath }, 'nodejs_heap_used_bytes');
      rows.push(`${(((k + 1) * total) / 10 / 1000).toFixed(0)}k: rss ${(rss / 2 ** 20).toFixed(1)} MiB heap ${(heap / 2 ** 20).toFixed(1)} MiB`);
    }
    console.log(`[memory] ${total} requests in ${((performance.now() - t0) / 1000).toFixed(1)} s; server after each tenth:`);
    for (const r of rows) console.log(`[memory]   ${r}`);
    for (const c of cs) c.close();
    await stopServer(child);
  }

  // Claude Code's http hook, through curl over the socket.
  if (ONLY === undefined || ONLY === 'curl') {
    const claude = spawnSync('curl', ['--version']);
    if (claude.status !== 0) console.log('[curl] curl not found: skipped');
    else {
      writeAtomically(policyText(0));
      const { child } = await startServer(`unix:${socketPath}`);
      const payload = join(dir, 'payload.json');
      writeFileSync(payload, JSON.stringify({ session_id: 's', transcript_path: '/t.jsonl', cwd: '/workspace', permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git status', description: 'status' }, tool_use_id: 'toolu_01' }));
      const n = quick ? 200 : 1000;
      const total: number[] = [];
      const wall: number[] = [];
      const server: number[] = [];
      const baseline: number[] = [];
      const curl = (args: string[]): { code: string; ms: number; serverMs: number } => {
        const r = spawnSync('curl', ['-s', '-o', '/dev/null', '-D', '-', '-w', '%{http_code} %{time_total}\n', '--unix-socket', socketPath, ...args], { encoding: 'utf8' });
        const last = r.stdout.trimEnd().split('\n').at(-1)!.split(' ');
        return { code: last[0]!, ms: Number(last[1]) * 1000, serverMs: Number(/server-timing: verdict;dur=([\d.]+)/i.exec(r.stdout)?.[1] ?? 'NaN') };
      };
      // In turns with a baseline in the same run: the same curl asking /healthz (no decision, no body).
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        const a = curl(['-H', 'Content-Type: application/json', '--data-binary', `@${payload}`, 'http://verdict/v1/hooks/claude']);
        wall.push(performance.now() - t);
        if (a.code !== '200') throw new Error(`curl answered ${a.code}`);
        total.push(a.ms);
        server.push(a.serverMs);
        baseline.push(curl(['http://verdict/healthz']).ms);
      }
      console.log(`[curl] ${n} Claude Code PreToolUse payloads, one curl per call over the socket:`);
      console.log(`[curl]   round trip (curl time_total)  ${stats(total)}`);
      console.log(`[curl]   server's part (Server-Timing) ${stats(server)}`);
      console.log(`[curl]   baseline: GET /healthz        ${stats(baseline)}`);
      console.log(`[curl]   curl process wall time        ${stats(wall)}`);
      await stopServer(child);
    }
  }
}

try {
  await main();
} finally {
  for (const child of running) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
