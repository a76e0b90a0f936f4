/**
 * Readers for the shared approver case files in `fixtures/cases/` (approver-load.json,
 * decisions.json, decisions-ask.json): their configuration block shape and its conversion to `ApproverIR`.
 * Used by this package's table tests; other packages read the same files with their own loaders.
 */
import type { ApproverIR, InputMode, RuleIR } from '../../src/ir.ts';

export interface CaseRule {
  tool?: string;
  match?: string;
  field?: string;
}

/** An approver block as written in a case file; absent keys are empty. */
export interface CaseApproverConfig {
  mode?: string;
  default?: string;
  reason?: string;
  input?: InputMode;
  allow?: CaseRule[];
  deny?: CaseRule[];
  /** Ask rules (decisions-ask.json only). */
  ask?: CaseRule[];
}

function ruleIR(rule: CaseRule): RuleIR {
  const ir: RuleIR = { tool: rule.tool ?? '', match: rule.match ?? '' };
  if (rule.field !== undefined) ir.field = rule.field;
  return ir;
}

export function approverIRFromCase(config: CaseApproverConfig, input?: InputMode): ApproverIR {
  const ask = config.ask === undefined ? {} : { ask: config.ask.map(ruleIR) };
  return {
    ...ask,
    mode: config.mode ?? '',
    default: config.default ?? '',
    reason: config.reason ?? '',
    input: input ?? config.input ?? 'raw',
    allow: (config.allow ?? []).map(ruleIR),
    deny: (config.deny ?? []).map(ruleIR),
  };
}
