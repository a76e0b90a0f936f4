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
import type { AuditLog } from './audit.ts';
import type { ErrorKind, Metrics } from './metrics.ts';
import type { PolicyHolder } from './policy.ts';
import { createDecideRoute, isBatch } from './routes/decide.ts';
import { healthRoute } from './routes/healthz.ts';
import { type HookParams, hookParams, hookRoute } from './routes/hooks.ts';
import { metricsRoute } from './routes/metrics.ts';
import { refusal } from './routes/refusal.ts';
import { msSince, type RouteAnswer, type RouteContext, type RouteName } from './routes/route.ts';

/** The most of a refused body read and dropped before its connection is closed. */
const DISCARD_LIMIT = 1024 * 1024 * 1024;

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

/** One request in progress. */
interface Context {
  req: IncomingMessage;
  res: ServerResponse;
  route: RouteName;
  /** What every route reads (the arrival time included). */
  rc: RouteContext;
  answered: boolean;
  /** For decide: a batch of lines. */
  batch?: boolean;
  /** For hooks: what the path and the query say. */
  hook?: HookParams;
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

function tokenMatches(header: string | undefined, token: string): boolean {
  if (header === undefined || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7).trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * The transport: connections, the limits (body size, requests in progress, the deadline, the
 * token), reading a body, writing an answer exactly once, and shutting down. What an answer says is
 * the routes' (`routes/`): each is a function returning `{status, headers, body, audit}`.
 */
export function createDecisionServer(options: ServerOptions): DecisionServer {
  const { policy, metrics } = options;
  const decideRoute = createDecideRoute();
  const live = new Set<Context>();
  const sockets = new Set<Socket>();
  let shuttingDown = false;
  let drained: (() => void) | undefined;

  const routeContext = (began: number): RouteContext => ({ policy, metrics, auditing: options.audit !== undefined, logInputs: options.logInputs === true, began });

  const done = (ctx: Context): void => {
    if (!live.delete(ctx)) return;
    metrics.inflight = live.size;
    metrics.observe(ctx.route, msSince(ctx.rc.began) / 1000);
    if (live.size === 0 && drained) drained();
  };

  /** Writes a route's answer (its audit lines first), once; `close` closes the connection after it. */
  const send = (ctx: Context, answer: RouteAnswer, close = false): void => {
    if (ctx.answered) return;
    ctx.answered = true;
    if (options.audit) for (const entry of answer.audit) options.audit.add(entry);
    const { 'Verdict-Policy-Version': version, ...rest } = answer.headers;
    const write = (): void => {
      try {
        ctx.res.writeHead(answer.status, {
          'Verdict-Policy-Version': version ?? policy.current.version,
          'Server-Timing': `verdict;dur=${msSince(ctx.rc.began).toFixed(3)}`,
          ...(shuttingDown || close ? { Connection: 'close' } : {}),
          ...rest,
          'Content-Length': String(Buffer.byteLength(answer.body)),
        });
        ctx.res.end(answer.body);
      } catch {
        // the client is gone; nothing to answer
      }
    };
    // Node closes the connection as soon as a response ends before its request's body has: a client
    // still writing then fails with EPIPE and never reads the answer. So an answer given early is
    // written once the rest of the body has been dropped (unless the connection is to be closed).
    if (!ctx.req.complete && !close) {
      ctx.pending = write;
      discardRest(ctx);
    } else write();
    done(ctx);
  };

  /** The route's deny, for a request that cannot be decided (`kind` says why). */
  const refuse = (ctx: Context, status: number, kind: ErrorKind, reason: string, close = false): void => {
    if (ctx.answered) return;
    send(ctx, refusal(ctx.rc, { route: ctx.route, batch: ctx.batch, hook: ctx.hook }, status, kind, reason), close);
  };

  const internal = (err: unknown): string => `internal error: ${err instanceof Error ? err.message : String(err)}`;

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
      if (now - ctx.rc.began <= options.deadlineMs) continue;
      refuse(ctx, 504, 'deadline', `no decision within the deadline of ${options.deadlineMs} ms (the request was still arriving)`, true);
      ctx.req.socket.destroySoon?.();
      setTimeout(() => ctx.req.socket.destroy(), 1000).unref();
    }
  }, Math.max(10, Math.min(250, Math.floor(options.deadlineMs / 4))));
  sweep.unref();

  /** Every request, whatever happens in {@link serveRequest}: an exception is answered as the deny (500), never a crash. */
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const began = performance.now();
    try {
      serveRequest(req, res, began);
    } catch (err) {
      const ctx = [...live].find((c) => c.req === req) ?? { req, res, route: 'other' as RouteName, rc: routeContext(began), answered: false };
      if (!live.has(ctx)) live.add(ctx);
      refuse(ctx, 500, 'internal', internal(err));
      discardRest(ctx);
    }
  };

  /** The body of a POST, read within the limits; `then` gets it once it has arrived in full. */
  const readBody = (ctx: Context, then: (body: Buffer) => void): void => {
    const { req } = ctx;
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
      try {
        then(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
      } catch (err) {
        refuse(ctx, 500, 'internal', internal(err));
      }
    });
  };

  const serveRequest = (req: IncomingMessage, res: ServerResponse, began: number): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    let route: RouteName | undefined;
    let agentSegment: string | undefined;
    if (path === '/v1/decide') route = 'decide';
    else if (path === '/v1/hooks' || path.startsWith('/v1/hooks/')) {
      route = 'hooks';
      agentSegment = path.length > '/v1/hooks/'.length ? path.slice('/v1/hooks/'.length) : undefined;
    } else if (path === '/healthz') route = 'healthz';
    else if (path === '/metrics') route = 'metrics';
    const ctx: Context = { req, res, route: route ?? 'other', rc: routeContext(began), answered: false };
    live.add(ctx);
    metrics.inflight = live.size;
    if (route === undefined) {
      refuse(ctx, 404, 'not_found', `no route \`${path.slice(0, 200)}\`: the routes are POST /v1/decide, POST /v1/hooks/AGENT, GET /healthz and GET /metrics`);
      return discardRest(ctx);
    }
    if (route === 'hooks') ctx.hook = hookParams(agentSegment, query);
    if (route === 'decide') ctx.batch = isBatch(req.headers['content-type']);
    if (options.token !== undefined && !tokenMatches(req.headers.authorization, options.token)) {
      refuse(ctx, 401, 'unauthorized', 'no valid bearer token: send `Authorization: Bearer TOKEN`');
      return discardRest(ctx);
    }
    const wantMethod = route === 'healthz' || route === 'metrics' ? 'GET' : 'POST';
    if (req.method !== wantMethod && !(wantMethod === 'GET' && req.method === 'HEAD')) {
      refuse(ctx, 405, 'bad_request', `\`${req.method}\` is not allowed on \`${path}\`: use ${wantMethod}`);
      return discardRest(ctx);
    }
    if (route === 'healthz') return send(ctx, healthRoute(ctx.rc, live.size - 1, shuttingDown));
    if (route === 'metrics') return send(ctx, metricsRoute(ctx.rc));
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
    if (route === 'decide') readBody(ctx, (body) => send(ctx, decideRoute(ctx.rc, body, ctx.batch === true)));
    else {
      const params = ctx.hook!;
      readBody(ctx, (body) => {
        hookRoute(ctx.rc, body, params).then(
          (answer) => send(ctx, answer),
          (err: unknown) => refuse(ctx, 500, 'internal', internal(err)),
        );
      });
    }
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
          if (now - ctx.rc.began > options.deadlineMs) {
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
