import type { DecisionRecord, RunResult } from './types.ts';

/** Stable codes of responder errors (semantics.md B6.5). */
export type ApprovalErrorCode =
  | 'ApprovalResolved'
  | 'ApprovalExpired'
  | 'ApprovalKindMismatch'
  | 'ApprovalUnavailable';

/** Thrown at once by `approve`/`deny`/`answer` when the response cannot be taken. */
export class ApprovalError extends Error {
  override readonly name = 'ApprovalError';
  readonly code: ApprovalErrorCode;
  /** The request's ID, when the request has one. */
  readonly requestId: string | undefined;

  constructor(code: ApprovalErrorCode, message: string, requestId?: string) {
    super(message);
    this.code = code;
    this.requestId = requestId;
  }
}

/** Business failures of a run (semantics.md B6.4, B6.7). */
export type RunErrorCode = 'decision_rejected' | 'decision_timeout' | 'agent_error';

/**
 * A run that failed for a business reason: a rejection or timeout whose fallback aborted, or a
 * handler that did not answer. Carries the partial result.
 */
export class RunError extends Error {
  override readonly name = 'RunError';
  readonly code: RunErrorCode;
  readonly result: RunResult;
  /** The decision that ended the run. */
  readonly decision: DecisionRecord;

  constructor(code: RunErrorCode, message: string, result: RunResult, decision: DecisionRecord, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.result = result;
    this.decision = decision;
  }
}

/** Infrastructure failures: never a fallback, never retried (semantics.md B6.3). */
export type DecisionAbortCode = 'cancelled' | 'handler_error' | 'run_ended' | 'internal_error';

/**
 * A decision aborted by cancellation, a handler that threw an `Error` (kept as `cause`), the run
 * ending while it was pending, or a failing host hook (`idGenerator`: `internal_error`).
 */
export class DecisionAbortedError extends Error {
  override readonly name = 'DecisionAbortedError';
  readonly code: DecisionAbortCode;
  /** The aborted decision; `undefined` when the broker was already closed when it was requested. */
  readonly decision: DecisionRecord | undefined;

  constructor(code: DecisionAbortCode, message: string, decision?: DecisionRecord, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.code = code;
    this.decision = decision;
  }
}

/** Thrown by `createDecisionBroker` and `request` for values outside the policy's domain. */
export class InvalidDecisionPolicyError extends Error {
  override readonly name = 'InvalidDecisionPolicyError';
  readonly field: string;
  readonly value: string;

  constructor(field: string, value: string) {
    super(`invalid value \`${value}\` for \`${field}\``);
    this.field = field;
    this.value = value;
  }
}

/** The run was aborted because a human (or `auto_reject`) rejected a decision. */
export function isApprovalDenied(err: unknown): err is RunError {
  return err instanceof RunError && err.code === 'decision_rejected';
}

/** The run was aborted because a decision's deadline passed. */
export function isApprovalTimeout(err: unknown): err is RunError {
  return err instanceof RunError && err.code === 'decision_timeout';
}

export function isRunError(err: unknown): err is RunError {
  return err instanceof RunError;
}

export function isDecisionAborted(err: unknown): err is DecisionAbortedError {
  return err instanceof DecisionAbortedError;
}

/** A response already won, or the request expired (`ApprovalExpired` also counts as resolved). */
export function isApprovalResolved(err: unknown): err is ApprovalError {
  return err instanceof ApprovalError && (err.code === 'ApprovalResolved' || err.code === 'ApprovalExpired');
}

/** The deadline passed or the owning run ended before the response. */
export function isApprovalExpired(err: unknown): err is ApprovalError {
  return err instanceof ApprovalError && err.code === 'ApprovalExpired';
}

export function isApprovalKindMismatch(err: unknown): err is ApprovalError {
  return err instanceof ApprovalError && err.code === 'ApprovalKindMismatch';
}

export function isApprovalUnavailable(err: unknown): err is ApprovalError {
  return err instanceof ApprovalError && err.code === 'ApprovalUnavailable';
}
