/**
 * Built-in approvers and composition (semantics.md A1, A5). Every approver here is total: it never
 * throws, and anything unexpected (an exception, a malformed result) becomes a deny.
 */
import type { ApprovalRequest, ApprovalResult, Approver, RuledDecisionResult } from './types.ts';

/** The reason for a deny-all approver configured without one. */
export const DEFAULT_DENY_ALL_REASON = 'denied by policy';

/** The reason prefix for a decision that failed inside the approver. */
export const INTERNAL_ERROR_PREFIX = 'approver: internal error: ';

/** `approver: internal error: <message>` for any thrown value. */
export function internalErrorReason(error: unknown): string {
  let message: string;
  try {
    message = error instanceof Error ? error.message : String(error);
  } catch {
    message = 'unprintable error';
  }
  return INTERNAL_ERROR_PREFIX + (message === '' ? 'unknown error' : message);
}

/** A deny result; an empty reason is never returned (a deny always says why). */
export function denied(reason: string): ApprovalResult {
  return { decision: 'deny', reason: reason === '' ? DEFAULT_DENY_ALL_REASON : reason };
}

/**
 * The reference contract's answer for a decision that may be `ask`: `ask` becomes a deny with the
 * same reason (a host that cannot ask a person must not run the call); anything else is unchanged.
 */
export function toApproval(result: RuledDecisionResult): ApprovalResult {
  return result.decision === 'ask' ? { decision: 'deny', reason: result.reason } : { decision: result.decision, reason: result.reason };
}

/** Runs `decide`, turning any exception or malformed result into a deny (fail closed). */
export function failClosed(decide: () => ApprovalResult): ApprovalResult {
  try {
    return checkedResult(decide());
  } catch (e) {
    return { decision: 'deny', reason: internalErrorReason(e) };
  }
}

/** Validates a result from code we do not control: only a well-formed allow is an allow. */
function checkedResult(result: unknown): ApprovalResult {
  if (typeof result !== 'object' || result === null) {
    return { decision: 'deny', reason: INTERNAL_ERROR_PREFIX + 'approver returned no decision' };
  }
  const { decision, reason } = result as { decision?: unknown; reason?: unknown };
  if (decision === 'allow') return { decision: 'allow', reason: typeof reason === 'string' ? reason : '' };
  if (decision === 'deny') return denied(typeof reason === 'string' ? reason : '');
  let shown: string;
  try {
    shown = JSON.stringify(decision) ?? String(decision);
  } catch {
    shown = String(decision);
  }
  return { decision: 'deny', reason: `${INTERNAL_ERROR_PREFIX}approver returned an invalid decision ${shown}` };
}

/** Allows every call, with reason `""`. */
export function allowAll(): Approver {
  return { approve: () => ({ decision: 'allow', reason: '' }) };
}

/** Denies every call with `reason`, or `denied by policy` when it is empty (not trimmed). */
export function denyAll(reason = ''): Approver {
  const result = denied(reason);
  return { approve: () => ({ ...result }) };
}

/**
 * Adapts a function to the `Approver` contract. A throw, a promise, or any result other than
 * `{decision: 'allow' | 'deny'}` is a deny; a deny without a reason gets `denied by policy`.
 */
export function approverFunc(fn: (request: ApprovalRequest) => ApprovalResult): Approver {
  return { approve: (request) => failClosed(() => fn(request)) };
}

/** A deny from `first` wins; otherwise `second` decides (`second` is not asked after a deny). */
export function chain(first: Approver, second: Approver): Approver {
  return {
    approve: (request) =>
      failClosed(() => {
        const a = failClosed(() => first.approve(request));
        if (a.decision === 'deny') return a;
        return failClosed(() => second.approve(request));
      }),
  };
}

/** The reason when `intersect` is given no approver at all. */
export const EMPTY_INTERSECTION_REASON = 'denied by policy: no approver to consult';

/**
 * The call runs only if every approver allows it (asked in order; the first deny is returned and
 * the rest are not asked). All allow: the last allow's reason. With no approver at all the call is
 * denied: an empty list is far more likely a wiring mistake than a wish to allow everything.
 */
export function intersect(...approvers: Approver[]): Approver {
  const list = [...approvers];
  return {
    approve: (request) =>
      failClosed(() => {
        if (list.length === 0) return { decision: 'deny', reason: EMPTY_INTERSECTION_REASON };
        let last: ApprovalResult = { decision: 'allow', reason: '' };
        for (const approver of list) {
          last = failClosed(() => approver.approve(request));
          if (last.decision === 'deny') return last;
        }
        return last;
      }),
  };
}
