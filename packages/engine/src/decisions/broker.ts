import { retryAdvertised } from '../policy/advertised.ts';
import { materialize } from '../policy/defaults.ts';
import { HUMAN_DECISION_KINDS, POLICY_DOMAINS, POLICY_FIELD_NAMES } from '../policy/domains.ts';
import type { DriverDescriptor, HumanDecisionKind, Policy } from '../policy/types.ts';
import { systemClock, type Clock } from './clock.ts';
import {
  ApprovalError,
  DecisionAbortedError,
  InvalidDecisionPolicyError,
  RunError,
  type DecisionAbortCode,
  type RunErrorCode,
} from './errors.ts';
import { EventQueue } from './queue.ts';
import { makeRequest, type Responder, type Response } from './responder.ts';
import type {
  BrokerEvent,
  DecisionHandler,
  DecisionInput,
  DecisionMode,
  DecisionOutcome,
  DecisionOutcomeKind,
  DecisionRecord,
  DecisionRequest,
  LifecycleNotice,
  RunResult,
} from './types.ts';

export interface DecisionBrokerOptions {
  /** The run's policy, materialised or not (B3 defaults are applied here). */
  policy: Policy;
  /** The bound driver's descriptor: decides whether `retry` is honoured per kind. */
  descriptor: DriverDescriptor;
  clock?: Clock;
  /** The callback form. Without one, `ask` requests are delivered on `events()`. */
  handler?: DecisionHandler;
  runId?: string;
  /** Request IDs; must be unique within the run. Defaults to random UUIDs. */
  idGenerator?: () => string;
  /** Called with each lifecycle notice (also delivered on `events()`); its errors are ignored. */
  onNotice?: (notice: LifecycleNotice) => void;
  /** The host's partial run result, captured into `RunError.result.partial` when a decision fails the run. */
  partialResult?: () => unknown;
  /** Aborting the signal cancels the broker. */
  signal?: AbortSignal;
}

export type BrokerState = 'open' | 'cancelled' | 'closed';

/** The human-decision runtime of one run (semantics.md B6). */
export interface DecisionBroker {
  readonly runId: string;
  /** The materialised policy in force. */
  readonly policy: Policy;
  readonly state: BrokerState;
  /**
   * Decides one request. Resolves with `status: 'continue'` when the driver goes on; rejects with a
   * `RunError` (`decision_rejected`, `decision_timeout`, `agent_error`) when the run must fail for a
   * business reason, or a `DecisionAbortedError` (`cancelled`, `handler_error`, `run_ended`).
   */
  request(input: DecisionInput): Promise<DecisionOutcome>;
  /**
   * The event stream: `ask` requests (when no handler is installed) and lifecycle notices, in order,
   * none ever dropped. Ends after `cancel()` or `close()` once every queued event was read. A
   * consumer that stops draining while the run goes on must call `cancel()`.
   */
  events(): AsyncIterableIterator<BrokerEvent, undefined, undefined>;
  /** Cancels the run: pending decisions abort (`cancelled`), their requests expire, the stream ends. */
  cancel(reason?: unknown): void;
  /** Ends the run: pending decisions abort (`run_ended`), their requests expire, the stream ends. */
  close(): void;
  /** The decisions resolved so far, in order. */
  transcript(): readonly DecisionRecord[];
}

// The domains of the materialised policy's fields (no zero values left: `materialize` filled them in).
const APPROVAL_MODES: ReadonlySet<string> = new Set(POLICY_DOMAINS['approvals.permission']);
const QUESTION_MODES: ReadonlySet<string> = new Set(POLICY_DOMAINS['approvals.question']);
const FALLBACKS: ReadonlySet<string> = new Set(POLICY_DOMAINS['approvals.on_timeout']);
const KINDS: ReadonlySet<string> = new Set(HUMAN_DECISION_KINDS);

type Fallback = 'abort' | 'continue' | 'retry';

interface Settings {
  modes: Record<HumanDecisionKind, DecisionMode>;
  /** Negative: no deadline. */
  timeoutMs: number;
  onTimeout: Fallback;
  onReject: Fallback;
  maxRetries: number;
}

function settingsOf(policy: Policy): Settings {
  const a = policy.approvals;
  const check = (field: string, value: string, domain: ReadonlySet<string>): string => {
    if (!domain.has(value)) throw new InvalidDecisionPolicyError(field, value);
    return value;
  };
  const modes = {
    permission: check(POLICY_FIELD_NAMES['approvals.permission'], a.permission, APPROVAL_MODES) as DecisionMode,
    plan_review: check(POLICY_FIELD_NAMES['approvals.plan_review'], a.planReview, APPROVAL_MODES) as DecisionMode,
    question: check(POLICY_FIELD_NAMES['approvals.question'], a.question, QUESTION_MODES) as DecisionMode,
  };
  const onTimeout = check(POLICY_FIELD_NAMES['approvals.on_timeout'], a.onTimeout, FALLBACKS) as Fallback;
  const onReject = check(POLICY_FIELD_NAMES['approvals.on_reject'], a.onReject, FALLBACKS) as Fallback;
  if (!Number.isSafeInteger(a.maxRetries) || a.maxRetries < 0) {
    throw new InvalidDecisionPolicyError(POLICY_FIELD_NAMES['approvals.max_retries'], String(a.maxRetries));
  }
  if (typeof a.timeout !== 'bigint') {
    throw new InvalidDecisionPolicyError(POLICY_FIELD_NAMES['approvals.timeout'], String(a.timeout));
  }
  const timeoutMs = a.timeout < 0n ? -1 : Number(a.timeout) / 1e6;
  return { modes, timeoutMs, onTimeout, onReject, maxRetries: a.maxRetries };
}

function randomId(): string {
  return globalThis.crypto.randomUUID();
}

/** One call to `request`, across its attempts. */
interface Decision {
  readonly input: DecisionInput;
  readonly mode: DecisionMode;
  readonly resolve: (o: DecisionOutcome) => void;
  readonly reject: (e: unknown) => void;
  current: Attempt | undefined;
  done: boolean;
}

/** One ask. `state` is the responder's; `finalized` is the broker's. */
interface Attempt {
  readonly decision: Decision;
  readonly id: string;
  readonly attempt: number;
  readonly createdAt: number;
  readonly deadline: number | undefined;
  state: 'open' | 'responded' | 'expired';
  response: Response | undefined;
  timer: unknown;
  hasTimer: boolean;
  finalized: boolean;
}

type Final =
  | Response
  | { readonly outcome: 'timed_out' }
  | { readonly outcome: 'agent_error'; readonly cause?: unknown; readonly answered?: boolean }
  | { readonly outcome: 'aborted'; readonly code: DecisionAbortCode; readonly cause?: unknown };

/** Creates the broker of one run (semantics.md B6). */
export function createDecisionBroker(options: DecisionBrokerOptions): DecisionBroker {
  return new Broker(options);
}

/**
 * The broker of one run: its requests, their attempts and timers, the event stream and the
 * transcript. The public members are arrow functions, so they keep working when taken off the
 * object (`const { request } = broker`).
 */
class Broker implements DecisionBroker {
  readonly runId: string;
  readonly policy: Policy;
  private readonly options: DecisionBrokerOptions;
  private readonly settings: Settings;
  private readonly descriptor: DriverDescriptor;
  private readonly clock: Clock;
  private readonly handler: DecisionHandler | undefined;
  private readonly nextId: () => string;
  private readonly queue = new EventQueue<BrokerEvent>();
  private readonly records: DecisionRecord[] = [];
  private readonly active = new Set<Decision>();
  private readonly noticed = new Set<HumanDecisionKind>();
  private seq = 0;
  private runState: BrokerState = 'open';
  private cancelReason: unknown;

  constructor(options: DecisionBrokerOptions) {
    this.options = options;
    this.policy = materialize(options.policy);
    this.settings = settingsOf(this.policy);
    this.descriptor = options.descriptor;
    this.clock = options.clock ?? systemClock;
    this.handler = options.handler;
    this.runId = options.runId ?? randomId();
    this.nextId = options.idGenerator ?? randomId;
    if (options.signal !== undefined) {
      if (options.signal.aborted) this.onAbort();
      else options.signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  get state(): BrokerState {
    return this.runState;
  }

  readonly events = (): AsyncIterableIterator<BrokerEvent, undefined, undefined> => this.queue.iterator();
  readonly cancel = (reason?: unknown): void => this.shutdown('cancelled', reason);
  readonly close = (): void => this.shutdown('closed');
  readonly transcript = (): readonly DecisionRecord[] => this.records.slice();

  private runResult(): RunResult {
    let partial: unknown;
    if (this.options.partialResult !== undefined) {
      try {
        partial = this.options.partialResult();
      } catch {
        partial = undefined;
      }
    }
    return { partial, decisions: this.records.slice() };
  }

  private record(
    d: Decision,
    id: string,
    attempt: number,
    createdAt: number,
    outcome: DecisionOutcomeKind,
    extra: { answer?: string; choice?: string; reason?: string },
  ): DecisionRecord {
    const r: DecisionRecord = Object.freeze({
      requestId: id,
      kind: d.input.kind,
      title: d.input.title,
      mode: d.mode,
      attempt,
      outcome,
      createdAt,
      resolvedAt: this.clock.now(),
      ...extra,
    });
    this.records.push(r);
    return r;
  }

  private finish(d: Decision): void {
    d.done = true;
    this.active.delete(d);
  }

  private succeed(d: Decision, rec: DecisionRecord): void {
    this.finish(d);
    const o: DecisionOutcome = {
      status: 'continue',
      outcome: rec.outcome as DecisionOutcome['outcome'],
      kind: rec.kind,
      mode: rec.mode,
      requestId: rec.requestId,
      attempt: rec.attempt,
      ...(rec.answer === undefined ? {} : { answer: rec.answer }),
      ...(rec.choice === undefined ? {} : { choice: rec.choice }),
      ...(rec.reason === undefined ? {} : { reason: rec.reason }),
    };
    d.resolve(Object.freeze(o));
  }

  private fail(
    d: Decision,
    code: RunErrorCode,
    rec: DecisionRecord,
    cause?: unknown,
    why?: string,
    answered = false,
  ): void {
    this.finish(d);
    const what = `the \`${rec.kind}\` request \`${rec.title}\``;
    const message =
      code === 'decision_rejected'
        ? `${what} was rejected${rec.reason === undefined || rec.reason === '' ? '' : `: ${rec.reason}`}`
        : code === 'decision_timeout'
          ? `${what} was not answered before its deadline`
          : answered
            ? // B6.8: it did answer; the throw of a non-Error (the SDK's panic) is what fails the run.
              `the approval handler answered ${what}, then threw a value that is not an \`Error\``
            : `the approval handler did not answer ${what}`;
    d.reject(new RunError(code, why === undefined ? message : `${message} (${why})`, this.runResult(), rec, cause));
  }

  private abort(d: Decision, code: DecisionAbortCode, rec: DecisionRecord | undefined, cause?: unknown): void {
    this.finish(d);
    const message =
      code === 'cancelled'
        ? 'the run was cancelled while a human decision was pending'
        : code === 'run_ended'
          ? 'the run ended while a human decision was pending'
          : code === 'internal_error'
            ? 'the decision broker failed to create a request'
            : 'the approval handler failed';
    d.reject(new DecisionAbortedError(code, message, rec, cause));
  }

  private emit(ev: BrokerEvent): void {
    if (!this.queue.ended) this.queue.push(ev);
  }

  private noticeRetryUnsupported(kind: HumanDecisionKind): void {
    if (this.noticed.has(kind)) return;
    this.noticed.add(kind);
    const notice: LifecycleNotice = Object.freeze({
      type: 'notice' as const,
      seq: this.seq++,
      runId: this.runId,
      message: `driver \`${this.descriptor.type}\` does not support retrying \`${kind}\` decisions, aborting instead`,
      data: Object.freeze({
        warning: 'human_decision_retry_unsupported' as const,
        kind,
        driver: this.descriptor.type,
      }),
    });
    this.emit(notice);
    if (this.options.onNotice !== undefined) {
      try {
        this.options.onNotice(notice);
      } catch {
        // A failing observer must not change the decision.
      }
    }
  }

  /** Anything but an explicit `true` (a missing or malformed descriptor part) is no retry: fail closed. */
  private retryAdvertised(kind: HumanDecisionKind): boolean {
    return retryAdvertised(this.descriptor, kind);
  }

  private clearTimer(a: Attempt): void {
    if (a.hasTimer) {
      a.hasTimer = false;
      this.clock.clearTimeout(a.timer);
    }
  }

  /** The attempt's result is known: record it and apply the fallback. */
  private finalize(a: Attempt, f: Final): void {
    if (a.finalized) return;
    a.finalized = true;
    this.clearTimer(a);
    const d = a.decision;
    switch (f.outcome) {
      case 'approved':
        this.succeed(d, this.record(d, a.id, a.attempt, a.createdAt, 'approved', {}));
        return;
      case 'answered':
        this.succeed(
          d,
          this.record(d, a.id, a.attempt, a.createdAt, 'answered', {
            answer: f.answer,
            ...(f.choice === undefined ? {} : { choice: f.choice }),
          }),
        );
        return;
      case 'rejected': {
        const rec = this.record(d, a.id, a.attempt, a.createdAt, 'rejected', f.reason === undefined ? {} : { reason: f.reason });
        this.fallback(a, rec, this.settings.onReject, 'decision_rejected');
        return;
      }
      case 'timed_out': {
        const rec = this.record(d, a.id, a.attempt, a.createdAt, 'timed_out', {});
        this.fallback(a, rec, this.settings.onTimeout, 'decision_timeout');
        return;
      }
      case 'agent_error':
        this.fail(d, 'agent_error', this.record(d, a.id, a.attempt, a.createdAt, 'aborted', {}), f.cause, undefined, f.answered);
        return;
      case 'aborted':
        this.abort(d, f.code, this.record(d, a.id, a.attempt, a.createdAt, 'aborted', {}), f.cause);
        return;
    }
  }

  private fallback(a: Attempt, rec: DecisionRecord, action: Fallback, code: RunErrorCode): void {
    const d = a.decision;
    if (action === 'continue') {
      this.succeed(d, rec);
      return;
    }
    if (action === 'abort') {
      this.fail(d, code, rec);
      return;
    }
    if (!this.retryAdvertised(d.input.kind)) {
      this.noticeRetryUnsupported(d.input.kind);
      this.fail(d, code, rec, undefined, `driver \`${this.descriptor.type}\` cannot retry it`);
      return;
    }
    if (a.attempt >= this.settings.maxRetries) {
      this.fail(d, code, rec, undefined, `no retries left after ${a.attempt + 1} attempts`);
      return;
    }
    this.startAttempt(d, a.attempt + 1);
  }

  private onDeadline(a: Attempt): void {
    a.hasTimer = false;
    if (a.state !== 'open' || a.finalized) return;
    a.state = 'expired';
    this.finalize(a, { outcome: 'timed_out' });
  }

  private onHandlerSettled(a: Attempt, ok: boolean, error: unknown): void {
    if (a.finalized) return;
    if (a.state === 'open') a.state = 'expired';
    if (!ok) {
      this.finalize(
        a,
        error instanceof Error
          ? { outcome: 'aborted', code: 'handler_error', cause: error }
          : { outcome: 'agent_error', cause: error, answered: a.response !== undefined },
      );
    } else if (a.response !== undefined) {
      this.finalize(a, a.response);
    } else {
      this.finalize(a, { outcome: 'agent_error' });
    }
  }

  /**
   * A fresh id for `d`, or `undefined` when the id source throws: then `d` is aborted as an internal
   * error, failing closed and never left pending (this may run inside a timer).
   */
  private takeId(d: Decision): string | undefined {
    try {
      return this.nextId();
    } catch (e) {
      this.abort(d, 'internal_error', undefined, e);
      return undefined;
    }
  }

  private startAttempt(d: Decision, attempt: number): void {
    if (this.runState !== 'open') {
      this.abort(d, this.runState === 'cancelled' ? 'cancelled' : 'run_ended', undefined, this.cancelReason);
      return;
    }
    const id = this.takeId(d);
    if (id === undefined) return;
    const createdAt = this.clock.now();
    const deadline = this.settings.timeoutMs < 0 ? undefined : createdAt + this.settings.timeoutMs;
    const a: Attempt = {
      decision: d,
      id,
      attempt,
      createdAt,
      deadline,
      state: 'open',
      response: undefined,
      timer: undefined,
      hasTimer: false,
      finalized: false,
    };
    d.current = a;
    const input = d.input;
    const responder: Responder = {
      requestId: a.id,
      kind: input.kind,
      choices: input.choices ?? [],
      checkOpen: () => {
        if (a.state === 'responded') {
          throw new ApprovalError('ApprovalResolved', `approval request \`${a.id}\` was already answered`, a.id);
        }
        if (a.state === 'open' && a.deadline !== undefined && this.clock.now() >= a.deadline) {
          // The timer may lag behind the clock: the deadline wins, never a late answer.
          this.onDeadline(a);
        }
        if (a.state !== 'open') {
          throw new ApprovalError(
            'ApprovalExpired',
            `approval request \`${a.id}\` expired before it was answered`,
            a.id,
          );
        }
      },
      take: (response) => {
        responder.checkOpen();
        a.state = 'responded';
        a.response = response;
        this.clearTimer(a);
        if (this.handler === undefined) this.finalize(a, response);
      },
    };
    const request: DecisionRequest = makeRequest(
      {
        seq: this.handler === undefined ? this.seq++ : -1,
        id: a.id,
        runId: this.runId,
        kind: input.kind,
        title: input.title,
        source: input.source ?? '',
        toolCallId: input.toolCallId ?? '',
        choices: Object.freeze((input.choices ?? []).map((c) => Object.freeze({ ...c }))),
        details: Object.freeze({ ...(input.details ?? {}) }),
        createdAt,
        deadline,
        attempt,
      },
      responder,
    );
    if (deadline !== undefined) {
      a.timer = this.clock.setTimeout(() => this.onDeadline(a), this.settings.timeoutMs);
      a.hasTimer = true;
    }
    if (this.handler === undefined) {
      this.emit(request);
      return;
    }
    // Called on a fresh microtask so a handler never runs inside another party's call.
    const handler = this.handler;
    queueMicrotask(() => {
      if (a.finalized) return;
      let p: Promise<void> | void;
      try {
        p = handler(request);
      } catch (e) {
        this.onHandlerSettled(a, false, e);
        return;
      }
      Promise.resolve(p).then(
        () => this.onHandlerSettled(a, true, undefined),
        (e: unknown) => this.onHandlerSettled(a, false, e),
      );
    });
  }

  private shutdown(next: 'cancelled' | 'closed', reason?: unknown): void {
    if (this.runState !== 'open') return;
    this.runState = next;
    this.cancelReason = reason;
    const code: DecisionAbortCode = next === 'cancelled' ? 'cancelled' : 'run_ended';
    for (const d of [...this.active]) {
      const a = d.current;
      if (a === undefined) {
        this.abort(d, code, undefined, reason);
        continue;
      }
      if (a.state === 'open') a.state = 'expired';
      this.finalize(a, { outcome: 'aborted', code, cause: reason });
    }
    this.queue.end();
    this.options.signal?.removeEventListener('abort', this.onAbort);
  }

  private readonly onAbort = (): void => this.shutdown('cancelled', this.options.signal?.reason);

  readonly request = (input: DecisionInput): Promise<DecisionOutcome> =>
    new Promise<DecisionOutcome>((resolve, reject) => {
      if (!KINDS.has(input.kind)) throw new InvalidDecisionPolicyError('kind', String(input.kind));
      const mode = this.settings.modes[input.kind];
      const d: Decision = { input, mode, resolve, reject, current: undefined, done: false };
      if (this.runState !== 'open') {
        this.abort(d, this.runState === 'cancelled' ? 'cancelled' : 'run_ended', undefined, this.cancelReason);
        return;
      }
      this.active.add(d);
      if (mode === 'ask') {
        this.startAttempt(d, 0);
        return;
      }
      const id = this.takeId(d);
      if (id === undefined) return;
      const now = this.clock.now();
      if (mode === 'auto_approve') {
        this.succeed(d, this.record(d, id, 0, now, 'approved', {}));
        return;
      }
      const rec = this.record(d, id, 0, now, 'rejected', { reason: 'rejected by policy (auto_reject)' });
      if (this.settings.onReject === 'continue') this.succeed(d, rec);
      else if (this.settings.onReject === 'abort') this.fail(d, 'decision_rejected', rec);
      // An auto-denied request cannot be retried (B6.4).
      else this.fail(d, 'decision_rejected', rec, undefined, 'an automatic rejection cannot be retried');
    });
}
