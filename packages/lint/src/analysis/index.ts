/**
 * Static analysis of approver rule sets: the public surface for the lint rules and the CLI.
 *
 * - `analyzeApprover(ir, options?)`: dead rules (no input at all, or no JSON object), allow rules
 *   shadowed by the deny rules of their tool, allow/deny overlaps; each with an engine-confirmed
 *   witness call where there is one, or `unknown` with a reason when a limit was hit.
 * - `diffPolicies(oldIr, newIr, options?)`: calls one approver allows and the other denies, both
 *   ways, and a verdict (`stricter`, `looser`, `equivalent`, `neither`, `unknown`) over JSON object
 *   inputs, per tool (every tool either names, under case folding, plus any other tool).
 *
 * How: every pattern is parsed as Go's `regexp` parses it (`syntax.ts`) into a search DFA over code
 * points with class ranges as the alphabet (`automaton.ts`: exact for `^ $ \A \z (?m) \b \B`,
 * classes, `(?i)` simple folding, Unicode classes computed from this runtime's tables); questions are
 * boolean formulas over rules, reasoned about propositionally first, then searched in the product of
 * DFAs (`search.ts`). Inexact models (field rules next to text rules, patterns this module cannot
 * model) carry an upper and a lower bound so that "empty" is always a proof; field-only questions
 * under canonical input are decided exactly over values (`fields.ts`). Limits (CPU time per
 * question and run, states per DFA and product) turn into `unknown`, never into a verdict.
 */
export { analyzeApprover } from './analyze.ts';
export type { AnalysisFinding, AnalysisQuestion, RuleLocation, Witness } from './analyze.ts';
export { diffPolicies } from './diff.ts';
export type { DecisionSummary, DiffChange, DiffVerdict, DiffWitness, PolicyDiff } from './diff.ts';
export type { AnalysisOptions } from './session.ts';
