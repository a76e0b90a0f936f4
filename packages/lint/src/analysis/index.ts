// Static analysis of approver rule sets: the public surface for lint rules and the CLI.
export { analyzeApprover } from './analyze.ts';
export type { AnalysisFinding, AnalysisQuestion, RuleLocation, Witness } from './analyze.ts';
export { diffPolicies } from './diff.ts';
export type { DecisionSummary, DiffVerdict, DiffWitness, PolicyDiff } from './diff.ts';
export type { AnalysisOptions } from './session.ts';
