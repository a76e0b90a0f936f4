/**
 * Whether one rule matches one call, as the engine decides it: the rule alone in a pattern approver
 * of its own list, whose default is the opposite decision, so input modes, `field` lookup, case
 * folding of tool names and fail-closed parsing (a deny or ask `field` rule matches an input raw mode
 * cannot read) all come from the approver itself.
 *
 * Interim home: the engine's decision module is to own this function; until then it is built on
 * `compileApprover` here, and everything outside the engine that asks "does rule R match call X"
 * (the static analysis, lint's probes) asks it.
 */
import type { InputMode, RuleIR, RuleList } from '../ir.ts';
import { compileApprover } from './config.ts';
import { DEFAULT_PATTERN_REASON } from './pattern.ts';
import type { ApprovalRequest, CompiledApprover } from './types.ts';

/** A rule with the list it sits in and the input mode of its approver (`raw` when absent). */
export interface RuleInContext extends Pick<RuleIR, 'tool' | 'match' | 'field'> {
  list: RuleList;
  input?: InputMode;
}

/** One-rule approvers by rule; bounded (started over when full). */
const approvers = new Map<string, CompiledApprover | null>();
const APPROVERS_MAX = 4_096;

function approverFor(rule: RuleInContext): CompiledApprover | null {
  const input = rule.input ?? 'raw';
  // `list` and `input` never contain a NUL; the field comes last but for the pattern, which ends the key.
  const key = `${rule.list}\u0000${input}\u0000${rule.tool}\u0000${rule.field === undefined ? '\u0001' : `f${rule.field}`}\u0000${rule.match}`;
  let approver = approvers.get(key);
  if (approver === undefined) {
    const alone: RuleIR = { tool: rule.tool, match: rule.match };
    if (rule.field !== undefined) alone.field = rule.field;
    approver =
      compileApprover({
        mode: 'pattern',
        default: rule.list === 'allow' ? 'deny' : 'allow',
        reason: '',
        input,
        allow: rule.list === 'allow' ? [alone] : [],
        deny: rule.list === 'deny' ? [alone] : [],
        ...(rule.list === 'ask' ? { ask: [alone] } : {}),
      }).approver ?? null;
    if (approvers.size >= APPROVERS_MAX) approvers.clear();
    approvers.set(key, approver);
  }
  return approver;
}

/**
 * `true` when `rule` matches `call`, `false` when it does not, `undefined` when the call never
 * reaches the rules (canonical mode rejects the input; an internal error) or the rule's pattern
 * does not compile.
 */
export function ruleMatches(rule: RuleInContext, call: ApprovalRequest): boolean | undefined {
  const approver = approverFor(rule);
  if (approver === null) return undefined;
  // `decide` (the approver's fast path, kept equal to `explain` by the engine's tests) names the
  // rule when it matched; otherwise the default decided (the rule did not match) or the input or
  // an error did (the call never reached the rule), told apart by the default's own result.
  const r = approver.decide(call);
  if (r.rule !== null) return true;
  const byDefault = rule.list === 'allow' ? r.decision === 'deny' && r.reason === DEFAULT_PATTERN_REASON : r.decision === 'allow';
  return byDefault ? false : undefined;
}
