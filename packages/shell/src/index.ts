export { basename, extract, LIMITS, programKey } from './extract.ts';
export type { Argv, ExtractOptions, Extraction, Redirect, ShellCommand, TextSpan, Unknown } from './extract.ts';
export { capabilityPhrase, compileCommandRules, judge, show, showPrefix } from './judge.ts';
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
export { DECLARATIONS, HARMLESS_VARIABLES, harmlessVariable, isShellVariable, SHELL_VARIABLES, SHELLS, WRAPPERS, wrapperTable } from './wrappers.ts';
export { CAPABILITIES, capabilitiesOf, CONFIG_FILES, entryOf, namesCapability, optionMarks, sedScriptReadsOnly } from './capabilities.ts';
export type { Capability, CapabilityKind, OptionCapability, ProgramCapabilities } from './capabilities.ts';
export type { WrapperSpec } from './wrappers.ts';
export { ANY_SHELL, SHELL_NAMES, screenText, shellSet } from './screen.ts';
export type { ShellName } from './screen.ts';
export { commandJudgeFactory } from './engine-judge.ts';
export { commandRuleChecker } from './engine-rules.ts';
export { checkedCommandRules } from './unjudged.ts';
export { shellWrites, writeTargets } from './write-targets.ts';
export type { ShellWrites } from './write-targets.ts';
