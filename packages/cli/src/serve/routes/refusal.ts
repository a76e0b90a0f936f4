/**
 * The deny of a request that cannot be decided (a body too large, too many requests, the deadline,
 * shutting down, an internal error, no bearer token, no route), in the form of its route: the
 * decide route's bad line, the agent's deny for a hook, `{"error": …}` elsewhere. Never an allow.
 */
import type { HookAgent } from '@verdict/engine';
import type { ErrorKind } from '../metrics.ts';
import { decideRefusal } from './decide.ts';
import { type HookParams, hookRefusal } from './hooks.ts';
import { JSON_TYPE, msSince, round, type RouteAnswer, type RouteContext, type RouteName } from './route.ts';

/** What the transport knows of the refused request. */
export interface Refused {
  route: RouteName;
  /** For `decide`: a batch. */
  batch?: boolean | undefined;
  /** For `hooks`: what the path and query said. */
  hook?: HookParams | undefined;
}

export function refusal(ctx: RouteContext, refused: Refused, status: number, kind: ErrorKind, reason: string): RouteAnswer {
  const { metrics } = ctx;
  metrics.error(kind);
  const version = ctx.policy.current.version;
  if (refused.route === 'decide' || refused.route === 'hooks') metrics.decision(refused.route, 'deny', 'none');
  const agent: HookAgent | null = refused.hook?.agent ?? null;
  const audit = [{ time: new Date().toISOString(), endpoint: refused.route, policy: version, agent, tool: null, decision: 'deny', rule: null, at: null, reason, error: kind, ms: round(msSince(ctx.began)) }];
  const answer =
    refused.route === 'hooks'
      ? hookRefusal(status, reason, version, refused.hook)
      : refused.route === 'decide'
        ? decideRefusal(status, reason, version, refused.batch === true)
        : { status, headers: { 'Verdict-Policy-Version': version, ...JSON_TYPE }, body: `${JSON.stringify({ error: reason })}\n` };
  return { ...answer, headers: { ...answer.headers, 'Verdict-Error': kind }, audit };
}
