/**
 * The zero policy, the SDK's presets, materialised defaults (semantics.md B3) and scoping (B2).
 */
import { clearPolicyField, POLICY_FIELDS } from './domains.ts';
import { SECOND } from './duration.ts';
import type { ApprovalPolicy, Policy } from './types.ts';

/** The approval timeout a zero `timeout` stands for. */
export const DEFAULT_APPROVAL_TIMEOUT_NS: bigint = 30n * SECOND;
/** The retry budget a zero `max_retries` stands for. */
export const DEFAULT_MAX_RETRIES = 3;

/** The all-zero policy: every field of `POLICY_FIELDS` zero (every dimension inherited, every approval setting defaulted), in its order. */
export function zeroPolicy(): Policy {
  const policy = {} as Policy;
  for (const f of POLICY_FIELDS) {
    if (f.group === 'approvals') policy.approvals ??= {} as ApprovalPolicy;
    clearPolicyField(policy, f);
  }
  return policy;
}

/** The SDK's `PolicyReadOnly`: sandbox only. */
export function presetReadOnly(): Policy {
  return { ...zeroPolicy(), sandbox: 'read_only' };
}

/** The SDK's `PolicyWorkspaceWrite`: sandbox only. */
export function presetWorkspaceWrite(): Policy {
  return { ...zeroPolicy(), sandbox: 'workspace_write' };
}

/** The SDK's `PolicyUnrestricted`: sandbox only. */
export function presetUnrestricted(): Policy {
  return { ...zeroPolicy(), sandbox: 'unrestricted' };
}

/**
 * The SDK's `ApprovalsAutoDeny`: `auto_reject` for all three kinds, everything else zero. A strict
 * preset: the driver must advertise auto-reject for every kind.
 */
export function presetApprovalsAutoDeny(): Policy {
  const policy = zeroPolicy();
  policy.approvals.permission = 'auto_reject';
  policy.approvals.planReview = 'auto_reject';
  policy.approvals.question = 'auto_reject';
  return policy;
}

export type PresetName = 'read_only' | 'workspace_write' | 'unrestricted' | 'approvals_auto_deny';

/** The presets by the name a policy file uses; each call returns a fresh value. */
export const presets: Readonly<Record<PresetName, () => Policy>> = Object.freeze({
  read_only: presetReadOnly,
  workspace_write: presetWorkspaceWrite,
  unrestricted: presetUnrestricted,
  approvals_auto_deny: presetApprovalsAutoDeny,
});

export const PRESET_NAMES: readonly PresetName[] = Object.freeze([
  'read_only',
  'workspace_write',
  'unrestricted',
  'approvals_auto_deny',
]);

/** A fresh copy of the named preset, or undefined for an unknown name (exact, case-sensitive). */
export function getPreset(name: string): Policy | undefined {
  return (PRESET_NAMES as readonly string[]).includes(name) ? presets[name as PresetName]() : undefined;
}

/**
 * The effective approval settings (B3): zero modes become ask / ask / auto_reject, a zero timeout
 * 30s, zero fallbacks abort, zero max_retries 3. A negative timeout stays (no deadline). Sandbox,
 * web search and browser stay as they are: inheriting them is the driver's business. Idempotent;
 * returns a new value.
 */
export function materialize(policy: Policy): Policy {
  const a = policy.approvals;
  return {
    sandbox: policy.sandbox,
    webSearch: policy.webSearch,
    browser: policy.browser,
    approvals: {
      permission: a.permission === '' ? 'ask' : a.permission,
      planReview: a.planReview === '' ? 'ask' : a.planReview,
      question: a.question === '' ? 'auto_reject' : a.question,
      timeout: a.timeout === 0n ? DEFAULT_APPROVAL_TIMEOUT_NS : a.timeout,
      onTimeout: a.onTimeout === '' ? 'abort' : a.onTimeout,
      onReject: a.onReject === '' ? 'abort' : a.onReject,
      maxRetries: a.maxRetries === 0 ? DEFAULT_MAX_RETRIES : a.maxRetries,
    },
  };
}

/**
 * Scoping (B2): the nearer policy (the call site's) replaces the whole farther one (the agent
 * default); fields are never merged. Undefined when neither is set (nothing to validate).
 */
export function resolvePolicy(agentDefault: Policy | undefined, callSite: Policy | undefined): Policy | undefined {
  return callSite ?? agentDefault;
}
