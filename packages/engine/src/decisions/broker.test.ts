import { describe, expect, it, vi } from 'vitest';
import { getBuiltinDescriptor } from '../policy/descriptors.ts';
import { createDecisionBroker } from './broker.ts';
import { ManualClock } from './clock.ts';
import {
  ApprovalError,
  DecisionAbortedError,
  InvalidDecisionPolicyError,
  RunError,
  isApprovalDenied,
  isApprovalExpired,
  isApprovalKindMismatch,
  isApprovalResolved,
  isApprovalTimeout,
  isApprovalUnavailable,
  isDecisionAborted,
} from './errors.ts';
import { approveRequest, answerRequest, denyRequest, emptyDecisionRequest } from './responder.ts';
import { descriptor, flush, policy, track } from '../../test/support/decisions.ts';
import type { BrokerEvent, DecisionRequest, LifecycleNotice } from './types.ts';

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApprovalError) return e.code;
    throw e;
  }
  return undefined;
}

/** A broker in event form with a background reader collecting everything. */
function eventBroker(opts: Partial<Parameters<typeof createDecisionBroker>[0]> = {}) {
  const clock = new ManualClock(0);
  let n = 0;
  const broker = createDecisionBroker({
    policy: policy({ question: 'ask' }),
    descriptor: descriptor(false),
    clock,
    runId: 'run-7',
    idGenerator: () => `id-${n++}`,
    ...opts,
  });
  const events: BrokerEvent[] = [];
  const done = (async () => {
    for await (const ev of broker.events()) events.push(ev);
  })();
  const requests = (): DecisionRequest[] => events.filter((e): e is DecisionRequest => e.type === 'approval_request');
  return { broker, clock, events, requests, done };
}

describe('the request object', () => {
  it('carries every field of B6.2', async () => {
    const { broker, clock, requests } = eventBroker({ clock: new ManualClock(5000) });
    void clock;
    const p = track(
      broker.request({
        kind: 'question',
        title: 'which branch?',
        source: 'git',
        toolCallId: 'tc-1',
        choices: [{ key: 'main', label: 'Main' }],
        details: { repo: 'verdict' },
      }),
    );
    await flush();
    const [req] = requests();
    expect(req).toMatchObject({
      type: 'approval_request',
      id: 'id-0',
      runId: 'run-7',
      kind: 'question',
      title: 'which branch?',
      source: 'git',
      toolCallId: 'tc-1',
      choices: [{ key: 'main', label: 'Main' }],
      details: { repo: 'verdict' },
      createdAt: 5000,
      deadline: 35000,
      attempt: 0,
    });
    expect(Object.isFrozen(req)).toBe(true);
    req?.answer('main');
    await flush();
    expect(p.state).toEqual({
      ok: true,
      value: {
        status: 'continue',
        outcome: 'answered',
        kind: 'question',
        mode: 'ask',
        requestId: 'id-0',
        attempt: 0,
        answer: 'main',
        choice: 'main',
      },
    });
  });

  it('spread copies and detached methods share the responder', async () => {
    const { broker, requests } = eventBroker();
    const p = track(broker.request({ kind: 'permission', title: 'edit' }));
    await flush();
    const req = requests()[0] as DecisionRequest;
    const copy = { ...req };
    const { deny } = req;
    copy.approve();
    expect(codeOf(() => req.approve())).toBe('ApprovalResolved');
    expect(codeOf(() => deny('late'))).toBe('ApprovalResolved');
    expect(codeOf(() => approveRequest(copy))).toBe('ApprovalResolved');
    await flush();
    expect(p.state).toMatchObject({ ok: true, value: { outcome: 'approved' } });
  });

  it('a serialised, empty or missing request is unavailable', async () => {
    const { broker, requests } = eventBroker();
    void broker.request({ kind: 'permission', title: 'edit' }).catch(() => {});
    await flush();
    const req = requests()[0] as DecisionRequest;
    const json: unknown = JSON.parse(JSON.stringify(req));
    expect(codeOf(() => approveRequest(json))).toBe('ApprovalUnavailable');
    expect(codeOf(() => denyRequest(null))).toBe('ApprovalUnavailable');
    expect(codeOf(() => answerRequest(undefined, 'x'))).toBe('ApprovalUnavailable');
    const empty = emptyDecisionRequest();
    expect(codeOf(() => empty.approve())).toBe('ApprovalUnavailable');
    expect(codeOf(() => empty.deny())).toBe('ApprovalUnavailable');
    expect(codeOf(() => empty.answer('x'))).toBe('ApprovalUnavailable');
    let err: unknown;
    try {
      empty.approve();
    } catch (e) {
      err = e;
    }
    expect(isApprovalUnavailable(err)).toBe(true);
    expect(isApprovalResolved(err)).toBe(false);
    // The live request is untouched by all of that.
    req.approve();
  });

  it('kind mismatches do not consume the responder; deny works on every kind', async () => {
    const { broker, requests } = eventBroker();
    const a = track(broker.request({ kind: 'plan_review', title: 'plan' }));
    const b = track(broker.request({ kind: 'question', title: 'q' }));
    await flush();
    const [plan, question] = requests() as [DecisionRequest, DecisionRequest];
    let err: unknown;
    try {
      plan.answer('yes');
    } catch (e) {
      err = e;
    }
    expect(isApprovalKindMismatch(err)).toBe(true);
    expect((err as ApprovalError).message).toBe('a `plan_review` request takes approve or deny, not an answer');
    expect(codeOf(() => question.approve())).toBe('ApprovalKindMismatch');
    plan.deny('too risky');
    question.deny('no');
    await flush();
    expect(a.state).toMatchObject({ ok: false });
    expect(isApprovalDenied((a.state as { error: unknown }).error)).toBe(true);
    expect(((a.state as { error: RunError }).error).message).toBe('the `plan_review` request `plan` was rejected: too risky');
    expect(isApprovalDenied((b.state as { error: unknown }).error)).toBe(true);
  });

  it('after the deadline: ApprovalExpired, which also counts as resolved', async () => {
    const { broker, clock, requests } = eventBroker();
    const p = track(broker.request({ kind: 'permission', title: 'edit' }));
    await flush();
    const req = requests()[0] as DecisionRequest;
    clock.advance(29_999);
    await flush();
    expect(p.state.ok).toBe('pending');
    clock.advance(1);
    let err: unknown;
    try {
      req.approve();
    } catch (e) {
      err = e;
    }
    expect(isApprovalExpired(err)).toBe(true);
    expect(isApprovalResolved(err)).toBe(true);
    await flush();
    const failure = (p.state as { error: unknown }).error;
    expect(isApprovalTimeout(failure)).toBe(true);
    expect(isApprovalDenied(failure)).toBe(false);
  });

  it('a late timer never lets an answer in after the deadline', async () => {
    // A clock whose timers never fire: only the responder's own check can enforce the deadline.
    let now = 0;
    const broker = createDecisionBroker({
      policy: policy(),
      descriptor: descriptor(false),
      clock: { now: () => now, setTimeout: () => 0, clearTimeout: () => {} },
    });
    const events: BrokerEvent[] = [];
    const it = broker.events();
    const p = track(broker.request({ kind: 'permission', title: 'edit' }));
    const first = await it.next();
    if (first.done === true) throw new Error('no event');
    events.push(first.value);
    now = 30_000;
    expect(codeOf(() => (events[0] as DecisionRequest).approve())).toBe('ApprovalExpired');
    await flush();
    expect(isApprovalTimeout((p.state as { error: unknown }).error)).toBe(true);
    broker.close();
  });
});

describe('fallbacks and notices', () => {
  it('retry renews the ID, re-arms the deadline per attempt, and counts attempts from 0', async () => {
    const { broker, clock, requests } = eventBroker({
      descriptor: descriptor(true),
      policy: policy({ onTimeout: 'retry', maxRetries: 2, timeout: 10_000_000_000n }),
    });
    const p = track(broker.request({ kind: 'permission', title: 'edit' }));
    await flush();
    clock.advance(10_000);
    clock.advance(10_000);
    await flush();
    const reqs = requests();
    expect(reqs.map((r) => [r.id, r.attempt, r.createdAt, r.deadline])).toEqual([
      ['id-0', 0, 0, 10_000],
      ['id-1', 1, 10_000, 20_000],
      ['id-2', 2, 20_000, 30_000],
    ]);
    expect(codeOf(() => reqs[0]?.approve())).toBe('ApprovalExpired');
    reqs[2]?.approve();
    await flush();
    expect(p.state).toMatchObject({ ok: true, value: { outcome: 'approved', attempt: 2, requestId: 'id-2' } });
  });

  it('the notice reaches onNotice and the stream once per kind, and the run fails with decision_rejected', async () => {
    const seen: LifecycleNotice[] = [];
    const { broker, events, requests, done } = eventBroker({
      policy: policy({ onReject: 'retry' }),
      onNotice: (n) => seen.push(n),
    });
    const a = track(broker.request({ kind: 'permission', title: 'one' }));
    await flush();
    requests()[0]?.deny();
    const b = track(broker.request({ kind: 'permission', title: 'two' }));
    await flush();
    requests()[1]?.deny();
    await flush();
    broker.close();
    await done;
    expect(seen).toEqual([
      {
        type: 'notice',
        seq: 1,
        runId: 'run-7',
        message: 'driver `test-no-retry` does not support retrying `permission` decisions, aborting instead',
        data: { warning: 'human_decision_retry_unsupported', kind: 'permission', driver: 'test-no-retry' },
      },
    ]);
    expect(events.map((e) => `${e.type}:${e.seq}`)).toEqual(['approval_request:0', 'notice:1', 'approval_request:2']);
    for (const s of [a.state, b.state]) expect(isApprovalDenied((s as { error: unknown }).error)).toBe(true);
  });

  it('with the built-in codebuddy descriptor (no retry) on_timeout retry degrades to abort with a notice', async () => {
    const codebuddy = getBuiltinDescriptor('codebuddy');
    if (codebuddy === undefined) throw new Error('codebuddy descriptor missing');
    const { broker, clock, events } = eventBroker({
      descriptor: codebuddy,
      policy: policy({ planReview: 'ask', onTimeout: 'retry' }),
    });
    const p = track(broker.request({ kind: 'plan_review', title: 'plan' }));
    await flush();
    clock.advance(30_000);
    await flush();
    expect(isApprovalTimeout((p.state as { error: unknown }).error)).toBe(true);
    expect(events.filter((e) => e.type === 'notice').map((e) => (e as LifecycleNotice).data)).toEqual([
      { warning: 'human_decision_retry_unsupported', kind: 'plan_review', driver: 'codebuddy' },
    ]);
  });

  it('RunError carries the host partial result and the decision transcript', async () => {
    let text = 'half done';
    const { broker, requests } = eventBroker({ partialResult: () => ({ text }) });
    const ok = track(broker.request({ kind: 'permission', title: 'first' }));
    await flush();
    requests()[0]?.approve();
    await flush();
    text = 'more done';
    const p = track(broker.request({ kind: 'plan_review', title: 'second' }));
    await flush();
    requests()[1]?.deny('no');
    await flush();
    expect(ok.state.ok).toBe(true);
    const err = (p.state as { error: RunError }).error;
    expect(err).toBeInstanceOf(RunError);
    expect(err.code).toBe('decision_rejected');
    expect(err.result.partial).toEqual({ text: 'more done' });
    expect(err.result.decisions.map((d) => [d.requestId, d.kind, d.outcome, d.reason])).toEqual([
      ['id-0', 'permission', 'approved', undefined],
      ['id-1', 'plan_review', 'rejected', 'no'],
    ]);
    expect(err.decision.requestId).toBe('id-1');
  });
});

describe('cancellation and the end of the run', () => {
  it('cancel aborts pending decisions without fallback, expires their requests and ends the stream', async () => {
    const { broker, requests, done } = eventBroker({
      descriptor: descriptor(true),
      policy: policy({ onTimeout: 'continue', onReject: 'continue' }),
    });
    const p = track(broker.request({ kind: 'permission', title: 'edit' }));
    await flush();
    const cause = new Error('user pressed ctrl-c');
    broker.cancel(cause);
    await done;
    await flush();
    const err = (p.state as { error: DecisionAbortedError }).error;
    expect(isDecisionAborted(err)).toBe(true);
    expect(err.code).toBe('cancelled');
    expect(err.cause).toBe(cause);
    expect(err.decision?.outcome).toBe('aborted');
    expect(codeOf(() => requests()[0]?.approve())).toBe('ApprovalExpired');
    expect(broker.state).toBe('cancelled');
    const later = track(broker.request({ kind: 'permission', title: 'late' }));
    await flush();
    expect((later.state as { error: DecisionAbortedError }).error.code).toBe('cancelled');
  });

  it('an aborted signal cancels the broker', async () => {
    const ac = new AbortController();
    const { broker, done } = eventBroker({ signal: ac.signal });
    const p = track(broker.request({ kind: 'permission', title: 'edit' }));
    await flush();
    ac.abort('stop');
    await done;
    await flush();
    expect((p.state as { error: DecisionAbortedError }).error.code).toBe('cancelled');
  });

  it('close ends the run: pending decisions abort with run_ended, queued events are still delivered', async () => {
    const clock = new ManualClock();
    const broker = createDecisionBroker({ policy: policy(), descriptor: descriptor(false), clock });
    const p = track(broker.request({ kind: 'permission', title: 'a' }));
    const q = track(broker.request({ kind: 'plan_review', title: 'b' }));
    broker.close();
    const read: BrokerEvent[] = [];
    for await (const ev of broker.events()) read.push(ev);
    await flush();
    expect(read.map((e) => (e as DecisionRequest).title)).toEqual(['a', 'b']);
    expect(codeOf(() => (read[0] as DecisionRequest).approve())).toBe('ApprovalExpired');
    expect((p.state as { error: DecisionAbortedError }).error.code).toBe('run_ended');
    expect((q.state as { error: DecisionAbortedError }).error.code).toBe('run_ended');
    expect(clock.pending).toBe(0);
  });

  it('a negative timeout arms no timer at all', async () => {
    const { broker, clock } = eventBroker({ policy: policy({ timeout: -1n }) });
    void broker.request({ kind: 'permission', title: 'a' }).catch(() => {});
    await flush();
    expect(clock.pending).toBe(0);
    broker.close();
  });
});

describe('the callback form', () => {
  it('a handler error is kept as the cause of an infrastructure failure, even after answering', async () => {
    const boom = new Error('ui crashed');
    const broker = createDecisionBroker({
      policy: policy(),
      descriptor: descriptor(false),
      clock: new ManualClock(),
      handler: async (req) => {
        req.approve();
        throw boom;
      },
    });
    const err = await broker.request({ kind: 'permission', title: 'a' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecisionAbortedError);
    expect((err as DecisionAbortedError).code).toBe('handler_error');
    expect((err as DecisionAbortedError).cause).toBe(boom);
  });

  it('a synchronous handler may answer before returning', async () => {
    const broker = createDecisionBroker({
      policy: policy({ question: 'ask' }),
      descriptor: descriptor(false),
      clock: new ManualClock(),
      handler: (req) => {
        req.answer('yes');
      },
    });
    await expect(broker.request({ kind: 'question', title: 'q' })).resolves.toMatchObject({
      outcome: 'answered',
      answer: 'yes',
    });
  });

  it('a handler returning without answering is an agent error that expires the request', async () => {
    let kept: DecisionRequest | undefined;
    const broker = createDecisionBroker({
      policy: policy(),
      descriptor: descriptor(false),
      clock: new ManualClock(),
      handler: async (req) => {
        kept = req;
      },
    });
    const err = await broker.request({ kind: 'permission', title: 'a' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunError);
    expect((err as RunError).code).toBe('agent_error');
    expect(codeOf(() => kept?.approve())).toBe('ApprovalExpired');
  });

  it('the handler is never called for auto modes and requests never reach the stream', async () => {
    let calls = 0;
    const broker = createDecisionBroker({
      policy: policy({ permission: 'auto_approve' }),
      descriptor: descriptor(false),
      clock: new ManualClock(),
      handler: (req) => {
        calls++;
        req.approve();
      },
    });
    await broker.request({ kind: 'permission', title: 'a' });
    await broker.request({ kind: 'plan_review', title: 'b' });
    broker.close();
    const read: BrokerEvent[] = [];
    for await (const ev of broker.events()) read.push(ev);
    expect(calls).toBe(1);
    expect(read).toEqual([]);
  });
});

describe('policy values outside the domain', () => {
  it('refuses to build a broker on an unvalidated policy instead of guessing', () => {
    expect(() =>
      createDecisionBroker({ policy: policy({ permission: 'yes' }), descriptor: descriptor(false) }),
    ).toThrow(InvalidDecisionPolicyError);
    expect(() =>
      createDecisionBroker({ policy: policy({ question: 'auto_approve' }), descriptor: descriptor(false) }),
    ).toThrow('invalid value `auto_approve` for `Policy.Approvals.Question`');
    expect(() =>
      createDecisionBroker({ policy: policy({ maxRetries: -1 }), descriptor: descriptor(false) }),
    ).toThrow(InvalidDecisionPolicyError);
  });
});

describe('the real clock', () => {
  it('times out on the system clock and timers by default (faked here: no wall-clock assertion)', async () => {
    vi.useFakeTimers();
    try {
      const broker = createDecisionBroker({
        policy: policy({ timeout: 20_000_000n }),
        descriptor: descriptor(false),
      });
      let settled: unknown = 'pending';
      void broker.request({ kind: 'permission', title: 'a' }).then(
        (o) => (settled = o),
        (e: unknown) => (settled = e),
      );
      await vi.advanceTimersByTimeAsync(19);
      expect(settled).toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      expect(isApprovalTimeout(settled)).toBe(true);
      broker.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('failing host hooks', () => {
  it('an idGenerator that throws on a retry inside a timer aborts the decision instead of hanging it', async () => {
    const clock = new ManualClock();
    let calls = 0;
    const broker = createDecisionBroker({
      policy: policy({ onTimeout: 'retry' }),
      descriptor: descriptor(true),
      clock,
      idGenerator: () => {
        if (calls++ > 0) throw new Error('no more ids');
        return 'only-id';
      },
    });
    const p = track(broker.request({ kind: 'permission', title: 'a' }));
    clock.advance(30_000);
    await flush();
    const err = (p.state as { error: DecisionAbortedError }).error;
    expect(err).toBeInstanceOf(DecisionAbortedError);
    expect(err.code).toBe('internal_error');
    expect((err.cause as Error).message).toBe('no more ids');
    broker.close();
  });
});

describe('audit: deadlines, notices and malformed inputs', () => {
  it('the deadline is per attempt: a retry after an early reject gets a full timeout of its own', async () => {
    const { broker, clock, requests } = eventBroker({
      descriptor: descriptor(true),
      policy: policy({ onReject: 'retry', timeout: 10_000_000_000n }),
    });
    const p = track(broker.request({ kind: 'permission', title: 'edit' }));
    await flush();
    clock.advance(7_000);
    requests()[0]?.deny('not yet');
    await flush();
    const second = requests()[1];
    expect([second?.attempt, second?.createdAt, second?.deadline]).toEqual([1, 7_000, 17_000]);
    clock.advance(9_999); // past the first attempt's deadline (10s), not the second's (17s)
    await flush();
    expect(p.state.ok).toBe('pending');
    expect(codeOf(() => requests()[0]?.approve())).toBe('ApprovalResolved');
    clock.advance(1);
    await flush();
    expect(isApprovalTimeout((p.state as { error: unknown }).error)).toBe(true);
    expect(codeOf(() => second?.approve())).toBe('ApprovalExpired');
  });

  it('a question under an all-zero policy is auto-rejected and aborts the run: nothing is asked, no notice', async () => {
    const { broker, events, done } = eventBroker({ policy: policy() });
    const err = await broker.request({ kind: 'question', title: 'which branch?' }).catch((e: unknown) => e);
    broker.close();
    await done;
    expect(isApprovalDenied(err)).toBe(true);
    expect((err as RunError).decision).toMatchObject({ kind: 'question', mode: 'auto_reject', outcome: 'rejected' });
    expect(events).toEqual([]);
  });

  it('C4 on_reject retry on every built-in: one notice per kind for the whole run, each reject aborts', async () => {
    for (const name of ['codex', 'claude', 'cursor', 'codebuddy'] as const) {
      const builtin = getBuiltinDescriptor(name);
      if (builtin === undefined) throw new Error(`${name} descriptor missing`);
      const { broker, events, requests, done } = eventBroker({
        descriptor: builtin,
        policy: policy({ permission: 'ask', planReview: 'ask', question: 'ask', onReject: 'retry' }),
      });
      const kinds = ['permission', 'question', 'permission', 'plan_review', 'question', 'plan_review'] as const;
      for (const [i, kind] of kinds.entries()) {
        const p = track(broker.request({ kind, title: `r${i}` }));
        await flush();
        requests()[i]?.deny();
        await flush();
        expect(isApprovalDenied((p.state as { error: unknown }).error), `${name} ${i}`).toBe(true);
      }
      broker.close();
      await done;
      expect(requests().map((r) => r.attempt)).toEqual([0, 0, 0, 0, 0, 0]);
      const notices = events.filter((e): e is LifecycleNotice => e.type === 'notice');
      expect(notices.map((n) => [n.data.kind, n.data.driver])).toEqual([
        ['permission', name],
        ['question', name],
        ['plan_review', name],
      ]);
    }
  });

  it('a descriptor without a kind in run_policy_caps fails closed: no retry, the decision settles', async () => {
    const broken = descriptor(true) as unknown as { run_policy_caps: Record<string, unknown> };
    delete broken.run_policy_caps['permission'];
    const { broker, clock, requests } = eventBroker({
      descriptor: broken as unknown as Parameters<typeof createDecisionBroker>[0]['descriptor'],
      policy: policy({ onReject: 'retry', onTimeout: 'retry' }),
    });
    const rejected = track(broker.request({ kind: 'permission', title: 'a' }));
    await flush();
    expect(() => requests()[0]?.deny()).not.toThrow();
    await flush();
    expect(isApprovalDenied((rejected.state as { error: unknown }).error)).toBe(true);
    const timedOut = track(broker.request({ kind: 'permission', title: 'b' }));
    await flush();
    expect(() => clock.advance(30_000)).not.toThrow();
    await flush();
    expect(isApprovalTimeout((timedOut.state as { error: unknown }).error)).toBe(true);
    broker.close();
  });

  it('an idGenerator that throws on an auto decision aborts it with internal_error', async () => {
    const broker = createDecisionBroker({
      policy: policy({ permission: 'auto_approve' }),
      descriptor: descriptor(false),
      clock: new ManualClock(),
      idGenerator: () => {
        throw new Error('no ids');
      },
    });
    const err = await broker.request({ kind: 'permission', title: 'a' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DecisionAbortedError);
    expect((err as DecisionAbortedError).code).toBe('internal_error');
    expect(((err as DecisionAbortedError).cause as Error).message).toBe('no ids');
    broker.close();
  });
});

describe('B6.8 clarifications', () => {
  it('a finished request says it is finished before any kind mismatch (Unavailable, then Resolved/Expired, then KindMismatch)', async () => {
    const { broker, clock, requests } = eventBroker({ policy: policy({ question: 'ask', planReview: 'ask' }) });
    track(broker.request({ kind: 'question', title: 'answered' }));
    track(broker.request({ kind: 'permission', title: 'timed out' }));
    track(broker.request({ kind: 'plan_review', title: 'open' }));
    await flush();
    const [answered, timedOut, open] = requests() as [DecisionRequest, DecisionRequest, DecisionRequest];
    answered.answer('main');
    expect(codeOf(() => answered.approve())).toBe('ApprovalResolved');
    expect(codeOf(() => approveRequest({ ...answered }))).toBe('ApprovalResolved');
    clock.advance(30_000);
    await flush();
    expect(codeOf(() => timedOut.answer('yes'))).toBe('ApprovalExpired');
    // The open one still gets the kind mismatch, and a detached copy is unavailable whatever its kind.
    expect(codeOf(() => open.answer('yes'))).toBe('ApprovalExpired'); // it shares the 30s deadline
    expect(codeOf(() => answerRequest(JSON.parse(JSON.stringify(answered)), 'x'))).toBe('ApprovalUnavailable');
    expect(codeOf(() => approveRequest(JSON.parse(JSON.stringify(answered))))).toBe('ApprovalUnavailable');
    broker.close();
  });

  it('after the run ends, approve on a question is ApprovalExpired', async () => {
    const { broker, requests } = eventBroker();
    track(broker.request({ kind: 'question', title: 'q' }));
    track(broker.request({ kind: 'permission', title: 'p' }));
    await flush();
    const [question, permission] = requests() as [DecisionRequest, DecisionRequest];
    expect(codeOf(() => question.approve())).toBe('ApprovalKindMismatch'); // still open: the kind is what is wrong
    broker.close();
    await flush();
    expect(codeOf(() => question.approve())).toBe('ApprovalExpired');
    expect(codeOf(() => permission.answer('yes'))).toBe('ApprovalExpired');
  });

  it('a handler that approves and then throws a non-Error is an agent_error that says it answered', async () => {
    const broker = createDecisionBroker({
      policy: policy(),
      descriptor: descriptor(false),
      clock: new ManualClock(),
      handler: (req) => {
        req.approve();
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- the case under test
        throw 'panic';
      },
    });
    const err = await broker.request({ kind: 'permission', title: 'a' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunError);
    expect((err as RunError).code).toBe('agent_error');
    expect((err as RunError).message).toBe(
      'the approval handler answered the `permission` request `a`, then threw a value that is not an `Error`',
    );
    expect((err as RunError).cause).toBe('panic');
  });

  it('a handler that throws a non-Error without answering did not answer', async () => {
    const broker = createDecisionBroker({
      policy: policy(),
      descriptor: descriptor(false),
      clock: new ManualClock(),
      handler: () => Promise.reject(42),
    });
    const err = await broker.request({ kind: 'permission', title: 'a' }).catch((e: unknown) => e);
    expect((err as RunError).code).toBe('agent_error');
    expect((err as RunError).message).toBe('the approval handler did not answer the `permission` request `a`');
  });

  it('callback form: the outcome is final when the handler returns; an answer from a running handler is aborted by the run end', async () => {
    for (const end of ['close', 'cancel'] as const) {
      let answeredReq: DecisionRequest | undefined;
      const broker = createDecisionBroker({
        policy: policy(),
        descriptor: descriptor(false),
        clock: new ManualClock(),
        handler: (req) => {
          req.approve();
          answeredReq = req;
          return new Promise<void>(() => {}); // answers, never returns
        },
      });
      const p = track(broker.request({ kind: 'permission', title: 'a' }));
      await flush();
      expect(answeredReq).toBeDefined();
      expect(p.state.ok).toBe('pending'); // held: the handler has not returned
      expect(codeOf(() => answeredReq?.deny())).toBe('ApprovalResolved');
      if (end === 'close') broker.close();
      else broker.cancel('stop');
      await flush();
      const err = (p.state as { error: unknown }).error;
      expect(isDecisionAborted(err)).toBe(true);
      expect((err as DecisionAbortedError).code).toBe(end === 'close' ? 'run_ended' : 'cancelled');
      expect(broker.transcript().map((r) => r.outcome)).toEqual(['aborted']);
    }
  });

  it('an auto-rejected request is never retried and sends no retry notice, even when the driver advertises retry', async () => {
    for (const retry of [true, false]) {
      const notices: LifecycleNotice[] = [];
      const { broker, events, done } = eventBroker({
        descriptor: descriptor(retry),
        policy: policy({ permission: 'auto_reject', onReject: 'retry' }),
        onNotice: (n) => notices.push(n),
      });
      const err = await broker.request({ kind: 'permission', title: 'p' }).catch((e: unknown) => e);
      broker.close();
      await done;
      expect(isApprovalDenied(err), `retry advertised: ${retry}`).toBe(true);
      expect((err as RunError).message).toBe(
        'the `permission` request `p` was rejected: rejected by policy (auto_reject) (an automatic rejection cannot be retried)',
      );
      expect(events).toEqual([]);
      expect(notices).toEqual([]);
      expect(broker.transcript().map((r) => r.attempt)).toEqual([0]);
    }
  });
});
