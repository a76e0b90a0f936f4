/**
 * An inline test (`tests:` in a policy file) against the approver's explanation of its call: the
 * one check behind `verdict test` (the testing package's runner) and the linter's `tests/failing`.
 */
import type { Explanation } from './approver/types.ts';
import type { RuledDecision, TestCaseIR } from './ir.ts';
import { ruleLabel } from './rule-ref.ts';

/** What decided a call, as an inline test's `rule:` names it: `allow[0]`, or `default`, `mode`… when no rule did. */
export function decidedBy(e: Explanation): string {
  return e.rule ? ruleLabel(e.rule) : e.by;
}

/** A way a test's expectation differs from what the approver does, in the order they are checked. */
export type InlineTestMismatch =
  | { kind: 'decision'; expected: RuledDecision; actual: RuledDecision }
  | { kind: 'reason'; expected: string; actual: string }
  /** `rule:` names another rule (or the default) than the one that decided. */
  | { kind: 'rule'; expected: string; actual: string }
  /** `rule:` is not a rule reference at all (`allow[N]`, `deny[N]`, `ask[N]` or `default`). */
  | { kind: 'rule-ref'; expected: string; actual: string };

const RULE_REF = /^(allow|deny|ask)\[(\d+)\]$/;

/** Every way `test` fails against `e` (its call's explanation), in order: decision, reason, rule. Empty: it passes. */
export function inlineTestMismatches(e: Explanation, test: Pick<TestCaseIR, 'expect' | 'reason' | 'rule'>): InlineTestMismatch[] {
  const out: InlineTestMismatch[] = [];
  if (e.decision !== test.expect) out.push({ kind: 'decision', expected: test.expect, actual: e.decision });
  if (test.reason !== undefined && e.reason !== test.reason) out.push({ kind: 'reason', expected: test.reason, actual: e.reason });
  if (test.rule !== undefined) {
    const actual = decidedBy(e);
    if (test.rule !== 'default' && !RULE_REF.test(test.rule)) out.push({ kind: 'rule-ref', expected: test.rule, actual });
    else if (actual !== test.rule) out.push({ kind: 'rule', expected: test.rule, actual });
  }
  return out;
}
