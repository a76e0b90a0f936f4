// @verdict/lint: explicit named exports only.

// linter: rules, runner, configuration, formatters
export type {
  Supersedes,
  Category,
  FileResult,
  Formatter,
  FormatterContext,
  FormatterName,
  LintFix,
  LintConfig,
  LintMessage,
  LintRun,
  MessageData,
  NativeRuleContext,
  ReportDescriptor,
  Rule,
  RuleContext,
  RuleMeta,
  RuleOptionDoc,
  RuleSetting,
  RuleVisitor,
  ScalarStyle,
  SeverityLevel,
  Spanned,
} from './types.ts';
export { CATEGORIES, SEVERITY_LEVELS } from './types.ts';
export { createNativeRule, createRule, interpolate, ruleFileName } from './create-rule.ts';
export { allRules as rules, getRule } from './rules/index.ts';
export type { LintNativeOptions, LintSourceOptions } from './runner.ts';
export { lintNativeSource, lintSource, ruleSeverity } from './runner.ts';
export type { FixedSource } from './fix.ts';
export { fixSource, MAX_FIX_PASSES } from './fix.ts';
export type { LintFilesOptions } from './lint-files.ts';
export { carriesVerdictSchema, hasPolicyName, lintFiles, POLICY_EXTENSIONS, type SkippedFile } from './lint-files.ts';
export type { LoadedConfig } from './config.ts';
export { CONFIG_FILE_NAMES, emptyConfig, findConfigFile, loadLintConfig, parseLintConfig } from './config.ts';
export type { ExitCodeOptions } from './exit-code.ts';
export { exitCodeFor } from './exit-code.ts';
export { formatters } from './formatters/index.ts';
export { DEFAULT_DOCS_BASE_URL } from './formatters/sarif.ts';
export { RegexCache } from '@verdict/analysis';
// static analysis of rule sets (dead, shadowed, overlapping rules; policy diff)
export { analyzeApprover, diffPolicies } from '@verdict/analysis';
export type {
  AnalysisFinding,
  AnalysisOptions,
  AnalysisQuestion,
  DecisionSummary,
  DiffChange,
  DiffVerdict,
  DiffWitness,
  PolicyDiff,
  RuleLocation,
  Witness,
} from '@verdict/analysis';
// The native rules' shell reading and respellings, for `verdict diff` on the agents' own files.
export type { Respelling } from './support/native-commands.ts';
export { respellings, showCommand } from './support/native-commands.ts';
export type { ShellRule } from './support/native-rules.ts';
export { shellRules } from './support/native-rules.ts';
export type { AllowHole, AllowShape, NativeAgentName } from './support/native-commands.ts';
export { allowHole } from './support/native-commands.ts';
export { AGENT_NAME } from './support/native-rules.ts';
