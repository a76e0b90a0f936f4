/**
 * Deciding a hook request: the approver is asked once per name the call answers to and input that
 * stands for it (and once per path a Codex patch touches, as `file.write {"file_path":…}`), and
 * the answers combine as if every
 * rule naming any of those names were one list: a deny rule anywhere wins, then an ask rule, then an
 * allow rule; when no rule matched, the policy's default decides. A patch's path calls can allow it
 * only when every path is allowed by a rule; a deny on any one path denies the patch.
 */
import type { CompiledApprover, Explanation, ProtectHit, RuleRef } from '@verdict/engine';
import type { HookDecision } from './dialects.ts';
import type { HookRequest } from './request.ts';

export interface HookVerdict {
  decision: HookDecision;
  reason: string;
  rule: RuleRef | null;
  /** The name (tool) the deciding rule was asked under. */
  decidedAs: string;
  /** The protected path the call writes (then the decision is deny, whatever the rules say). */
  protection?: ProtectHit;
}

interface Asked {
  name: string;
  e: Explanation;
  /** Whether this call stands for the whole request (false: one path of a patch). */
  whole: boolean;
  /** The input as the agent wrote it, before its paths were resolved: only its deny and ask rules count. */
  written?: boolean;
}

const byRule = (a: Asked, decision: HookDecision): boolean => a.e.by === 'rule' && a.e.decision === decision;

/** The first by list position (rule index), then by the order asked. */
function first(list: Asked[]): Asked | undefined {
  let best: Asked | undefined;
  for (const a of list) if (!best || (a.e.rule?.index ?? 0) < (best.e.rule?.index ?? 0)) best = a;
  return best;
}

const verdictOf = (a: Asked): HookVerdict => ({ decision: a.e.decision, reason: a.e.reason, rule: a.e.rule, decidedAs: a.name });

/** The tool name each path of a patch is asked under. */
const PATH_TOOL = 'file.write';

/** Every tool name {@link decideRequest} asks the approver under, for this request. */
export function namesAsked(request: HookRequest): string[] {
  return [...request.names, ...((request.paths ?? []).length > 0 ? [PATH_TOOL] : [])];
}

export function decideRequest(approver: CompiledApprover, request: HookRequest, protection: ProtectHit | null = null): HookVerdict {
  // ── Protected paths (issue 26 item 1, docs/protections.md) ─────────────────────────────────────
  // A write to a protected path is a deny that beats every rule. At merge this moves into the
  // engine's `decideCall` as its `protect` option; `protection` is `protectedWrite`'s answer.
  if (protection !== null) return { decision: 'deny', reason: protection.reason, rule: null, decidedAs: request.toolName, protection };
  // ────────────────────────────────────────────────────────────────────────────────────────────────
  const asked: Asked[] = [];
  for (const input of [request.input, ...(request.alsoInputs ?? [])]) {
    for (const name of request.names) asked.push({ name, e: approver.explain({ toolName: name, input }), whole: true });
  }
  for (const input of request.writtenInputs ?? []) {
    for (const name of request.names) asked.push({ name, e: approver.explain({ toolName: name, input }), whole: false, written: true });
  }
  for (const path of request.paths ?? []) {
    asked.push({ name: PATH_TOOL, e: approver.explain({ toolName: PATH_TOOL, input: JSON.stringify({ file_path: path }) }), whole: false });
  }
  // Not a rule and not the default (an input canonical mode refuses, an internal error, a mode): final.
  const other = asked.find((a) => a.e.by !== 'rule' && a.e.by !== 'default' && a.e.decision !== 'allow');
  if (other) return verdictOf(other);
  const deny = first(asked.filter((a) => byRule(a, 'deny')));
  if (deny) return verdictOf(deny);
  const ask = first(asked.filter((a) => byRule(a, 'ask')));
  if (ask) return verdictOf(ask);
  const allow = first(asked.filter((a) => a.whole && byRule(a, 'allow')));
  if (allow) return verdictOf(allow);
  const parts = asked.filter((a) => !a.whole && !a.written);
  if (parts.length > 0 && parts.every((a) => byRule(a, 'allow'))) return verdictOf(first(parts)!);
  // Every answer is the default (or a mode's allow, the same for every name); an allow rule that
  // matched only the path as written does not hold (the default decides).
  return verdictOf(asked.find((a) => !(a.written && byRule(a, 'allow')))!);
}
