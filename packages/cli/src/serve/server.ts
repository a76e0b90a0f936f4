/**
 * `verdict serve`'s HTTP server (node:http, no framework: four routes and a few limits).
 *
 * Every request that asks for a decision gets one, exactly once, and anything that is not a decision
 * (a body too large, too many requests at once, the deadline, the server shutting down, an internal
 * error, a missing bearer token) is answered with the endpoint's deny form, never with an allow or
 * silence:
 * - `POST /v1/decide`: a request as `verdict eval` reads a line, answered with the line `verdict eval`
 *   writes; with `Content-Type: application/x-ndjson`, any number of lines, one answer line each.
 * - `POST /v1/hooks/<agent>` (or `/v1/hooks`, agent told by the payload): a hook payload, decided by
 *   the code of `verdict hook`. The answer is the body the agent's HTTP hook reads (status 200,
 *   always: Claude Code reads any other status as no decision); with `?form=command`, the answer
 *   `verdict hook` would give as a process (`{exitCode, stdout, stderr}`: what `verdict hook
 *   --server` relays).
 * - `GET /healthz`, `GET /metrics`.
 * Every response names the policy version that decided it (header `Verdict-Policy-Version`) and the
 * server's time for it (`Server-Timing: verdict;dur=MS`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ApprovalRequest, HookAgent, RuledResult, RuleRef } from '@verdict/engine';
import { badRequest, createDecisionFormatter, isBlank } from '../input/eval-line.ts';
import { readRequestLine } from '../input/eval-request.ts';
import { denyAnswer, type HookAnswer, httpBody } from '../hook/dialects.ts';
import { answerPayload, type CallState } from '../hook/run.ts';
import type { AuditLog } from './audit.ts';
import type { ErrorKind, Metrics } from './metrics.ts';
import type { LoadedPolicy, PolicyHolder } from './policy.ts';
import { decodeUtf8AsGo } from '../input/eval-input.ts';

/** The most of a refused body read and dropped before its connection is closed. */
const DISCARD_LIMIT = 1024 * 1024 * 1024;

export const AGENTS: readonly HookAgent[] = ['claude', 'codex', 'gemini', 'cursor'];

export interface ServerOptions {
  policy: PolicyHolder;
  metrics: Metrics;
  /** Largest request body, in bytes. */
  maxBodyBytes: number;
  /** Requests accepted and not yet answered, at most; more are answered 503 at once. */
  maxInflight: number;
  /** From a request's arrival to its answer, at most (ms): a body still arriving is answered deny. */
  deadlineMs: number;
  /** Required as `Authorization: Bearer TOKEN` on every route when set. */
  token?: string;
  audit?: AuditLog;
  /** Audit lines carry the request's input (or the hook payload) in full. */
  logInputs?: boolean;
  /** One line of news for the operator (stderr). */
  log(line: string): void;
}

type Route = 'decide' | 'hooks' | 'healthz' | 'metrics' | 'other';

interface Context {
  req: IncomingMessage;
  res: ServerResponse;
  route: Route;
  began: number;
  answered: boolean;
  /** For hooks: the agent of the path, the form, the dialect options. */
  agent?: HookAgent | undefined;
  badAgent?: string;
  commandForm?: boolean;
  approve?: boolean;
  nativeAsk?: boolean;
  batch?: boolean;
  /** The rest of the body is being read and dropped (`discardRest`). */
  discarding?: boolean;
  /** An answer written once the body has arrived (`send` before the body's end). */
  pending?: (() => void) | undefined;
}

export interface DecisionServer {
  server: Server;
  /** Stops accepting, answers what was accepted, closes idle connections; resolves when all are answered. */
  shutdown(): Promise<void>;
  readonly inflight: number;
}

const MS = (from: number): number => performance.now() - from;

function tokenMatches(header: string | undefined, token: string): boolean {
  if (header === undefined || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7).trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

function ruleName(rule: RuleRef | null | undefined): string {
  return rule ? `${rule.list}[${rule.index}]` : 'none';
}

function ruleAt(rule: RuleRef | null | undefined): string | null {
  return rule?.span ? `${rule.span.file}:${rule.span.start.line}:${rule.span.start.column}` : null;
}

/** A byte order mark at the start of a body is dropped, as `verdict eval` drops one at the start of its input. */
function withoutBom(body: Buffer): Buffer {
  return body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? body.subarray(3) : body;
}

export function createDecisionServer(options: ServerOptions): DecisionServer {
  const { policy, metrics } = options;
  const format = createDecisionFormatter();
  const live = new Set<Context>();
  const sockets = new Set<Socket>();
  let shuttingDown = false;
  let drained: (() => void) | undefined;

  const headers = (ctx: Context, version: string, extra: Record<string, string> = {}): Record<string, string> => ({
    'Verdict-Policy-Version': version,
    'Server-Timing': `verdict;dur=${MS(ctx.began).toFixed(3)}`,
    ...(shuttingDown ? { Connection: 'close' } : {}),
    ...extra,
  });

  const done = (ctx: Context): void => {
    if (!live.delete(ctx)) return;
    metrics.inflight = live.size;
    metrics.observe(ctx.route, MS(ctx.began) / 1000);
    if (live.size === 0 && drained) drained();
  };

  const send = (ctx: Context, status: number, body: string, version: string, extra: Record<string, string> = {}): void => {
    if (ctx.answered) return;
    ctx.answered = true;
    const write = (): void => {
      try {
        ctx.res.writeHead(status, { ...headers(ctx, version, extra), 'Content-Length': String(Buffer.byteLength(body)) });
        ctx.res.end(body);
      } catch {
        // the client is gone; nothing to answer
      }
    };
    // Node closes the connection as soon as a response ends before its request's body has: a client
    // still writing then fails with EPIPE and never reads the answer. So an answer given early is
    // written once the rest of the body has been dropped (unless the connection is to be closed).
    if (!ctx.req.complete && extra['Connection'] !== 'close') {
      ctx.pending = write;
      discardRest(ctx);
    } else write();
    done(ctx);
  };

  const audit = (entry: Record<string, unknown>): void => {
    options.audit?.add(entry);
  };

  /** The endpoint's deny, for a request that cannot be decided (`kind` says why). */
  const refuse = (ctx: Context, status: number, kind: ErrorKind, reason: string, close = false): void => {
    metrics.error(kind);
    const version = policy.current.version;
    const also: Record<string, string> = close ? { 'Verdict-Error': kind, Connection: 'close' } : { 'Verdict-Error': kind };
    if (ctx.route === 'decide' || ctx.route === 'hooks') metrics.decision(ctx.route, 'deny', 'none');
    audit({ time: new Date().toISOString(), endpoint: ctx.route, policy: version, agent: ctx.agent ?? null, tool: null, decision: 'deny', rule: null, at: null, reason, error: kind, ms: round(MS(ctx.began)) });
    if (ctx.route === 'hooks') {
      const answer = denyAnswer(ctx.agent, undefined, reason);
      if (ctx.commandForm) send(ctx, status, commandBody(answer, version, { decision: 'deny', reason }), version, { 'Content-Type': 'application/json', ...also });
      else send(ctx, 200, httpBody(ctx.agent, undefined, answer), version, { 'Content-Type': 'application/json', 'Verdict-Decision': 'deny', 'Verdict-Exit-Code': String(answer.exitCode), ...also });
    } else if (ctx.route === 'decide') {
      send(ctx, status, `${badRequest(reason)}\n`, version, { 'Content-Type': ctx.batch ? 'application/x-ndjson' : 'application/json', ...also });
    } else {
      send(ctx, status, `${JSON.stringify({ error: reason })}\n`, version, { 'Content-Type': 'application/json', ...also });
    }
  };

  /**
   * After an early answer the rest of the body is read and dropped, and the answer written when it
   * ends (`send`). The connection is closed, answer written first, once the body stops arriving for
   * the deadline or past 1 GiB dropped.
   */
  function discardRest(ctx: Context): void {
    if (ctx.discarding) return;
    ctx.discarding = true;
    ctx.req.removeAllListeners('data');
    ctx.req.removeAllListeners('end');
    ctx.req.on('error', () => {});
    let dropped = 0;
    let t: NodeJS.Timeout | undefined;
    const finish = (close: boolean): void => {
      if (t !== undefined) clearTimeout(t);
      const write = ctx.pending;
      ctx.pending = undefined;
      write?.();
      if (close) {
        ctx.req.socket.destroySoon?.();
        setTimeout(() => ctx.req.socket.destroy(), 1000).unref();
      }
    };
    if (ctx.req.complete) {
      ctx.req.on('data', () => {});
      return finish(false);
    }
    const arm = (): void => {
      t = setTimeout(() => finish(true), options.deadlineMs);
      t.unref();
    };
    arm();
    ctx.req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (t !== undefined) clearTimeout(t);
      if (dropped > DISCARD_LIMIT) return finish(true);
      arm();
    });
    ctx.req.on('end', () => finish(false));
    ctx.req.on('close', () => {
      if (t !== undefined) clearTimeout(t);
    });
  }

  // The deadline: one sweep over the requests in progress instead of a timer per request.
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const ctx of live) {
      if (now - ctx.began <= options.deadlineMs) continue;
      refuse(ctx, 504, 'deadline', `no decision within the deadline of ${options.deadlineMs} ms (the request was still arriving)`, true);
      ctx.req.socket.destroySoon?.();
      setTimeout(() => ctx.req.socket.destroy(), 1000).unref();
    }
  }, Math.max(10, Math.min(250, Math.floor(options.deadlineMs / 4))));
  sweep.unref();

  const decideOne = (ctx: Context, loaded: LoadedPolicy, line: Uint8Array): string => {
    const began = performance.now();
    let e: RuledResult | undefined;
    let out: string;
    let request: ApprovalRequest | string = '';
    let error: string | undefined;
    try {
      request = readRequestLine(line);
      if (typeof request === 'string') {
        error = 'bad_request';
        out = badRequest(request);
      } else {
        e = loaded.approver.decide(request);
        out = format(e);
      }
    } catch (err) {
      error = 'internal';
      out = badRequest(`internal error: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (error) metrics.error(error as ErrorKind);
    const decision = e?.decision ?? 'deny';
    metrics.decision('decide', decision, ruleName(e?.rule));
    if (options.audit) {
      const r = typeof request === 'string' ? undefined : request;
      audit({
        time: new Date().toISOString(),
        endpoint: 'decide',
        policy: loaded.version,
        agent: null,
        tool: r?.toolName ?? null,
        decision,
        rule: e?.rule ? ruleName(e.rule) : null,
        at: ruleAt(e?.rule),
        reason: e ? e.reason : typeof request === 'string' ? request : null,
        ...(error ? { error } : {}),
        ms: round(performance.now() - began),
        ...(options.logInputs ? { input: r?.input ?? Buffer.from(line).toString('utf8') } : { inputBytes: line.length }),
      });
    }
    return out;
  };

  const decide = (ctx: Context, body: Buffer): void => {
    const loaded = policy.current;
    const bytes = withoutBom(body);
    let text: string;
    if (!ctx.batch) text = `${decideOne(ctx, loaded, bytes)}\n`;
    else {
      text = '';
      let start = 0;
      while (start < bytes.length) {
        let nl = bytes.indexOf(0x0a, start);
        if (nl === -1) nl = bytes.length;
        const line = bytes.subarray(start, nl);
        start = nl + 1;
        // Bytes read as Latin-1 are one character each: blank exactly when the line's bytes are.
        if (isBlank(line.toString('latin1'))) continue;
        text += `${decideOne(ctx, loaded, line)}\n`;
      }
    }
    send(ctx, 200, text, loaded.version, { 'Content-Type': ctx.batch ? 'application/x-ndjson' : 'application/json' });
  };

  const hook = (ctx: Context, body: Buffer): void => {
    const loaded = policy.current;
    const text = decodeUtf8AsGo(withoutBom(body));
    const state: CallState = { agent: ctx.agent, event: undefined, tool: undefined };
    const payloadOptions = {
      agent: ctx.agent,
      approve: ctx.approve === true,
      nativeAsk: ctx.nativeAsk === true,
      ...(ctx.badAgent !== undefined ? { usageProblem: `unknown agent \`${ctx.badAgent}\` in the path (want claude, codex, gemini or cursor)` } : {}),
      // The protected paths are judged on this machine (docs/protections.md: run serve where the tools run).
      protect: { policyFiles: [policy.file] },
    };
    const source = { approver: loaded.approver, lift: loaded.lift ?? [], ...(loaded.shellTools ? { shellTools: loaded.shellTools } : {}) };
    void answerPayload(text, payloadOptions, state, () => source)
      .then((outcome) => {
      if (outcome.error === 'internal') metrics.error('internal');
      else if (outcome.error) metrics.error('bad_request');
      metrics.decision('hooks', outcome.decision, ruleName(outcome.ruleRef));
      audit({
        time: new Date().toISOString(),
        endpoint: 'hooks',
        policy: loaded.version,
        agent: state.agent ?? null,
        ...(state.mismatch ? { mismatch: `path ${state.mismatch.flag}, payload from ${state.mismatch.payload}` } : {}),
        event: state.event ?? null,
        tool: state.tool ?? null,
        decision: outcome.decision,
        rule: outcome.ruleRef ? ruleName(outcome.ruleRef) : null,
        at: ruleAt(outcome.ruleRef),
        reason: outcome.reason,
        ...(outcome.error ? { error: outcome.error } : {}),
        ms: round(MS(ctx.began)),
        ...(options.logInputs ? { payload: text } : { inputBytes: body.length }),
      });
      const { answer } = outcome;
      if (ctx.commandForm) send(ctx, 200, commandBody(answer, loaded.version, outcome, state), loaded.version, { 'Content-Type': 'application/json' });
      else {
        send(ctx, 200, httpBody(state.agent, state.event, answer), loaded.version, {
          'Content-Type': 'application/json',
          'Verdict-Decision': outcome.decision,
          'Verdict-Exit-Code': String(answer.exitCode),
        });
      }
    })
      .catch((err: unknown) => refuse(ctx, 500, 'internal', `internal error: ${err instanceof Error ? err.message : String(err)}`));
  };

  const health = (ctx: Context): void => {
    const current = policy.current;
    const last = policy.last;
    const body = {
      status: last.ok ? 'ok' : 'reload-failed',
      policy: { file: policy.file, version: current.version, loadedAt: current.loadedAt.toISOString() },
      lastReload: { ok: last.ok, at: last.at.toISOString(), ...(last.version ? { version: last.version } : {}), ...(last.error ? { error: last.error } : {}) },
      inflight: live.size - 1,
      shuttingDown,
    };
    send(ctx, shuttingDown ? 503 : 200, `${JSON.stringify(body)}\n`, current.version, { 'Content-Type': 'application/json' });
  };

  /** Every request, whatever happens in {@link serveRequest}: an exception is answered as the deny (500), never a crash. */
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const began = performance.now();
    try {
      serveRequest(req, res, began);
    } catch (err) {
      const ctx = [...live].find((c) => c.req === req) ?? { req, res, route: 'other' as Route, began, answered: false };
      if (!live.has(ctx)) live.add(ctx);
      refuse(ctx, 500, 'internal', `internal error: ${err instanceof Error ? err.message : String(err)}`);
      discardRest(ctx);
    }
  };

  const serveRequest = (req: IncomingMessage, res: ServerResponse, began: number): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    let route: Route | undefined;
    let agentSegment: string | undefined;
    if (path === '/v1/decide') route = 'decide';
    else if (path === '/v1/hooks' || path.startsWith('/v1/hooks/')) {
      route = 'hooks';
      agentSegment = path.length > '/v1/hooks/'.length ? path.slice('/v1/hooks/'.length) : undefined;
    } else if (path === '/healthz') route = 'healthz';
    else if (path === '/metrics') route = 'metrics';
    const ctx: Context = { req, res, route: route ?? 'decide', began, answered: false };
    live.add(ctx);
    metrics.inflight = live.size;
    if (route === undefined) {
      ctx.route = 'other';
      refuse(ctx, 404, 'not_found', `no route \`${path.slice(0, 200)}\`: the routes are POST /v1/decide, POST /v1/hooks/AGENT, GET /healthz and GET /metrics`);
      return discardRest(ctx);
    }
    if (route === 'hooks') {
      ctx.commandForm = query.get('form') === 'command';
      ctx.approve = query.has('approve') && query.get('approve') !== '0';
      ctx.nativeAsk = query.has('native-ask') && query.get('native-ask') !== '0';
      if (agentSegment !== undefined) {
        const agent = AGENTS.find((a) => a === agentSegment);
        if (agent) ctx.agent = agent;
        else ctx.badAgent = agentSegment.slice(0, 64);
      }
    }
    if (route === 'decide') ctx.batch = /^application\/(x-ndjson|jsonl|x-jsonlines)\b/i.test(req.headers['content-type'] ?? '');
    if (options.token !== undefined && !tokenMatches(req.headers.authorization, options.token)) {
      refuse(ctx, 401, 'unauthorized', 'no valid bearer token: send `Authorization: Bearer TOKEN`');
      return discardRest(ctx);
    }
    const wantMethod = route === 'healthz' || route === 'metrics' ? 'GET' : 'POST';
    if (req.method !== wantMethod && !(wantMethod === 'GET' && req.method === 'HEAD')) {
      refuse(ctx, 405, 'bad_request', `\`${req.method}\` is not allowed on \`${path}\`: use ${wantMethod}`);
      return discardRest(ctx);
    }
    if (route === 'healthz') return health(ctx);
    if (route === 'metrics') {
      send(ctx, 200, metrics.render(policy.current.version), policy.current.version, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
      return;
    }
    if (shuttingDown) {
      refuse(ctx, 503, 'shutting_down', 'the server is shutting down');
      return discardRest(ctx);
    }
    // Over the bound: answered at once, without reading the body (its own request counts too).
    if (live.size > options.maxInflight) {
      refuse(ctx, 503, 'overloaded', `the server has ${options.maxInflight} requests in progress: try again`);
      return discardRest(ctx);
    }
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > options.maxBodyBytes) {
      refuse(ctx, 413, 'too_large', `the request body is longer than ${options.maxBodyBytes} bytes`);
      return discardRest(ctx);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    req.on('data', (chunk: Buffer) => {
      if (ctx.answered) return;
      total += chunk.length;
      if (total > options.maxBodyBytes) {
        chunks.length = 0;
        refuse(ctx, 413, 'too_large', `the request body is longer than ${options.maxBodyBytes} bytes`);
        discardRest(ctx);
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => {
      if (!ctx.answered) done(ctx);
      ctx.answered = true;
    });
    req.on('close', () => {
      // The client went away before its body ended: nobody is left to answer.
      if (!ctx.answered && !req.complete) {
        ctx.answered = true;
        metrics.error('bad_request');
        done(ctx);
      }
    });
    req.on('end', () => {
      if (ctx.answered) return;
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
      try {
        if (route === 'decide') decide(ctx, body);
        else hook(ctx, body);
      } catch (err) {
        refuse(ctx, 500, 'internal', `internal error: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
  };

  // A connection whose request headers do not arrive within the deadline (one that sends nothing, or
  // a byte at a time) is closed: Node checks headersTimeout every connectionsCheckingInterval.
  const server = createServer(
    {
      keepAliveTimeout: 5000,
      requestTimeout: 0,
      headersTimeout: Math.max(1000, options.deadlineMs),
      connectionsCheckingInterval: Math.max(250, Math.min(1000, Math.floor(options.deadlineMs / 2))),
    },
    handle,
  );
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    metrics.connections = sockets.size;
    socket.on('close', () => {
      sockets.delete(socket);
      metrics.connections = sockets.size;
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // A request that is not HTTP, headers too large, or headers too slow: 400 or 408, and close.
    const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    if (socket.writable) socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    setTimeout(() => socket.destroy(), 1000).unref();
  });
  // A client that asks before sending a large body (curl does, past 1 MB) is refused before it sends it.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length'] ?? '0') <= options.maxBodyBytes) res.writeContinue();
    handle(req, res);
  });

  return {
    server,
    get inflight() {
      return live.size;
    },
    shutdown() {
      shuttingDown = true;
      clearInterval(sweep);
      server.close();
      server.closeIdleConnections?.();
      const finished = new Promise<void>((resolve) => {
        if (live.size === 0) resolve();
        else drained = resolve;
      });
      // A request still arriving at the deadline is answered deny by the sweep; restart it for the end.
      const last = setInterval(() => {
        const now = performance.now();
        for (const ctx of live) {
          if (now - ctx.began > options.deadlineMs) {
            refuse(ctx, 503, 'shutting_down', 'the server shut down before the request arrived in full');
            ctx.req.socket.destroySoon?.();
          }
        }
      }, 50);
      return finished.then(() => {
        clearInterval(last);
        for (const s of sockets) s.destroySoon?.();
      });
    },
  };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** The `?form=command` body: what `verdict hook` would answer as a process. */
function commandBody(answer: HookAnswer, version: string, call: { decision: string; reason: string; rule?: string | null | undefined }, state?: CallState): string {
  const body = {
    exitCode: answer.exitCode,
    stdout: answer.stdout,
    stderr: answer.stderr,
    decision: call.decision,
    reason: call.reason,
    rule: call.rule ?? null,
    agent: state?.agent ?? null,
    event: state?.event ?? null,
    tool: state?.tool ?? null,
    policyVersion: version,
  };
  return `${JSON.stringify(body)}\n`;
}
