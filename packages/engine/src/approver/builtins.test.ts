import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { auditToolError, withAudit } from './audit.ts';
import { EMPTY_INTERSECTION_REASON, allowAll, approverFunc, chain, denyAll, intersect } from './builtins.ts';
import { compileApprover } from './config.ts';
import { approverIRFromCase } from '../../test/support/case-files.ts';
import type { ApprovalRequest, ApprovalResult, Approver, AuditLogger } from './types.ts';

const req: ApprovalRequest = { toolName: 'bash', input: '{"command":"ls"}', sessionId: 's1' };
const allow = (reason = ''): Approver => ({ approve: () => ({ decision: 'allow', reason }) });
const deny = (reason: string): Approver => ({ approve: () => ({ decision: 'deny', reason }) });
const throwing: Approver = {
  approve: () => {
    throw new Error('boom');
  },
};

describe('built-in approvers', () => {
  it('allowAll allows with an empty reason', () => {
    expect(allowAll().approve(req)).toEqual({ decision: 'allow', reason: '' });
  });
  it('denyAll uses its reason, untrimmed, or denied by policy', () => {
    expect(denyAll().approve(req)).toEqual({ decision: 'deny', reason: 'denied by policy' });
    expect(denyAll('').approve(req)).toEqual({ decision: 'deny', reason: 'denied by policy' });
    expect(denyAll('  ').approve(req)).toEqual({ decision: 'deny', reason: '  ' });
    expect(denyAll('not here').approve(req)).toEqual({ decision: 'deny', reason: 'not here' });
  });
});

describe('approverFunc', () => {
  it('passes allows and denies through', () => {
    expect(approverFunc(() => ({ decision: 'allow', reason: 'ok' })).approve(req)).toEqual({ decision: 'allow', reason: 'ok' });
    expect(approverFunc(() => ({ decision: 'deny', reason: 'no' })).approve(req)).toEqual({ decision: 'deny', reason: 'no' });
  });
  it('gives a deny without reason the default reason', () => {
    expect(approverFunc(() => ({ decision: 'deny', reason: '' })).approve(req)).toEqual({ decision: 'deny', reason: 'denied by policy' });
  });
  it('sees the request', () => {
    const seen: ApprovalRequest[] = [];
    approverFunc((r) => {
      seen.push(r);
      return { decision: 'allow', reason: '' };
    }).approve(req);
    expect(seen).toEqual([req]);
  });
  it('turns an exception into a deny', () => {
    expect(
      approverFunc(() => {
        throw new Error('policy engine down');
      }).approve(req),
    ).toEqual({ decision: 'deny', reason: 'approver: internal error: policy engine down' });
    expect(
      approverFunc(() => {
        throw 'plain';
      }).approve(req),
    ).toEqual({ decision: 'deny', reason: 'approver: internal error: plain' });
  });
  it('turns anything but allow/deny into a deny, never an allow', () => {
    const odd: unknown[] = ['allow', true, null, undefined, { decision: 'ALLOW' }, { decision: 'yes' }, Promise.resolve({ decision: 'allow', reason: '' }), {}];
    for (const value of odd) {
      const r = approverFunc(() => value as ApprovalResult).approve(req);
      expect(r.decision).toBe('deny');
      expect(r.reason).toMatch(/^approver: internal error: approver returned/);
    }
    expect(approverFunc(() => ({ decision: 'yes' }) as unknown as ApprovalResult).approve(req).reason).toBe(
      'approver: internal error: approver returned an invalid decision "yes"',
    );
  });
  it('never allows unless the function returned an allow (property)', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const r = approverFunc(() => value as ApprovalResult).approve(req);
        const isAllow = typeof value === 'object' && value !== null && (value as { decision?: unknown }).decision === 'allow';
        expect(r.decision === 'allow').toBe(isAllow);
        if (r.decision === 'deny') expect(r.reason).not.toBe('');
      }),
    );
  });
});

describe('chain', () => {
  it('a deny from the first wins and the second is not asked', () => {
    let asked = 0;
    const second = approverFunc(() => {
      asked++;
      return { decision: 'allow', reason: '' };
    });
    expect(chain(deny('first says no'), second).approve(req)).toEqual({ decision: 'deny', reason: 'first says no' });
    expect(asked).toBe(0);
  });
  it('otherwise the second decides', () => {
    expect(chain(allow(), deny('second says no')).approve(req)).toEqual({ decision: 'deny', reason: 'second says no' });
    expect(chain(allow('a'), allow('b')).approve(req)).toEqual({ decision: 'allow', reason: 'b' });
  });
  it('fails closed when either side throws', () => {
    expect(chain(throwing, allow()).approve(req)).toEqual({ decision: 'deny', reason: 'approver: internal error: boom' });
    expect(chain(allow(), throwing).approve(req)).toEqual({ decision: 'deny', reason: 'approver: internal error: boom' });
  });
});

describe('intersect', () => {
  it('allows only when every approver allows', () => {
    expect(intersect(allow(), allow('b')).approve(req)).toEqual({ decision: 'allow', reason: 'b' });
    expect(intersect(allow(), deny('claude code said no'), deny('later')).approve(req)).toEqual({
      decision: 'deny',
      reason: 'claude code said no',
    });
    expect(intersect(deny('x')).approve(req)).toEqual({ decision: 'deny', reason: 'x' });
  });
  it('fails closed on a throwing member and on an empty list', () => {
    expect(intersect(allow(), throwing).approve(req).decision).toBe('deny');
    expect(intersect().approve(req)).toEqual({ decision: 'deny', reason: EMPTY_INTERSECTION_REASON });
  });
  it('is the conjunction of its members (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), (allows) => {
        const members = allows.map((a, i) => (a ? allow() : deny(`no ${i}`)));
        const r = intersect(...members).approve(req);
        expect(r.decision).toBe(allows.every(Boolean) ? 'allow' : 'deny');
        if (r.decision === 'deny') expect(r.reason).toBe(`no ${allows.indexOf(false)}`);
      }),
    );
  });
});

describe('audit', () => {
  function recorder(): { logger: AuditLogger; events: [string, object, string | undefined][] } {
    const events: [string, object, string | undefined][] = [];
    return {
      events,
      logger: {
        info: (o, m) => void events.push(['info', o, m]),
        warn: (o, m) => void events.push(['warn', o, m]),
      },
    };
  }

  it('emits tool.execute on allow and tool.denied with reason on deny', () => {
    const { logger, events } = recorder();
    withAudit(allowAll(), logger).approve(req);
    withAudit(denyAll('nope'), logger).approve({ toolName: 'edit', input: '' });
    expect(events).toEqual([
      ['info', { event: 'tool.execute', toolName: 'bash', sessionId: 's1' }, 'tool.execute'],
      ['warn', { event: 'tool.denied', toolName: 'edit', reason: 'nope' }, 'tool.denied'],
    ]);
  });

  it('a throwing logger does not change the decision', () => {
    const bad: AuditLogger = {
      info: () => {
        throw new Error('disk full');
      },
      warn: () => {
        throw new Error('disk full');
      },
    };
    expect(withAudit(allowAll(), bad).approve(req)).toEqual({ decision: 'allow', reason: '' });
    expect(withAudit(denyAll('x'), bad).approve(req)).toEqual({ decision: 'deny', reason: 'x' });
    expect(() => auditToolError(bad, 'bash', new Error('exit 1'))).not.toThrow();
  });

  it('a throwing approver is denied and audited as denied', () => {
    const { logger, events } = recorder();
    expect(withAudit(throwing, logger).approve(req)).toEqual({ decision: 'deny', reason: 'approver: internal error: boom' });
    expect(events[0]?.[1]).toMatchObject({ event: 'tool.denied', reason: 'approver: internal error: boom' });
  });

  it('keeps explain on compiled approvers', () => {
    const { logger } = recorder();
    const { approver } = compileApprover(approverIRFromCase({ mode: 'deny_all' }));
    const audited = withAudit(approver!, logger);
    expect(audited.explain(req)).toMatchObject({ decision: 'deny', reason: 'denied by policy', by: 'mode' });
  });

  it('writes one numeric level through a pino-like logger (the level is the method, not a field)', () => {
    // pino appends the object's keys after its own `level`, without removing duplicates.
    const lines: string[] = [];
    const pinoLike = (num: number) => (obj: object, msg?: string) => {
      let line = `{"level":${num},"time":0`;
      for (const [k, v] of Object.entries(obj)) if (v !== undefined) line += `,${JSON.stringify(k)}:${JSON.stringify(v)}`;
      lines.push(`${line},"msg":${JSON.stringify(msg)}}`);
    };
    const logger: AuditLogger = { info: pinoLike(30), warn: pinoLike(40) };
    withAudit(allowAll(), logger).approve(req);
    withAudit(denyAll('nope'), logger).approve(req);
    auditToolError(logger, 'bash', new Error('exit 1'));
    expect(lines.map((l) => l.match(/"level":/g)?.length)).toEqual([1, 1, 1]);
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      { level: 30, time: 0, event: 'tool.execute', toolName: 'bash', sessionId: 's1', msg: 'tool.execute' },
      { level: 40, time: 0, event: 'tool.denied', toolName: 'bash', sessionId: 's1', reason: 'nope', msg: 'tool.denied' },
      { level: 40, time: 0, event: 'tool.error', toolName: 'bash', error: 'exit 1', msg: 'tool.error' },
    ]);
  });

  it('auditToolError emits tool.error at warn', () => {
    const { logger, events } = recorder();
    auditToolError(logger, 'bash', new Error('exit status 1'), 's9');
    auditToolError(logger, 'read', 'no such file');
    expect(events).toEqual([
      ['warn', { event: 'tool.error', toolName: 'bash', sessionId: 's9', error: 'exit status 1' }, 'tool.error'],
      ['warn', { event: 'tool.error', toolName: 'read', error: 'no such file' }, 'tool.error'],
    ]);
  });
});
