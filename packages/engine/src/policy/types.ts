/**
 * The run Policy of the agent-adaptor SDK (semantics.md B1), with the SDK's own string values.
 * Fields are plain strings so out-of-domain values from files can be represented and rejected by
 * `validatePolicy` exactly as the SDK rejects them; `""` is the zero value (inherit).
 */
export type SandboxLevel = '' | 'read_only' | 'workspace_write' | 'unrestricted';
export type FeatureLevel = '' | 'allow' | 'deny';
export type ApprovalMode = '' | 'ask' | 'auto_approve' | 'auto_reject';
export type QuestionMode = '' | 'ask' | 'auto_reject';
export type FallbackAction = '' | 'abort' | 'continue' | 'retry';
export type HumanDecisionKind = 'permission' | 'plan_review' | 'question';

/** A string that should be one of `T` but may come from user input unchecked. */
export type Loose<T extends string> = T | (string & {});

export interface ApprovalPolicy {
  permission: Loose<ApprovalMode>;
  planReview: Loose<ApprovalMode>;
  question: Loose<QuestionMode>;
  /** Go `time.Duration` in nanoseconds; 0 = default (30s); negative = no deadline. */
  timeout: bigint;
  onTimeout: Loose<FallbackAction>;
  onReject: Loose<FallbackAction>;
  /** 0 = default (3); negative is invalid. */
  maxRetries: number;
}

export interface Policy {
  sandbox: Loose<SandboxLevel>;
  webSearch: Loose<FeatureLevel>;
  browser: Loose<FeatureLevel>;
  approvals: ApprovalPolicy;
}

/** Capabilities of one human-decision kind in a driver descriptor (B4). */
export interface ApprovalModeCaps {
  ask: boolean;
  auto_approve: boolean;
  auto_reject: boolean;
  retry: boolean;
}

export interface QuestionModeCaps {
  ask: boolean;
  auto_reject: boolean;
  retry: boolean;
}

export interface RunPolicyCaps {
  isolation: boolean;
  web_search: boolean;
  browser: boolean;
  permission: ApprovalModeCaps;
  plan_review: ApprovalModeCaps;
  question: QuestionModeCaps;
}

/** A driver descriptor as data (design.md): `{type, run_policy_caps, structured_output}`. */
export interface DriverDescriptor {
  type: string;
  run_policy_caps: RunPolicyCaps;
  structured_output: { works_with_hitl: boolean };
}
