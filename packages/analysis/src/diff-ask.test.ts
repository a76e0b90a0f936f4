/** `diffPolicies` with ask rules: decisions ordered allow < ask < deny, and newly asked calls. */
import { compileApprover } from '@verdict/engine';
import type { ApproverIR, RuledDecision } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import { diffPolicies } from './index.ts';
import type { DiffChange, PolicyDiff } from './index.ts';

const approver = (b: Partial<ApproverIR> & Pick<ApproverIR, 'mode' | 'allow' | 'deny'>): ApproverIR => ({ default: '', reason: '', input: 'raw', ...b });

const bash = (match: string) => ({ tool: 'bash', match });

/** Every change's witness is decided by the engine (`decide`, which reports ask) as the diff says. */
function checkChanges(oldIr: ApproverIR, newIr: ApproverIR, d: PolicyDiff): void {
  const oldA = compileApprover(oldIr).approver!;
  const newA = compileApprover(newIr).approver!;
  const want: Record<DiffChange['direction'], RuledDecision> = { 'newly-denied': 'deny', 'newly-allowed': 'allow', 'newly-asked': 'ask' };
  for (const c of d.changes) {
    const req = { toolName: c.toolName, input: c.input };
    const before = oldA.decide(req).decision;
    const after = newA.decide(req).decision;
    expect(after).toBe(want[c.direction]);
    expect(before).not.toBe(after);
    expect([c.old.decision, c.new.decision]).toEqual([before, after]);
  }
}

const cases: { name: string; old: ApproverIR; new: ApproverIR; verdict: PolicyDiff['verdict']; directions: string[]; was?: RuledDecision[] }[] = [
  {
    name: 'an ask rule carved out of an allow rule: stricter, newly asked',
    old: approver({ mode: 'pattern', allow: [bash('git')], deny: [] }),
    new: approver({ mode: 'pattern', allow: [bash('git')], deny: [], ask: [bash('git push')] }),
    verdict: 'stricter',
    directions: ['newly-asked'],
    was: ['allow'],
  },
  {
    name: 'an ask rule for calls the default denied: looser, newly asked',
    old: approver({ mode: 'pattern', allow: [{ tool: 'read', match: '' }], deny: [] }),
    new: approver({ mode: 'pattern', allow: [{ tool: 'read', match: '' }], deny: [], ask: [bash('push')] }),
    verdict: 'looser',
    directions: ['newly-asked'],
    was: ['deny'],
  },
  {
    name: 'an ask rule turned into a deny rule: stricter, newly denied',
    old: approver({ mode: 'pattern', default: 'allow', allow: [], deny: [], ask: [bash('push')] }),
    new: approver({ mode: 'pattern', default: 'allow', allow: [], deny: [bash('push')] }),
    verdict: 'stricter',
    directions: ['newly-denied'],
    was: ['ask'],
  },
  {
    name: 'an ask rule dropped under an allow rule: looser, newly allowed',
    old: approver({ mode: 'pattern', allow: [bash('')], deny: [], ask: [bash('push')] }),
    new: approver({ mode: 'pattern', allow: [bash('')], deny: [] }),
    verdict: 'looser',
    directions: ['newly-allowed'],
    was: ['ask'],
  },
  {
    name: 'an ask rule for another tool: neither (bash newly asked from allow, read newly allowed from deny)',
    old: approver({ mode: 'pattern', allow: [bash('')], deny: [] }),
    new: approver({ mode: 'pattern', allow: [bash(''), { tool: 'read', match: '' }], deny: [], ask: [bash('push')] }),
    verdict: 'neither',
    directions: ['newly-allowed', 'newly-asked'],
  },
  {
    name: 'the same ask rules, reordered tool case and equivalent patterns: equivalent',
    old: approver({ mode: 'pattern', allow: [bash('')], deny: [], ask: [bash('s|u'), bash('push')] }),
    new: approver({ mode: 'pattern', allow: [bash('')], deny: [], ask: [{ tool: 'BASH', match: 'push' }, bash('[su]')] }),
    verdict: 'equivalent',
    directions: [],
  },
  {
    name: 'an ask rule that a deny rule covers changes nothing: equivalent',
    old: approver({ mode: 'pattern', allow: [bash('')], deny: [bash('sudo')] }),
    new: approver({ mode: 'pattern', allow: [bash('')], deny: [bash('sudo')], ask: [bash('sudo rm')] }),
    verdict: 'equivalent',
    directions: [],
  },
];

describe('diffPolicies with ask rules', () => {
  for (const c of cases) {
    it(c.name, () => {
      const d = diffPolicies(c.old, c.new, { totalTimeMs: 20_000 });
      expect(d.verdict).toBe(c.verdict);
      expect([...new Set(d.changes.map((x) => x.direction))].sort()).toEqual(c.directions);
      expect(d).toHaveProperty('newlyAsked');
      expect(d.newlyAsked !== null).toBe(c.directions.includes('newly-asked'));
      if (c.was !== undefined) expect(d.changes.map((x) => x.old.decision)).toEqual(c.was.map(() => c.was![0]).slice(0, d.changes.length));
      checkChanges(c.old, c.new, d);
      const back = diffPolicies(c.new, c.old, { totalTimeMs: 20_000 }).verdict;
      expect(back).toBe(({ stricter: 'looser', looser: 'stricter' } as Record<string, string>)[c.verdict] ?? c.verdict);
    });
  }

  it('leaves the result of policies without ask rules as it was (no `newlyAsked`)', () => {
    const d = diffPolicies(approver({ mode: 'pattern', allow: [bash('git')], deny: [] }), approver({ mode: 'pattern', allow: [bash('git')], deny: [bash('push')] }));
    expect(d.verdict).toBe('stricter');
    expect(d).not.toHaveProperty('newlyAsked');
  });

  it('an empty ask list is no ask list', () => {
    const d = diffPolicies(approver({ mode: 'pattern', allow: [bash('git')], deny: [] }), approver({ mode: 'pattern', allow: [bash('git')], deny: [], ask: [] }));
    expect(d.verdict).toBe('equivalent');
    expect(d).not.toHaveProperty('newlyAsked');
  });
});
