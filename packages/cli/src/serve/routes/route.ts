/**
 * What a route of `verdict serve` is: a function from a request (its body, its parameters) to a
 * {@link RouteAnswer}, `{status, headers, body, audit}`. The transport (`../server.ts`) reads the
 * body within the limits, calls the route, writes the audit lines and the answer, and adds the
 * headers every answer carries (`Server-Timing`, `Connection: close` while shutting down).
 */
import { type RuleRef, ruleLabel, spanText } from '@verdict/engine';
import type { Metrics } from '../metrics.ts';
import type { PolicyHolder } from '../policy.ts';

/** The routes, by the name metrics and audit lines give them (`other`: no route). */
export type RouteName = 'decide' | 'hooks' | 'healthz' | 'metrics' | 'other';

/** One answer of a route. */
export interface RouteAnswer {
  status: number;
  /** The route's headers, `Verdict-Policy-Version` included. */
  headers: Record<string, string>;
  body: string;
  /** The audit lines of the answer (one per decision), in order; empty when nobody keeps them. */
  audit: Record<string, unknown>[];
}

/** What every route may read: the policy, the counters, how audit lines are kept. */
export interface RouteContext {
  policy: PolicyHolder;
  metrics: Metrics;
  /** Whether an audit log keeps the lines (a route builds none otherwise). */
  auditing: boolean;
  /** Audit lines carry the request's input (or the hook payload) in full. */
  logInputs: boolean;
  /** When the request arrived (`performance.now()`). */
  began: number;
}

export const msSince = (from: number): number => performance.now() - from;

export function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** A rule as metrics and audit lines name it (`none` for no rule). */
export function ruleName(rule: RuleRef | null | undefined): string {
  return rule ? ruleLabel(rule) : 'none';
}

/** Where a rule is written, for audit lines, or `null`. */
export function ruleAt(rule: RuleRef | null | undefined): string | null {
  return rule?.span ? spanText(rule.span) : null;
}

/** A byte order mark at the start of a body is dropped, as `verdict eval` drops one at the start of its input. */
export function withoutBom(body: Buffer): Buffer {
  return body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? body.subarray(3) : body;
}

export const JSON_TYPE = { 'Content-Type': 'application/json' } as const;
