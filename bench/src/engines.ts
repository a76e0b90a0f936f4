/** The engines compared side by side, behind one interface. */
import type { ApproverIR, CompiledApprover, Explanation } from '@verdict/engine';
import { compileApprover } from '@verdict/engine';
import { type BenchEngine, naiveRe2js, naiveRegExp, type Outcome } from './baselines.ts';

export function compileVerdict(policy: ApproverIR): CompiledApprover {
  const { approver, issues } = compileApprover(policy);
  if (approver === undefined) throw new Error(`the benchmark policy does not load: ${JSON.stringify(issues).slice(0, 300)}`);
  return approver;
}

function ruleOf(e: Explanation): string {
  return e.rule === null ? 'default' : `${e.rule.list}:${e.rule.index}`;
}

/**
 * Verdict's engine. `decide` uses the fast path (`approve`); the rule that decided comes from
 * `explain`, which the decision check also compares (the two paths must agree).
 */
export function verdictEngine(policy: ApproverIR): BenchEngine & { explain(call: Parameters<BenchEngine['decide']>[0]): Outcome } {
  const approver = compileVerdict(policy);
  return {
    name: 'Verdict engine',
    decide(call) {
      const r = approver.approve(call);
      return { decision: r.decision, reason: r.reason, rule: '?' };
    },
    explain(call) {
      const e = approver.explain(call);
      return { decision: e.decision, reason: e.reason, rule: ruleOf(e) };
    },
  };
}

export const BASELINES: Array<{ name: string; build: (p: ApproverIR) => BenchEngine }> = [
  { name: 're2js rule by rule', build: naiveRe2js },
  { name: 'JS RegExp rule by rule', build: naiveRegExp },
];
