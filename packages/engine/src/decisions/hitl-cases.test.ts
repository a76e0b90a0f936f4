// Table tests fed from fixtures/cases/decisions-hitl.json: every row of semantics.md C5 and more.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGoDuration } from '../policy/duration.ts';
import type { DriverDescriptor, HumanDecisionKind, Policy } from '../policy/types.ts';
import { createDecisionBroker } from './broker.ts';
import { ManualClock } from './clock.ts';
import { ApprovalError, DecisionAbortedError, RunError } from './errors.ts';
import { approveAll, denyAll } from './handlers.ts';
import type { BrokerEvent, DecisionChoice, DecisionHandler, DecisionOutcome, DecisionRequest } from './types.ts';

interface Step {
  do: 'approve' | 'deny' | 'answer' | 'expire' | 'advance';
  text?: string;
  reason?: string;
  ms?: number;
  error?: string;
}
interface RequestCase {
  kind: HumanDecisionKind;
  title: string;
  choices?: DecisionChoice[];
  steps: Step[];
  expect: {
    status?: 'continue';
    outcome?: string;
    mode?: string;
    error?: string;
    reason?: string;
    answer?: string;
    choice?: string | null;
    attempt?: number;
    asks?: number;
    attempts?: number[];
    transcript?: string[];
    deadline_after_ms?: number | null;
  };
}
interface Case {
  name: string;
  row?: string;
  descriptor: string;
  handler?: 'noop' | 'throw_error' | 'throw_value' | 'approve_all' | 'deny_all' | 'hang';
  approvals: Record<string, string | number>;
  requests: RequestCase[];
  expect?: { notices?: Array<{ kind: HumanDecisionKind }> };
}
interface CaseFile {
  descriptors: Record<string, DriverDescriptor>;
  cases: Case[];
}

const file = JSON.parse(
  readFileSync(new URL('../../../../fixtures/cases/decisions-hitl.json', import.meta.url), 'utf8'),
) as CaseFile;

function policyFrom(approvals: Record<string, string | number>): Policy {
  const str = (k: string): string => (typeof approvals[k] === 'string' ? (approvals[k] as string) : '');
  let timeout = 0n;
  if (typeof approvals['timeout'] === 'string') {
    const parsed = parseGoDuration(approvals['timeout']);
    if (!parsed.ok) throw new Error(`bad duration in fixture: ${approvals['timeout']}`);
    timeout = parsed.ns;
  }
  return {
    sandbox: '',
    webSearch: '',
    browser: '',
    approvals: {
      permission: str('permission'),
      planReview: str('plan_review'),
      question: str('question'),
      timeout,
      onTimeout: str('on_timeout'),
      onReject: str('on_reject'),
      maxRetries: typeof approvals['max_retries'] === 'number' ? approvals['max_retries'] : 0,
    },
  };
}

function handlerFor(name: Case['handler']): DecisionHandler | undefined {
  switch (name) {
    case undefined:
      return undefined;
    case 'noop':
      return async () => {};
    case 'throw_error':
      return async () => {
        throw new Error('the approval UI crashed');
      };
    case 'throw_value':
      return () => {
        // A non-Error throw is the TS analogue of a Go panic.
        throw 'not an error';
      };
    case 'approve_all':
      return approveAll();
    case 'deny_all':
      return denyAll('not in CI');
    case 'hang':
      return () => new Promise<void>(() => {});
  }
}

const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

type Settled = { ok: true; value: DecisionOutcome } | { ok: false; error: unknown };

async function settle(p: Promise<DecisionOutcome>): Promise<Settled> {
  try {
    return { ok: true, value: await p };
  } catch (error) {
    return { ok: false, error };
  }
}

describe('human decisions (fixtures/cases/decisions-hitl.json)', () => {
  for (const c of file.cases) {
    it(`${c.row === undefined ? '' : `${c.row} `}${c.name}`, async () => {
      const descriptor = file.descriptors[c.descriptor];
      if (descriptor === undefined) throw new Error(`unknown descriptor ${c.descriptor}`);
      const clock = new ManualClock(1_000_000);
      const asked: DecisionRequest[] = [];
      const inner = handlerFor(c.handler);
      const handler: DecisionHandler | undefined =
        inner === undefined
          ? undefined
          : (req) => {
              asked.push(req);
              return inner(req);
            };
      let n = 0;
      const broker = createDecisionBroker({
        policy: policyFrom(c.approvals),
        descriptor,
        clock,
        runId: 'run-1',
        idGenerator: () => `req-${n++}`,
        ...(handler === undefined ? {} : { handler }),
      });
      const events: BrokerEvent[] = [];
      const collector = (async () => {
        for await (const ev of broker.events()) {
          events.push(ev);
          if (ev.type === 'approval_request') asked.push(ev);
        }
      })();

      for (const r of c.requests) {
        const first = asked.length;
        const transcriptStart = broker.transcript().length;
        const p = settle(
          broker.request({
            kind: r.kind,
            title: r.title,
            source: 'test',
            toolCallId: 'call-1',
            ...(r.choices === undefined ? {} : { choices: r.choices }),
          }),
        );
        await flush();
        let current: DecisionRequest | undefined;
        let currentDone = true;
        const next = (): DecisionRequest => {
          const req = asked[first + (current === undefined ? 0 : asked.indexOf(current) - first + 1)];
          if (req === undefined) throw new Error('expected another request to be asked');
          current = req;
          currentDone = false;
          return req;
        };
        const target = (step: Step): DecisionRequest =>
          step.error !== undefined && current !== undefined ? current : currentDone ? next() : (current as DecisionRequest);
        for (const step of r.steps) {
          if (step.do === 'advance') {
            clock.advance(step.ms ?? 0);
          } else if (step.do === 'expire') {
            const req = target(step);
            if (req.deadline === undefined) throw new Error('expire on a request without deadline');
            clock.advance(req.deadline - clock.now());
            currentDone = true;
          } else {
            const req = target(step);
            const act = (): void => {
              if (step.do === 'approve') req.approve();
              else if (step.do === 'deny') req.deny(step.reason);
              else req.answer(step.text ?? '');
            };
            if (step.error === undefined) {
              act();
              currentDone = true;
            } else {
              let thrown: unknown;
              try {
                act();
              } catch (e) {
                thrown = e;
              }
              expect(thrown).toBeInstanceOf(ApprovalError);
              expect((thrown as ApprovalError).code).toBe(step.error);
            }
          }
          await flush();
        }
        // Every decision settles from its steps alone; a pending one is a failure, not a hang.
        const res = await Promise.race([p, flush().then(flush).then(() => 'pending' as const)]);
        if (res === 'pending') throw new Error('the decision is still pending after its steps');
        const e = r.expect;
        if (e.error !== undefined) {
          expect(res.ok, 'the decision should fail').toBe(false);
          const err = (res as { error: unknown }).error;
          if (e.error === 'handler_error') {
            expect(err).toBeInstanceOf(DecisionAbortedError);
          } else {
            expect(err).toBeInstanceOf(RunError);
            expect((err as RunError).result.decisions.length).toBe(broker.transcript().length);
          }
          expect((err as RunError | DecisionAbortedError).code).toBe(e.error);
          if (e.reason !== undefined) expect((err as RunError).decision.reason).toBe(e.reason);
        } else {
          expect(res.ok, res.ok ? '' : String((res as { error: unknown }).error)).toBe(true);
          const v = (res as { value: DecisionOutcome }).value;
          expect(v.status).toBe(e.status);
          if (e.outcome !== undefined) expect(v.outcome).toBe(e.outcome);
          if (e.mode !== undefined) expect(v.mode).toBe(e.mode);
          if (e.reason !== undefined) expect(v.reason).toBe(e.reason);
          if (e.answer !== undefined) expect(v.answer).toBe(e.answer);
          if (e.choice !== undefined) expect(v.choice).toBe(e.choice ?? undefined);
          if (e.attempt !== undefined) expect(v.attempt).toBe(e.attempt);
        }
        const mine = asked.slice(first);
        if (e.asks !== undefined) expect(mine.length).toBe(e.asks);
        if (e.attempts !== undefined) expect(mine.map((q) => q.attempt)).toEqual(e.attempts);
        if (e.transcript !== undefined) {
          expect(broker.transcript().slice(transcriptStart).map((d) => d.outcome)).toEqual(e.transcript);
        }
        for (const q of mine) {
          expect(q.runId).toBe('run-1');
          expect(q.kind).toBe(r.kind);
          expect(q.title).toBe(r.title);
          expect(q.source).toBe('test');
          expect(q.toolCallId).toBe('call-1');
        }
        if (e.deadline_after_ms !== undefined) {
          const q = mine[0] as DecisionRequest;
          expect(q.deadline === undefined ? null : q.deadline - q.createdAt).toBe(e.deadline_after_ms);
        }
      }
      const ids = asked.map((q) => q.id);
      expect(new Set(ids).size).toBe(ids.length);
      broker.close();
      await collector;
      if (c.expect?.notices !== undefined) {
        const notices = events.filter((ev) => ev.type === 'notice');
        expect(notices.map((nt) => ({ kind: nt.data.kind }))).toEqual(c.expect.notices);
        for (const nt of notices) {
          expect(nt.data.warning).toBe('human_decision_retry_unsupported');
          expect(nt.runId).toBe('run-1');
        }
      }
    });
  }
});
