/**
 * The errors of run Policy validation (semantics.md B5), with the Go SDK's messages. Each carries
 * a sentinel `code`, the way Go callers match `errors.Is(err, adaptor.ErrInvalidPolicy)`.
 */
import { quoteGoString } from './goquote.ts';
import type { HumanDecisionKind } from './types.ts';

export const ErrInvalidPolicy = 'ErrInvalidPolicy';
export const ErrPolicyCapabilityUnsupported = 'ErrPolicyCapabilityUnsupported';
export const ErrHumanDecisionModeUnsupported = 'ErrHumanDecisionModeUnsupported';
/** The SDK's `ErrStructuredOutputUnsupported`, for structured output with an explicit ask (B5.6). */
export const ErrStructuredOutputUnsupported = 'ErrStructuredOutputUnsupported';

export type PolicyErrorCode =
  | typeof ErrInvalidPolicy
  | typeof ErrPolicyCapabilityUnsupported
  | typeof ErrHumanDecisionModeUnsupported
  | typeof ErrStructuredOutputUnsupported;

export type PolicyCapabilityDimension = 'sandbox' | 'web_search' | 'browser';

/** An out-of-domain value: `field` is the SDK's name (`Policy.Approvals.OnReject`). */
export class InvalidPolicyError extends Error {
  readonly code = ErrInvalidPolicy;
  readonly driver: string;
  readonly field: string;
  readonly value: string;

  constructor(driver: string, field: string, value: string) {
    super(`agentadaptor: invalid run policy: driver=${driver} field=${field} value=${quoteGoString(value)}`);
    this.name = 'InvalidPolicyError';
    this.driver = driver;
    this.field = field;
    this.value = value;
  }

  toJSON(): { code: typeof ErrInvalidPolicy; message: string; driver: string; field: string; value: string } {
    return { code: this.code, message: this.message, driver: this.driver, field: this.field, value: this.value };
  }
}

/** A valid, explicitly selected sandbox, web-search or browser value the driver does not model. */
export class PolicyCapabilityUnsupportedError extends Error {
  readonly code = ErrPolicyCapabilityUnsupported;
  readonly driver: string;
  readonly dimension: PolicyCapabilityDimension;
  readonly value: string;

  constructor(driver: string, dimension: PolicyCapabilityDimension, value: string) {
    super(
      `agentadaptor: policy capability unsupported by driver: driver=${driver} dimension=${dimension} value=${value}`,
    );
    this.name = 'PolicyCapabilityUnsupportedError';
    this.driver = driver;
    this.dimension = dimension;
    this.value = value;
  }

  toJSON(): {
    code: typeof ErrPolicyCapabilityUnsupported;
    message: string;
    driver: string;
    dimension: PolicyCapabilityDimension;
    value: string;
  } {
    return {
      code: this.code,
      message: this.message,
      driver: this.driver,
      dimension: this.dimension,
      value: this.value,
    };
  }
}

/** An explicitly selected approval mode the driver's capability matrix does not advertise. */
export class HumanDecisionModeUnsupportedError extends Error {
  readonly code = ErrHumanDecisionModeUnsupported;
  readonly driver: string;
  readonly kind: HumanDecisionKind;
  readonly mode: string;

  constructor(driver: string, kind: HumanDecisionKind, mode: string) {
    super(`agentadaptor: human decision mode unsupported by driver: driver=${driver} kind=${kind} mode=${mode}`);
    this.name = 'HumanDecisionModeUnsupportedError';
    this.driver = driver;
    this.kind = kind;
    this.mode = mode;
  }

  toJSON(): {
    code: typeof ErrHumanDecisionModeUnsupported;
    message: string;
    driver: string;
    kind: HumanDecisionKind;
    mode: string;
  } {
    return { code: this.code, message: this.message, driver: this.driver, kind: this.kind, mode: this.mode };
  }
}

/**
 * Structured output requested together with an explicit `ask` mode on a driver whose descriptor
 * does not set `structured_output.works_with_hitl` (B5.6). The message follows the SDK's
 * `StructuredOutputUnsupportedError` (`adapter=` is the driver, `reason=` names the kind).
 */
export class StructuredOutputUnsupportedError extends Error {
  readonly code = ErrStructuredOutputUnsupported;
  readonly driver: string;
  readonly kind: HumanDecisionKind;
  readonly reason: string;

  constructor(driver: string, kind: HumanDecisionKind) {
    const reason = `${kind}_ask_requires_works_with_hitl`;
    super(`agentadaptor: structured output unsupported by adapter: adapter=${driver} reason=${reason}`);
    this.name = 'StructuredOutputUnsupportedError';
    this.driver = driver;
    this.kind = kind;
    this.reason = reason;
  }

  toJSON(): {
    code: typeof ErrStructuredOutputUnsupported;
    message: string;
    driver: string;
    kind: HumanDecisionKind;
    reason: string;
  } {
    return { code: this.code, message: this.message, driver: this.driver, kind: this.kind, reason: this.reason };
  }
}

export type PolicyError =
  | InvalidPolicyError
  | PolicyCapabilityUnsupportedError
  | HumanDecisionModeUnsupportedError
  | StructuredOutputUnsupportedError;

/** True when `err` is one of the policy errors, and (if given) carries the sentinel `code`. */
export function isPolicyError(err: unknown, code?: PolicyErrorCode): err is PolicyError {
  const known =
    err instanceof InvalidPolicyError ||
    err instanceof PolicyCapabilityUnsupportedError ||
    err instanceof HumanDecisionModeUnsupportedError ||
    err instanceof StructuredOutputUnsupportedError;
  return known && (code === undefined || err.code === code);
}
