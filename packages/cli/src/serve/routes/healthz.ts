/** `GET /healthz`: the policy that decides, the last reload, the requests in progress. */
import { JSON_TYPE, type RouteAnswer, type RouteContext } from './route.ts';

/** `inflight`: the requests in progress besides this one. */
export function healthRoute(ctx: RouteContext, inflight: number, shuttingDown: boolean): RouteAnswer {
  const { policy } = ctx;
  const current = policy.current;
  const last = policy.last;
  const body = {
    status: last.ok ? 'ok' : 'reload-failed',
    policy: { file: policy.file, version: current.version, loadedAt: current.loadedAt.toISOString() },
    lastReload: { ok: last.ok, at: last.at.toISOString(), ...(last.version ? { version: last.version } : {}), ...(last.error ? { error: last.error } : {}) },
    inflight,
    shuttingDown,
  };
  return { status: shuttingDown ? 503 : 200, headers: { 'Verdict-Policy-Version': current.version, ...JSON_TYPE }, body: `${JSON.stringify(body)}\n`, audit: [] };
}
