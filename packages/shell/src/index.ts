export { basename, extract, LIMITS, programKey } from './extract.ts';
export type { Argv, ExtractOptions, Extraction, Redirect, ShellCommand, TextSpan, Unknown } from './extract.ts';
export { compileCommandRules, judge, show, showPrefix } from './judge.ts';
export type {
  CommandRule,
  CommandRules,
  CommandWord,
  CompileResult,
  CompiledCommandRule,
  CompiledCommandRules,
  RuleError,
  RuleList,
  ShellDecision,
  ShellJudgement,
} from './judge.ts';
export { DANGEROUS_VARIABLES, DECLARATIONS, SHELLS, WRAPPERS, wrapperTable } from './wrappers.ts';
export type { WrapperSpec } from './wrappers.ts';
export { commandJudgeFactory } from './engine-judge.ts';
export { commandRuleChecker } from './engine-rules.ts';
