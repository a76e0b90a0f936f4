import { compileApprover } from '@verdict/engine';
import type { ApproverIR, RuleIR } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import { diffPolicies } from './diff.ts';

const rule = (tool: string, match: string): RuleIR => ({ tool, match });
const policy = (allow: RuleIR[], deny: RuleIR[] = []): ApproverIR => ({
  mode: 'pattern',
  default: 'deny',
  reason: '',
  input: 'raw',
  allow,
  deny,
});

describe('diffPolicies: one witness per changed tool and direction', () => {
  const oldIr = policy([rule('bash', '"command":"git (status|diff)'), rule('read', '.*'), rule('grep', '.*')]);
  const newIr = policy(
    [rule('bash', '"command":"git (status|diff|log)'), rule('read', '"path":"/workspace/'), rule('grep', '.*'), rule('write', '"path":"/tmp/')],
    [rule('grep', 'secret')],
  );
  const d = diffPolicies(oldIr, newIr);

  it('lists every tool whose decisions changed, and no other', () => {
    expect(d.verdict).toBe('neither');
    const changed = d.changes.map((c) => `${c.direction} ${c.toolName}`).sort();
    expect(changed).toEqual(['newly-allowed bash', 'newly-allowed write', 'newly-denied grep', 'newly-denied read']);
    expect(d.newlyDenied).toEqual(expect.objectContaining({ toolName: d.changes.find((c) => c.direction === 'newly-denied')!.toolName }));
  });

  it('every witness decides as it says under the real engine', () => {
    const oldA = compileApprover(oldIr).approver!;
    const newA = compileApprover(newIr).approver!;
    for (const c of d.changes) {
      const req = { toolName: c.toolName, input: c.input };
      expect(oldA.approve(req).decision).toBe(c.direction === 'newly-denied' ? 'allow' : 'deny');
      expect(newA.approve(req).decision).toBe(c.direction === 'newly-denied' ? 'deny' : 'allow');
    }
  });

  it('equivalent policies have no changes', () => {
    expect(diffPolicies(oldIr, oldIr)).toMatchObject({ verdict: 'equivalent', changes: [] });
  });
});
