// Cost that grows with the rule count: large policies get decided answers (or one "budget" finding),
// not quadratic work ending in "unknown". No wall-clock assertion: the answers are what changed
// (bench/src/large-policy.ts measures the time).
import { compileApprover } from '@verdict/engine';
import type { ApproverIR, RuleIR } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import { analyzeApprover, diffPolicies } from './index.ts';
import type { DiffWitness } from './index.ts';

/** The engine decides the witness as the diff says: `before` by the old policy, `after` by the new. */
function confirm(oldIr: ApproverIR, newIr: ApproverIR, w: DiffWitness | null, before: string, after: string): void {
  expect(w).not.toBeNull();
  const req = { toolName: w?.toolName ?? '', input: w?.input ?? '' };
  expect(compileApprover(oldIr).approver?.approve(req).decision).toBe(before);
  expect(compileApprover(newIr).approver?.approve(req).decision).toBe(after);
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

/** `n` deny and `n` allow rules for bash and read, distinct literals, raw input, default deny. */
function big(n: number, drop?: number): ApproverIR {
  const deny: RuleIR[] = [];
  const allow: RuleIR[] = [];
  for (let i = 0; i < n; i++) {
    const w = `${WORDS[i % WORDS.length]}${i}`;
    if (i !== drop) deny.push({ tool: i % 2 === 0 ? 'bash' : 'read', match: `"(command|path)":"[^"]*${w}x` });
    allow.push({ tool: i % 2 === 0 ? 'bash' : 'read', match: `"(command|path)":"${w}/` });
  }
  return { mode: 'pattern', default: 'deny', reason: '', input: 'raw', allow, deny };
}

describe('large policies', () => {
  it('a policy against itself is equivalent without asking any question (even with no time at all)', () => {
    const p = big(1_000);
    const d = diffPolicies(p, structuredClone(p), { totalTimeMs: 0 });
    expect(d.verdict).toBe('equivalent');
    expect(d.unknown).toEqual([]);
  });

  it('a near copy (one deny rule dropped) is looser, with a witness the engine confirms', () => {
    const old = big(1_000);
    const next = big(1_000, 500);
    const d = diffPolicies(old, next);
    expect(d.verdict).toBe('looser');
    confirm(old, next, d.newlyAllowed, 'deny', 'allow');
    const back = diffPolicies(next, old);
    expect(back.verdict).toBe('stricter');
    confirm(next, old, back.newlyDenied, 'allow', 'deny');
  });

  it('a near copy that turns one deny rule into an ask rule is looser (asked, denied before), and back stricter', () => {
    const old = big(1_000);
    const next: ApproverIR = { ...big(1_000, 500), ask: [old.deny[500] as RuleIR] };
    const decide = (ir: ApproverIR, w: DiffWitness | undefined) =>
      compileApprover(ir).approver?.decide({ toolName: w?.toolName ?? '', input: w?.input ?? '' }).decision;
    const d = diffPolicies(old, next);
    expect([d.verdict, d.unknown, d.changes.map((c) => c.direction)]).toEqual(['looser', [], ['newly-asked']]);
    expect([decide(old, d.changes[0]), decide(next, d.changes[0])]).toEqual(['deny', 'ask']);
    const back = diffPolicies(next, old);
    expect([back.verdict, back.unknown, back.changes.map((c) => c.direction)]).toEqual(['stricter', [], ['newly-denied']]);
    expect([decide(next, back.changes[0]), decide(old, back.changes[0])]).toEqual(['ask', 'deny']);
  });

  it('a shadowed allow rule among hundreds of deny rules of its tool is found', () => {
    const p = big(800);
    p.allow.push({ tool: 'bash', match: '"command":"zulu only' });
    p.deny.push({ tool: 'bash', match: 'zulu' });
    const findings = analyzeApprover(p, { checks: { dead: true, shadowed: true, overlap: false } });
    const shadowed = findings.filter((f) => f.kind === 'shadowed-rule');
    expect(shadowed.map((f) => f.kind === 'shadowed-rule' && [f.rule.index, f.by.map((b) => b.index)])).toEqual([[800, [800]]]);
    expect(findings.filter((f) => f.kind === 'unknown' || f.kind === 'budget')).toEqual([]);
  });

  describe('with ask rules (deny > ask > allow), decided from counterexamples', () => {
    // Over 256 deny and ask rules apply to bash: the whole question is out of reach, so each
    // answer below comes from the counterexample step, which must read ask decisions right.
    const shadowing = (p: ApproverIR) => {
      const findings = analyzeApprover(p, { checks: { dead: true, shadowed: true, overlap: false } });
      expect(findings.filter((f) => f.kind === 'unknown' || f.kind === 'budget')).toEqual([]);
      return findings.flatMap((f) => (f.kind === 'shadowed-rule' ? [[`${f.rule.list}[${f.rule.index}]`, f.by.map((b) => `${b.list}[${b.index}]`)]] : []));
    };

    it('an allow rule an ask rule covers is shadowed by it', () => {
      const p = big(800);
      p.allow.push({ tool: 'bash', match: '"command":"zulu only' });
      p.ask = [{ tool: 'bash', match: '"command":"[^"]*zulu' }];
      expect(shadowing(p)).toEqual([['allow[800]', ['ask[0]']]]);
    });

    it('an allow rule a deny rule and an ask rule cover together is shadowed by both (deny rules named first)', () => {
      const p = big(800);
      p.allow.push({ tool: 'bash', match: '"command":"(zulu|yankee) only' });
      p.ask = [{ tool: 'bash', match: '"command":"[^"]*zulu' }];
      p.deny.push({ tool: 'bash', match: '"command":"[^"]*yankee' });
      expect(shadowing(p)).toEqual([['allow[800]', ['deny[800]', 'ask[0]']]]);
    });

    it('an ask rule a deny rule covers is shadowed by it', () => {
      const p = big(800);
      p.ask = [{ tool: 'bash', match: '"command":"zulu only' }];
      p.deny.push({ tool: 'bash', match: 'zulu' });
      expect(shadowing(p)).toEqual([['ask[0]', ['deny[800]']]]);
    });

    it('an ask rule is not shadowed by another ask rule, nor an allow rule by an ask rule it outgrows', () => {
      const p = big(800);
      p.ask = [{ tool: 'bash', match: '"command":"zulu' }, { tool: 'bash', match: '"command":"zulu only' }];
      p.allow.push({ tool: 'bash', match: '"command":"zu' });
      expect(shadowing(p)).toEqual([]);
    });
  });

  it('a spent budget is one finding per question, not one per rule', () => {
    const findings = analyzeApprover(big(1_500), { totalTimeMs: 0 });
    expect(findings).toEqual([
      { kind: 'budget', question: 'dead-rule', unchecked: 3_000, total: 3_000, timeMs: 0 },
      { kind: 'budget', question: 'shadowed-rule', unchecked: 1_500, total: 1_500, timeMs: 0 },
    ]);
  });
});
