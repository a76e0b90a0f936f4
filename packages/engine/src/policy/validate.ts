/**
 * Run Policy validation against a driver descriptor (semantics.md B5): domains, then capabilities
 * of explicit values, then explicit approval modes, then structured output with an explicit ask.
 * The first failure is returned; nothing is thrown, whatever the input holds.
 */
import { isInPolicyDomain, POLICY_DOMAIN_ORDER, POLICY_FIELD_NAMES, POLICY_FIELDS, policyField, policyFieldValue } from './domains.ts';
import type { PolicyEnumKey } from './domains.ts';
import {
  HumanDecisionModeUnsupportedError,
  InvalidPolicyError,
  PolicyCapabilityUnsupportedError,
  StructuredOutputUnsupportedError,
} from './errors.ts';
import type { PolicyCapabilityDimension, PolicyError } from './errors.ts';
import type { DriverDescriptor, HumanDecisionKind, Policy } from './types.ts';
import { advertisedModes } from './advertised.ts';

export interface ValidatePolicyOptions {
  /** The invocation asks for structured output (B5.6). */
  structuredOutput?: boolean;
}

/** The value at a file key; an absent field reads as the zero value. */
function fieldValue(policy: Policy, key: PolicyEnumKey): unknown {
  return policyFieldValue(policy, policyField(key)) ?? '';
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

/** A capability flag; anything but `true` (a missing or malformed descriptor part) is unsupported. */
function advertised(descriptor: DriverDescriptor, read: (d: DriverDescriptor) => unknown): boolean {
  try {
    return read(descriptor) === true;
  } catch {
    return false;
  }
}

function driverName(descriptor: DriverDescriptor): string {
  const type: unknown = (descriptor as Partial<DriverDescriptor> | undefined)?.type;
  return typeof type === 'string' ? type : String(type);
}

const CAPABILITY_DIMENSIONS = POLICY_FIELDS.flatMap((f) =>
  f.capability === undefined ? [] : [{ key: f.key as PolicyEnumKey & PolicyCapabilityDimension, cap: f.capability }],
);

const APPROVAL_KINDS = POLICY_FIELDS.flatMap((f) => (f.kind === undefined ? [] : [{ key: f.key as PolicyEnumKey, kind: f.kind }]));

/** Whether the descriptor advertises `mode` (already in the domain of `kind`) for `kind`. */
function modeAdvertised(descriptor: DriverDescriptor, kind: HumanDecisionKind, mode: string): boolean {
  return advertisedModes(descriptor, kind).includes(mode);
}

/**
 * Validates `policy` for the driver described by `descriptor`. Returns null when the policy is
 * valid, or when there is no policy (an unset policy is not validated); otherwise the first error.
 * The timeout is never checked; `retry` fallbacks are not checked against the retry capability
 * (they degrade at run time).
 */
export function validatePolicy(
  policy: Policy | undefined,
  descriptor: DriverDescriptor,
  options: ValidatePolicyOptions = {},
): PolicyError | null {
  if (policy === undefined || policy === null) return null;
  const driver = driverName(descriptor);

  // B5.1: domains, in the SDK's order; max_retries last.
  for (const key of POLICY_DOMAIN_ORDER) {
    const value = fieldValue(policy, key);
    if (!isInPolicyDomain(key, value)) return new InvalidPolicyError(driver, POLICY_FIELD_NAMES[key], asText(value));
  }
  const maxRetries: unknown = (policy.approvals as Partial<Policy['approvals']> | undefined)?.maxRetries ?? 0;
  if (typeof maxRetries !== 'number' || !Number.isSafeInteger(maxRetries) || maxRetries < 0) {
    return new InvalidPolicyError(driver, POLICY_FIELD_NAMES['approvals.max_retries'], asText(maxRetries));
  }

  // B5.2: explicit sandbox / web_search / browser values need the capability (deny is explicit too).
  for (const { key, cap } of CAPABILITY_DIMENSIONS) {
    const value = fieldValue(policy, key) as string;
    if (value !== '' && !advertised(descriptor, (d) => d.run_policy_caps[cap])) {
      return new PolicyCapabilityUnsupportedError(driver, key, value);
    }
  }

  // B5.3: explicit approval modes must be advertised; unset modes request nothing.
  for (const { key, kind } of APPROVAL_KINDS) {
    const mode = fieldValue(policy, key) as string;
    if (mode !== '' && !modeAdvertised(descriptor, kind, mode)) {
      return new HumanDecisionModeUnsupportedError(driver, kind, mode);
    }
  }

  // B5.6: structured output with an explicit ask needs works_with_hitl.
  if (options.structuredOutput === true && !advertised(descriptor, (d) => d.structured_output.works_with_hitl)) {
    for (const { key, kind } of APPROVAL_KINDS) {
      if (fieldValue(policy, key) === 'ask') return new StructuredOutputUnsupportedError(driver, kind);
    }
  }
  return null;
}
