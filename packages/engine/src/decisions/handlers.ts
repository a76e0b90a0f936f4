import type { DecisionHandler } from './types.ts';

/** The reason `approveAll` gives when it denies a question. */
export const APPROVE_ALL_QUESTION_REASON = 'approve-all cannot answer a question';

/**
 * Approves every permission and plan_review request; denies questions, because it cannot make up
 * an answer (semantics.md B6.6).
 */
export function approveAll(): DecisionHandler {
  return (request) => {
    if (request.kind === 'question') request.deny(APPROVE_ALL_QUESTION_REASON);
    else request.approve();
  };
}

/** Denies every request with `reason`. */
export function denyAll(reason?: string): DecisionHandler {
  return (request) => {
    request.deny(reason);
  };
}
