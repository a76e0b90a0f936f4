/** `GET /metrics`: the counters in the Prometheus text format (`../metrics.ts`). */
import type { RouteAnswer, RouteContext } from './route.ts';

export function metricsRoute(ctx: RouteContext): RouteAnswer {
  const version = ctx.policy.current.version;
  return {
    status: 200,
    headers: { 'Verdict-Policy-Version': version, 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' },
    body: ctx.metrics.render(version),
    audit: [],
  };
}
