import type { HumanDecisionKind } from '../policy/types.ts';

/** A choice offered with a request; `answer(text)` selects it when `text` equals its `key`. */
export interface DecisionChoice {
  key: string;
  label?: string;
  description?: string;
}

/** What the driver asks the broker to decide (semantics.md B6.2). */
export interface DecisionInput {
  kind: HumanDecisionKind;
  title: string;
  /** Who asks, e.g. the tool or sub-agent name. */
  source?: string;
  toolCallId?: string;
  choices?: readonly DecisionChoice[];
  details?: Readonly<Record<string, unknown>>;
}

/** How a request was resolved. `aborted` covers cancellation, handler errors and the run ending. */
export type DecisionOutcomeKind = 'approved' | 'answered' | 'rejected' | 'timed_out' | 'aborted';

/** The mode that decided: the policy's materialised mode for the request's kind. */
export type DecisionMode = 'ask' | 'auto_approve' | 'auto_reject';

/**
 * A live request to a human (the `ask` mode), delivered to the handler or on `broker.events()`.
 *
 * The responder methods are own properties bound to the request's run-owned responder, so copies
 * (`{...req}`) and detached method references answer the same request. Each returns `void` at once
 * or throws an `ApprovalError` at once (`ApprovalResolved`, `ApprovalExpired`,
 * `ApprovalKindMismatch`, `ApprovalUnavailable`); none of them ever waits.
 */
export interface DecisionRequest {
  readonly type: 'approval_request';
  /** Position in the broker's event stream (0-based, shared with notices); -1 when given to a handler. */
  readonly seq: number;
  /** Unique per ask; a retry gets a new ID. */
  readonly id: string;
  readonly runId: string;
  readonly kind: HumanDecisionKind;
  readonly title: string;
  readonly source: string;
  readonly toolCallId: string;
  readonly choices: readonly DecisionChoice[];
  readonly details: Readonly<Record<string, unknown>>;
  /** Clock time (ms) when the request was made. */
  readonly createdAt: number;
  /** `createdAt` + the policy timeout; `undefined` when the timeout is negative (no deadline). */
  readonly deadline: number | undefined;
  /** 0 for the first ask, then 1, 2, … for retries. */
  readonly attempt: number;
  /** Approves a permission or plan_review request; `ApprovalKindMismatch` on an open question. */
  readonly approve: () => void;
  /** Rejects any kind of request. */
  readonly deny: (reason?: string) => void;
  /** Answers a question; `ApprovalKindMismatch` on an open permission or plan_review request. */
  readonly answer: (text: string) => void;
}

/** A lifecycle notice (the SDK's `Notice`), delivered to `onNotice` and on `broker.events()`. */
export interface LifecycleNotice {
  readonly type: 'notice';
  readonly seq: number;
  readonly runId: string;
  readonly message: string;
  readonly data: {
    readonly warning: 'human_decision_retry_unsupported';
    readonly kind: HumanDecisionKind;
    readonly driver: string;
  };
}

/** Everything a host may read from `broker.events()`. */
export type BrokerEvent = DecisionRequest | LifecycleNotice;

/** One resolved ask or auto decision, kept in the run's decision transcript. */
export interface DecisionRecord {
  readonly requestId: string;
  readonly kind: HumanDecisionKind;
  readonly title: string;
  readonly mode: DecisionMode;
  readonly attempt: number;
  readonly outcome: DecisionOutcomeKind;
  readonly createdAt: number;
  readonly resolvedAt: number;
  readonly answer?: string;
  readonly choice?: string;
  readonly reason?: string;
}

/**
 * A decision after which the driver goes on: approved/answered, or a rejection/timeout whose
 * fallback is `continue`. Failures are thrown (rejected promise) instead: see `RunError` and
 * `DecisionAbortedError`.
 */
export interface DecisionOutcome {
  readonly status: 'continue';
  readonly outcome: 'approved' | 'answered' | 'rejected' | 'timed_out';
  readonly kind: HumanDecisionKind;
  readonly mode: DecisionMode;
  /** The ID of the request that decided (the last attempt). */
  readonly requestId: string;
  /** The attempt that decided (0-based). */
  readonly attempt: number;
  readonly answer?: string;
  /** The choice key, when the answer equals one. */
  readonly choice?: string;
  readonly reason?: string;
}

/** What a `RunError` carries: the host's partial result and the decisions made so far. */
export interface RunResult {
  /** Whatever the host's `partialResult()` returned when the run failed (`undefined` if none). */
  readonly partial: unknown;
  readonly decisions: readonly DecisionRecord[];
}

/**
 * The callback form. It must call exactly one of `approve`, `deny` or `answer` and then return.
 * Throwing (or rejecting with) an `Error` aborts the run with an infrastructure error
 * (`DecisionAbortedError`, code `handler_error`); returning without answering, or throwing
 * something that is not an `Error`, is an agent failure (`RunError`, code `agent_error`). The outcome is
 * final when the handler returns: an answer from a handler still running is aborted by the run's end.
 */
export type DecisionHandler = (request: DecisionRequest) => Promise<void> | void;
