/**
 * Shared by the `analysis/*` lint rules: one analysis per approver and run, asking only the
 * questions whose rules are enabled, and the wording of witnesses in messages.
 */
import { type ApproverIR, type RuleIR, rulesOf } from '@verdict/engine';
import type { RuleContext } from '../types.ts';
import type { AnalysisFinding, RuleLocation, Witness } from '@verdict/analysis';
import { analyzeApprover } from '@verdict/analysis';

export const DEAD_RULE = 'analysis/dead-rule';
export const SHADOWED_RULE = 'analysis/shadowed-rule';
export const OVERLAP = 'analysis/overlap';

const cache = new WeakMap<ApproverIR, Map<string, AnalysisFinding[]>>();

/**
 * The findings for `approver`, computed once per approver and set of enabled questions; regex
 * validity comes from the run's shared regex cache (the patterns are compiled for the regex rules
 * anyway).
 */
export function findingsFor(
  approver: ApproverIR,
  ctx: Pick<RuleContext, 'isRuleEnabled' | 'regexCache'> & { options?: Readonly<Record<string, unknown>> },
): AnalysisFinding[] {
  const enabled = (id: string): boolean => ctx.isRuleEnabled(id);
  const checks = { dead: enabled(DEAD_RULE), shadowed: enabled(SHADOWED_RULE), overlap: enabled(OVERLAP) };
  const budgetMs = budgetOf(ctx.options);
  const key = `${checks.dead}${checks.shadowed}${checks.overlap}${budgetMs}`;
  let byKey = cache.get(approver);
  if (byKey === undefined) {
    byKey = new Map();
    cache.set(approver, byKey);
  }
  let findings = byKey.get(key);
  if (findings === undefined) {
    findings = analyzeApprover(approver, { checks, totalTimeMs: budgetMs, regexValid: (p) => ctx.regexCache.get(p).ok });
    byKey.set(key, findings);
  }
  return findings;
}

/**
 * The findings of one question about single rules (`dead-rule`, `shadowed-rule`) over `approver`,
 * each with the rule it is about, in the analysis's order. The question's budget finding (it stopped
 * at its time limit) is reported on the approver as the rule's `budget` message, in its place.
 */
export function* ruleFindings<Q extends 'dead-rule' | 'shadowed-rule'>(
  approver: ApproverIR,
  ctx: RuleContext<'budget' | (string & {})>,
  question: Q,
): Generator<{ finding: Extract<AnalysisFinding, { kind: Q }>; rule: RuleIR }> {
  for (const f of findingsFor(approver, ctx)) {
    if (f.kind === 'budget' && f.question === question) {
      ctx.report({ node: approver, messageId: 'budget', data: { timeMs: f.timeMs, unchecked: f.unchecked, total: f.total } });
      continue;
    }
    if (f.kind !== question || (f.kind !== 'dead-rule' && f.kind !== 'shadowed-rule')) continue;
    const rule = rulesOf(approver, f.rule.list)[f.rule.index];
    if (rule !== undefined) yield { finding: f as Extract<AnalysisFinding, { kind: Q }>, rule };
  }
}

/** The analysis's CPU time budget for one approver, in ms: the rule's `budgetMs` option. */
export const DEFAULT_BUDGET_MS = 5_000;

export const BUDGET_OPTION = {
  budgetMs: {
    description:
      'CPU time, in milliseconds, the static analysis of one approver may take; past it the rules left are not checked, and the rule says so once',
    default: DEFAULT_BUDGET_MS,
  },
};

function budgetOf(options: Readonly<Record<string, unknown>> | undefined): number {
  const v = options?.budgetMs;
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : DEFAULT_BUDGET_MS;
}

export function label(l: RuleLocation): string {
  return `${l.list}[${l.index}]`;
}

/** A witness input shortened for a one-line message (the full text is in the JSON output). */
export function shortInput(w: Witness, max = 80): string {
  // Printable text as it is; anything with control characters JSON-escaped onto one line.
  const oneLine = /[\x00-\x1f\x7f\u2028\u2029]/.test(w.input) ? JSON.stringify(w.input).slice(1, -1) : w.input;
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
