// @verdict/engine: the runtime. Explicit named exports only; each area adds its own block.

// diagnostics and IR
export type { Diagnostic, Position, RelatedInformation, Severity, Span } from './diagnostics.ts';
export { codePointCount, EXCERPT_CHARS, excerpt, hasErrors, printable, sortDiagnostics } from './diagnostics.ts';
export { ruleLabel, ruleWhere, spanText } from './rule-ref.ts';
export { shellQuote, shellWord } from './shell-quote.ts';
export type { InlineTestMismatch } from './inline-test.ts';
export { decidedBy, inlineTestMismatches } from './inline-test.ts';
export { didYouMean, didYouMeanHelp, editDistance, isNearMiss, nearMissLimit, normalizeWord } from './did-you-mean.ts';
export type {
  ApprovalsIR,
  ApproverIR,
  Decision,
  DriverRefIR,
  InputMode,
  Located,
  PolicyFileIR,
  PolicyIR,
  RuleIR,
  ShellToolIR,
  WrapperIR,
  RuleList,
  RuledDecision,
  TestCaseIR,
  RuleAt,
} from './ir.ts';
export { eachRule, RULE_LISTS } from './ir.ts';

// approver
export type {
  ApprovalRequest,
  ApprovalResult,
  Approver,
  AuditEvent,
  AuditEventName,
  AuditLogger,
  CompiledApprover,
  Explanation,
  MatchSpan,
  RuleRef,
  RuledDecisionResult,
  RuledResult,
} from './approver/types.ts';
export {
  compileRegex,
  firstLoneSurrogate,
  GO_MAX_PROGRAM_SIZE,
  LAST_FOLDING_CODE_POINT,
  MAX_PATTERN_CHARS,
  MAX_PROGRAM_SIZE,
  shortRegexError,
  TOO_LARGE,
  TOO_LARGE_HELP,
  unicodeClassRanges,
  wellFormed,
} from './regex/regex.ts';
export type { CompileRegexResult, CompiledRegex, RegexMatch } from './regex/regex.ts';
export { programSize } from './regex/re2-program.ts';
export {
  CANONICAL_REJECT_REASON,
  MAX_JSON_DEPTH,
  canonicalize,
  compareUtf8,
  parseCanonical,
  parseStrictJson,
  quoteJsonString,
  scanObjectMembers,
  topLevelMember,
} from './canonical/canonical.ts';
export type {
  CanonicalizeResult,
  JsonArray,
  JsonObject,
  JsonMemberSpan,
  JsonValue,
  ParseCanonicalResult,
  ParseJsonResult,
  ScanObjectResult,
} from './canonical/canonical.ts';
export { caseFold, equalFold, foldCodePoint } from './canonical/casefold.ts';
export {
  DEFAULT_DENY_ALL_REASON,
  EMPTY_INTERSECTION_REASON,
  INTERNAL_ERROR_PREFIX,
  allowAll,
  allowAll as allowAllApprover,
  approverFunc,
  chain,
  // `denyAll` is the human-decision handler (B6.6); the approver is exported under this name.
  denyAll as denyAllApprover,
  intersect,
  toApproval,
} from './approver/builtins.ts';
export { auditEventFor, auditToolError, withAudit } from './approver/audit.ts';
export {
  checkApproverConfig,
  compileApprover,
  compileApproverFor,
  goTrimSpace,
  normalizeApproverDefault,
  normalizeApproverMode,
  rulesOf,
} from './approver/config.ts';
export type {
  ApproverConfigIssue,
  ApproverMode,
  CompileApproverOptions,
  CompileApproverResult,
} from './approver/config.ts';
export { DEFAULT_ASK_REASON, DEFAULT_PATTERN_REASON, SPAN_BUDGET } from './approver/pattern.ts';
export { commandAlternatives, commandCombinations, DEFAULT_SHELL_TOOLS, isCommandRule, shellsOf, shellToolsOf } from './approver/shell.ts';
export type { CommandPrefix } from './approver/shell.ts';
export type {
  CommandJudge,
  CommandJudgeFactory,
  CommandJudgement,
  CommandRuleSet,
  CommandRuleSpec,
  ShellExplanation,
  ShellTool,
  WrapperSpecIR,
} from './approver/shell.ts';
export { callDefinition, ruleMatches } from './approver/definition.ts';
export type { CallDefinitionOptions, RuleInContext } from './approver/definition.ts';
export { decideCall, namesAsked, PATH_TOOL, pathInput, precedence } from './approver/call.ts';
export type { Answer, Answering, AskedAnswer, CallDecision, CallRequest, DecideCallOptions, DecidedBy, Protect } from './approver/call.ts';

// run policy
export type {
  ApprovalMode,
  ApprovalModeCaps,
  ApprovalPolicy,
  DriverDescriptor,
  FallbackAction,
  FeatureLevel,
  HumanDecisionKind,
  Loose,
  Policy,
  QuestionMode,
  QuestionModeCaps,
  RunPolicyCaps,
  SandboxLevel,
} from './policy/types.ts';
export type { ParseDurationResult } from './policy/duration.ts';
export {
  formatGoDuration,
  HOUR,
  MICROSECOND,
  MILLISECOND,
  MINUTE,
  NANOSECOND,
  parseGoDuration,
  SECOND,
} from './policy/duration.ts';
export type { PresetName } from './policy/defaults.ts';
export {
  DEFAULT_APPROVAL_TIMEOUT_NS,
  DEFAULT_MAX_RETRIES,
  getPreset,
  materialize,
  PRESET_NAMES,
  presetApprovalsAutoDeny,
  presetReadOnly,
  presets,
  presetUnrestricted,
  presetWorkspaceWrite,
  resolvePolicy,
  zeroPolicy,
} from './policy/defaults.ts';
export { encodePolicy } from './policy/encode.ts';
export type { PolicyFileShape } from './policy/domains.ts';
export type { ApprovalsField, PolicyEnumKey, PolicyField, PolicyFileKey, TopPolicyField } from './policy/domains.ts';
export {
  clearPolicyField,
  findPolicyField,
  HUMAN_DECISION_KINDS,
  isInPolicyDomain,
  POLICY_DOMAIN_ORDER,
  POLICY_DOMAINS,
  POLICY_FIELD_NAMES,
  POLICY_FIELDS,
  policyField,
  policyFieldIR,
  policyFieldsIn,
  policyFieldValue,
} from './policy/domains.ts';
export type { PolicyCapabilityDimension, PolicyError, PolicyErrorCode } from './policy/errors.ts';
export {
  ErrHumanDecisionModeUnsupported,
  ErrInvalidPolicy,
  ErrPolicyCapabilityUnsupported,
  ErrStructuredOutputUnsupported,
  HumanDecisionModeUnsupportedError,
  InvalidPolicyError,
  isPolicyError,
  PolicyCapabilityUnsupportedError,
  StructuredOutputUnsupportedError,
} from './policy/errors.ts';
export { quoteGoString } from './policy/goquote.ts';
export type { ValidatePolicyOptions } from './policy/validate.ts';
export { validatePolicy } from './policy/validate.ts';
export { advertisedModes, retryAdvertised } from './policy/advertised.ts';
export type { BuiltinDriverName } from './policy/descriptors.ts';
export { BUILTIN_DRIVER_NAMES, builtinDescriptors, getBuiltinDescriptor } from './policy/descriptors.ts';

// human decisions
export type {
  BrokerEvent,
  DecisionChoice,
  DecisionHandler,
  DecisionInput,
  DecisionMode,
  DecisionOutcome,
  DecisionOutcomeKind,
  DecisionRecord,
  DecisionRequest,
  LifecycleNotice,
  RunResult,
} from './decisions/types.ts';
export type { BrokerState, DecisionBroker, DecisionBrokerOptions } from './decisions/broker.ts';
export { createDecisionBroker } from './decisions/broker.ts';
export type { Clock } from './decisions/clock.ts';
export { ManualClock, systemClock } from './decisions/clock.ts';
export type { ApprovalErrorCode, DecisionAbortCode, RunErrorCode } from './decisions/errors.ts';
export {
  ApprovalError,
  DecisionAbortedError,
  InvalidDecisionPolicyError,
  RunError,
  isApprovalDenied,
  isApprovalExpired,
  isApprovalKindMismatch,
  isApprovalResolved,
  isApprovalTimeout,
  isApprovalUnavailable,
  isDecisionAborted,
  isRunError,
} from './decisions/errors.ts';
export { APPROVE_ALL_QUESTION_REASON, approveAll, denyAll } from './decisions/handlers.ts';
export { answerRequest, approveRequest, denyRequest, emptyDecisionRequest } from './decisions/responder.ts';

// coding-agent hooks (data: events, tool names and input keys of each agent)
export type { AgentCatalogue, AgentSettings, AgentTitle, AgentTool, HookAgent, McpTool, NeutralTool } from './hooks/agents.ts';
export { AGENT_CATALOGUES, agentTool, HOOK_AGENTS, hookAgentChoices, hookAgentOf, isMcpToolName, mcpNames, NEUTRAL_TOOLS, splitMcpName } from './hooks/agents.ts';
export { absolutePath, isWithin, normalizePath, PROTECTION_NAMES, PROTECTIONS, protectedWrite, writtenPaths } from './protect/index.ts';
export type { Protection, ProtectionName, ProtectContext, ProtectHit, ProtectRequest, ShellWriteList } from './protect/index.ts';
