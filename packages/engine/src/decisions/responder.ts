import { ApprovalError } from './errors.ts';
import type { DecisionChoice, DecisionRequest } from './types.ts';
import type { HumanDecisionKind } from '../policy/types.ts';

/** A response that wins the race for one ask. */
export type Response =
  | { readonly outcome: 'approved' }
  | { readonly outcome: 'answered'; readonly answer: string; readonly choice?: string }
  | { readonly outcome: 'rejected'; readonly reason?: string };

/**
 * The run-owned end of one ask. `take` is called by the request's methods; it throws the right
 * `ApprovalError` at once or hands the response to the broker. `checkOpen` throws `ApprovalResolved`
 * or `ApprovalExpired` when the ask is finished: the request's methods call it before they check the
 * kind, so a finished request says it is finished whatever was asked of it (semantics B6.8).
 */
export interface Responder {
  readonly requestId: string;
  readonly kind: HumanDecisionKind;
  readonly choices: readonly DecisionChoice[];
  checkOpen(): void;
  take(response: Response): void;
}

/**
 * Symbol-keyed, enumerable: object spread copies it (copies share the responder), JSON does not
 * (a serialised request is detached).
 */
const RESPONDER: unique symbol = Symbol('verdict.decisions.responder');

type WithResponder = { [RESPONDER]?: Responder };

function responderOf(request: unknown): Responder {
  if (typeof request === 'object' && request !== null) {
    const r = (request as WithResponder)[RESPONDER];
    if (r !== undefined) return r;
  }
  const id =
    typeof request === 'object' && request !== null && typeof (request as { id?: unknown }).id === 'string'
      ? (request as { id: string }).id
      : undefined;
  throw new ApprovalError(
    'ApprovalUnavailable',
    id === undefined || id === ''
      ? 'the approval request is empty or detached from its run'
      : `approval request \`${id}\` is detached from its run`,
    id === '' ? undefined : id,
  );
}

function isYesNo(kind: HumanDecisionKind): boolean {
  return kind === 'permission' || kind === 'plan_review';
}

/** Approves a permission or plan_review request (also works on copies; throws `ApprovalError`). */
export function approveRequest(request: unknown): void {
  const r = responderOf(request);
  r.checkOpen();
  if (!isYesNo(r.kind)) {
    throw new ApprovalError(
      'ApprovalKindMismatch',
      `a \`${r.kind}\` request needs an answer, not an approval`,
      r.requestId,
    );
  }
  r.take({ outcome: 'approved' });
}

/** Rejects a request of any kind. */
export function denyRequest(request: unknown, reason?: string): void {
  const r = responderOf(request);
  r.take(reason === undefined ? { outcome: 'rejected' } : { outcome: 'rejected', reason });
}

/** Answers a question; the choice is set when `text` equals one of the request's choice keys. */
export function answerRequest(request: unknown, text: string): void {
  const r = responderOf(request);
  r.checkOpen();
  if (isYesNo(r.kind)) {
    throw new ApprovalError(
      'ApprovalKindMismatch',
      `a \`${r.kind}\` request takes approve or deny, not an answer`,
      r.requestId,
    );
  }
  const choice = r.choices.find((c) => c.key === text);
  r.take(
    choice === undefined
      ? { outcome: 'answered', answer: text }
      : { outcome: 'answered', answer: text, choice: choice.key },
  );
}

/** The fields of a request without its methods and sequence number. */
export type RequestFields = Omit<DecisionRequest, 'type' | 'approve' | 'deny' | 'answer'>;

/** Builds the live, frozen request object bound to `responder` (or detached when `undefined`). */
export function makeRequest(fields: RequestFields, responder: Responder | undefined): DecisionRequest {
  const request = {
    type: 'approval_request' as const,
    ...fields,
    approve: (): void => {
      approveRequest(request);
    },
    deny: (reason?: string): void => {
      denyRequest(request, reason);
    },
    answer: (text: string): void => {
      answerRequest(request, text);
    },
  };
  if (responder !== undefined) {
    Object.defineProperty(request, RESPONDER, { value: responder, enumerable: true });
  }
  return Object.freeze(request);
}

/**
 * A zero-valued request (Go's `ApprovalRequest{}`): every responder method throws
 * `ApprovalUnavailable`. Useful as a placeholder in host state.
 */
export function emptyDecisionRequest(): DecisionRequest {
  return makeRequest(
    {
      seq: -1,
      id: '',
      runId: '',
      kind: 'permission',
      title: '',
      source: '',
      toolCallId: '',
      choices: [],
      details: {},
      createdAt: 0,
      deadline: undefined,
      attempt: 0,
    },
    undefined,
  );
}
