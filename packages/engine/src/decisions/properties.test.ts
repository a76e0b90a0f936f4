// Property tests: fast-check's scheduler races responders, deadlines, cancellation and the end of
// the run in every order, checking them against a small model of B6.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HumanDecisionKind } from '../policy/types.ts';
import { createDecisionBroker } from './broker.ts';
import { ManualClock } from './clock.ts';
import { ApprovalError, DecisionAbortedError, RunError } from './errors.ts';
import { descriptor, flush, policy, track } from '../../test/support/decisions.ts';
import type { BrokerEvent, DecisionRequest } from './types.ts';

type Action = 'approve' | 'deny' | 'answer' | 'expire' | 'cancel' | 'close' | 'return' | 'throw';
type Final =
  | 'approved'
  | 'answered'
  | 'rejected'
  | 'timed_out'
  | 'cancelled'
  | 'run_ended'
  | 'agent_error'
  | 'handler_error';

const kindArb = fc.constantFrom<HumanDecisionKind>('permission', 'plan_review', 'question');
const fallbackArb = fc.constantFrom<'abort' | 'continue'>('abort', 'continue');

/** The expected result of one ask under a given order of actions (B6.3-B6.5). */
function model(kind: HumanDecisionKind, handlerMode: boolean, order: Action[]) {
  let state: 'open' | 'responded' | 'expired' = 'open';
  let response: 'approved' | 'answered' | 'rejected' | undefined;
  let final: Final | undefined;
  const codes: Array<string | null> = [];
  const yesNo = kind !== 'question';
  for (const a of order) {
    switch (a) {
      case 'approve':
      case 'answer':
      case 'deny': {
        // B6.8: a finished request says so before any kind mismatch.
        if (state === 'responded') codes.push('ApprovalResolved');
        else if (state === 'expired') codes.push('ApprovalExpired');
        else if ((a === 'approve' && !yesNo) || (a === 'answer' && yesNo)) codes.push('ApprovalKindMismatch');
        else {
          codes.push(null);
          state = 'responded';
          response = a === 'approve' ? 'approved' : a === 'answer' ? 'answered' : 'rejected';
          if (!handlerMode) final = response;
        }
        break;
      }
      case 'expire':
        if (state === 'open') {
          state = 'expired';
          final ??= 'timed_out';
        }
        break;
      case 'cancel':
      case 'close':
        if (state === 'open') state = 'expired';
        final ??= a === 'cancel' ? 'cancelled' : 'run_ended';
        break;
      case 'return':
      case 'throw':
        if (final === undefined) {
          if (state === 'open') state = 'expired';
          final = a === 'throw' ? 'handler_error' : response ?? 'agent_error';
        }
        break;
    }
  }
  return { final, codes };
}

describe('racing one ask (scheduler)', () => {
  it('exactly one outcome wins, every loser gets the right code, nothing hangs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        kindArb,
        fallbackArb,
        fallbackArb,
        fc.boolean(),
        fc.array(fc.constantFrom<Action>('approve', 'deny', 'answer', 'expire', 'cancel', 'close'), {
          minLength: 1,
          maxLength: 7,
        }),
        fc.constantFrom<'none' | 'return' | 'throw'>('none', 'return', 'throw'),
        async (s, kind, onReject, onTimeout, handlerMode, actions, ending) => {
          const clock = new ManualClock(1000);
          let handlerRequest: DecisionRequest | undefined;
          let releaseHandler: ((how: 'return' | 'throw') => void) | undefined;
          const broker = createDecisionBroker({
            policy: policy({ question: 'ask', onReject, onTimeout }),
            descriptor: descriptor(false),
            clock,
            ...(handlerMode
              ? {
                  handler: (req: DecisionRequest) =>
                    new Promise<void>((resolve, reject) => {
                      handlerRequest = req;
                      releaseHandler = (how) => (how === 'throw' ? reject(new Error('handler failed')) : resolve());
                    }),
                }
              : {}),
          });
          const events: BrokerEvent[] = [];
          const reader = track(
            (async () => {
              for await (const ev of broker.events()) events.push(ev);
            })(),
          );
          const decision = track(broker.request({ kind, title: 't' }));
          await flush();
          const req = handlerMode ? handlerRequest : (events[0] as DecisionRequest | undefined);
          if (req === undefined) throw new Error('no request was delivered');

          const all: Action[] = handlerMode && ending !== 'none' ? [...actions, ending] : actions;
          const order: Action[] = [];
          const codes: Array<string | null> = [];
          let approvedAt: number | undefined;
          for (const a of all) {
            void s.schedule(Promise.resolve(a), a).then(() => {
              order.push(a);
              const copy = { ...req };
              const respond = (fn: () => void): void => {
                try {
                  fn();
                  codes.push(null);
                  if (a === 'approve') approvedAt = clock.now();
                } catch (e) {
                  if (!(e instanceof ApprovalError)) throw e;
                  codes.push(e.code);
                }
              };
              if (a === 'approve') respond(() => copy.approve());
              else if (a === 'deny') respond(() => copy.deny('no'));
              else if (a === 'answer') respond(() => copy.answer('yes'));
              else if (a === 'expire') clock.advance(Math.max(0, (req.deadline ?? 0) - clock.now()));
              else if (a === 'cancel') broker.cancel();
              else if (a === 'close') broker.close();
              else releaseHandler?.(a === 'throw' ? 'throw' : 'return');
            });
          }
          await s.waitIdle();
          await flush();
          const expected = model(kind, handlerMode, order);
          expect(codes).toEqual(expected.codes);
          if (approvedAt !== undefined) expect(approvedAt).toBeLessThan(req.deadline ?? Infinity);

          // Nothing hangs: whatever is still pending ends with the run.
          broker.close();
          await flush();
          await flush();
          expect(reader.state.ok).toBe(true);
          const st = decision.state;
          if (st.ok === 'pending') throw new Error('the decision never settled');
          const final = expected.final ?? 'run_ended';
          let got: string;
          if (st.ok) got = st.value.outcome;
          else if (st.error instanceof RunError) got = st.error.code;
          else if (st.error instanceof DecisionAbortedError) got = st.error.code;
          else throw st.error;
          const fallbackOf = (f: Final): string => {
            if (f === 'rejected') return onReject === 'continue' ? 'rejected' : 'decision_rejected';
            if (f === 'timed_out') return onTimeout === 'continue' ? 'timed_out' : 'decision_timeout';
            return f;
          };
          expect(got).toBe(fallbackOf(final));
          // One decision, one record.
          expect(broker.transcript()).toHaveLength(1);
          // After the run, every responder method reports the request as resolved or expired.
          for (const fn of [() => req.deny(), () => (kind === 'question' ? req.answer('x') : req.approve())]) {
            let code: string | undefined;
            try {
              fn();
            } catch (e) {
              code = (e as ApprovalError).code;
            }
            expect(['ApprovalResolved', 'ApprovalExpired']).toContain(code);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('many asks on one stream (scheduler)', () => {
  it('no request is dropped, order is kept, every decision settles', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.record({ kind: kindArb, answer: fc.constantFrom('respond', 'expire', 'leave') }), {
          minLength: 1,
          maxLength: 12,
        }),
        async (s, specs) => {
          const clock = new ManualClock();
          const broker = createDecisionBroker({
            policy: policy({ question: 'ask', onReject: 'continue', onTimeout: 'continue', timeout: 1_000_000_000n }),
            descriptor: descriptor(false),
            clock,
          });
          const seen: DecisionRequest[] = [];
          const decisions = specs.map((spec, i) => {
            // Requests are made in a scheduled order, interleaved with the consumer's answers.
            const made = s.schedule(Promise.resolve(i), `request ${i}`).then(() =>
              broker.request({ kind: spec.kind, title: `r${i}` }),
            );
            return track(made);
          });
          const reader = (async () => {
            for await (const ev of broker.events()) {
              if (ev.type !== 'approval_request') continue;
              seen.push(ev);
              const spec = specs[Number(ev.title.slice(1))];
              await s.schedule(Promise.resolve(), `answer ${ev.title}`);
              if (spec?.answer === 'respond') {
                // Another ask's expiry may have moved the clock past this deadline too.
                const late = ev.deadline !== undefined && clock.now() >= ev.deadline;
                let code: string | undefined;
                try {
                  if (ev.kind === 'question') ev.answer('a');
                  else ev.approve();
                } catch (e) {
                  code = (e as ApprovalError).code;
                }
                expect(code).toBe(late ? 'ApprovalExpired' : undefined);
              } else if (spec?.answer === 'expire' && ev.deadline !== undefined) {
                clock.advance(Math.max(0, ev.deadline - clock.now()));
              }
            }
          })();
          await s.waitIdle();
          broker.close();
          await reader;
          await flush();
          expect(seen.map((r) => r.seq)).toEqual(seen.map((_, i) => i));
          expect(new Set(seen.map((r) => r.title)).size).toBe(specs.length);
          expect(new Set(seen.map((r) => r.id)).size).toBe(specs.length);
          for (const d of decisions) expect(d.state.ok).not.toBe('pending');
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('retry budget', () => {
  it('max_retries + 1 asks when retry is advertised (0 means 3); one ask and one notice when it is not', async () => {
    await fc.assert(
      fc.asyncProperty(
        kindArb,
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        fc.constantFrom<'timeout' | 'reject'>('timeout', 'reject'),
        fc.integer({ min: 1, max: 3 }),
        async (kind, maxRetries, advertised, how, calls) => {
          const clock = new ManualClock();
          const broker = createDecisionBroker({
            policy: policy({ question: 'ask', onTimeout: 'retry', onReject: 'retry', maxRetries }),
            descriptor: descriptor(advertised),
            clock,
          });
          const it = broker.events();
          let asks = 0;
          let notices = 0;
          for (let c = 0; c < calls; c++) {
            const d = track(broker.request({ kind, title: `call ${c}` }));
            let perCall = 0;
            while (d.state.ok === 'pending') {
              const next = await it.next();
              if (next.done === true) throw new Error('stream ended early');
              if (next.value.type === 'notice') {
                notices++;
                continue;
              }
              asks++;
              perCall++;
              expect(next.value.attempt).toBe(perCall - 1);
              if (how === 'reject') next.value.deny();
              else clock.advance(30_000);
              await flush();
            }
            const budget = advertised ? (maxRetries === 0 ? 3 : maxRetries) + 1 : 1;
            expect(perCall).toBe(budget);
            const err = (d.state as { error: unknown }).error;
            expect((err as RunError).code).toBe(how === 'reject' ? 'decision_rejected' : 'decision_timeout');
          }
          broker.close();
          for await (const ev of it) if (ev.type === 'notice') notices++;
          expect(notices).toBe(advertised ? 0 : 1);
          expect(asks).toBe(calls * (advertised ? (maxRetries === 0 ? 3 : maxRetries) + 1 : 1));
        },
      ),
      { numRuns: 100 },
    );
  });
});
