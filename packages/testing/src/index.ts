// @verdict/testing: explicit named exports only.

// tool calls
export type { ToolCall, ToolCallOptions } from './calls.ts';
export { decodedInput, filePath, inputField, inputText, shellCommand, TOOL_NAMES, toolCall, toolInput, toolName, url } from './calls.ts';

// inputs derived from policies
export type { DeriveBudget, RegexSampleOptions } from './derive.ts';
export { callsFor, callsForRule, callsWithin, matching, nearMiss } from './derive.ts';
export type { RegexNode } from './regex-gen.ts';
export { mutations, parseRegex, proposals } from './regex-gen.ts';

// JSON spellings
export type { Json } from './json.ts';
export { compact, effective, fromValue, hasDuplicateKeys, parseJson, strings } from './json.ts';
export type { Spelling } from './respell.ts';
export { PLAIN_SPELLING, respell, spelling } from './respell.ts';
export type { DuplicateKeyOptions } from './attacks.ts';
export { duplicateKeys } from './attacks.ts';
export { effectiveCall, noDuplicateKeySmuggling } from './smuggling.ts';

// policies and properties
export type { LoadPolicyResult, PolicyUnderTest } from './policy.ts';
export { decide, loadPolicy, mustLoad, policyFromConfig, policyFromSource } from './policy.ts';
export type {
  AlwaysDeniesOptions,
  CallPredicate,
  Counterexample,
  DomainOptions,
  EquivalentOptions,
  Observation,
  PolicyProperty,
  RespelledCall,
} from './properties.ts';
export {
  alwaysDenies,
  defineProperty,
  equivalent,
  invariantUnderRespelling,
  neverAllows,
  respelledCalls,
  respelledPair,
  ruleName,
  stricterThan,
} from './properties.ts';
export type { CheckOptions, PropertyReport } from './check.ts';
export { assertProperty, checkProperty, describeDecision, formatReport } from './check.ts';
export type { SuggestedTest } from './suggest.ts';
export { dslTest, formatSuggestions, yamlString, yamlTest } from './suggest.ts';

// `verdict fuzz`
export type { FuzzOptions, FuzzPropertyName, FuzzRun, FuzzSkipped } from './fuzz.ts';
export { FUZZ_PROPERTIES, fuzzPolicy, NEEDS_OTHER, NEEDS_WHERE, propertyReportJson, wherePredicate } from './fuzz.ts';

// inline tests and case files
export type { CoverageReport, RuleCoverage, TargetRun, TestOutcome, TestTarget } from './runner.ts';
export { caseFilesFor, coverage, discover, isCaseFile, POLICY_EXTENSIONS, policyForCaseFile, runTarget, runTest } from './runner.ts';
