// @verdict/engine: the runtime. Explicit named exports only; each area adds its own block.

// diagnostics and IR
export type { Diagnostic, Position, RelatedInformation, Severity, Span } from './diagnostics.ts';
export { hasErrors, sortDiagnostics } from './diagnostics.ts';
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
  RuleList,
  TestCaseIR,
} from './ir.ts';

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
} from './approver/types.ts';

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

// human decisions
