import { readFileSync } from 'node:fs';
import { compileApprover } from '@verdict/engine';
import type { ApproverIR } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import { diffPolicies } from './index.ts';
import type { PolicyDiff } from './index.ts';

type Block = Partial<ApproverIR> & Pick<ApproverIR, 'mode' | 'allow' | 'deny'>;
interface Case {
  name: string;
  old: Block;
  new: Block;
  verdict: PolicyDiff['verdict'];
  compat?: boolean;
}

const fixture = JSON.parse(readFileSync(new URL('../../../fixtures/analysis/diffs.json', import.meta.url), 'utf8')) as { cases: Case[] };

export const approver = (b: Block): ApproverIR => ({ default: '', reason: '', input: 'raw', ...b });

/** Every witness must be decided by the engine as the diff says. */
export function checkDiffWitnesses(oldIr: ApproverIR, newIr: ApproverIR, d: PolicyDiff, compat = false): void {
  const oldA = compileApprover(oldIr, { compat }).approver;
  const newA = compileApprover(newIr, { compat }).approver;
  for (const [w, before, after] of [
    [d.newlyDenied, 'allow', 'deny'],
    [d.newlyAllowed, 'deny', 'allow'],
  ] as const) {
    if (w === null) continue;
    const req = { toolName: w.toolName, input: w.input };
    expect(oldA?.approve(req).decision).toBe(before);
    expect(newA?.approve(req).decision).toBe(after);
    expect(w.old.decision).toBe(before);
    expect(w.new.decision).toBe(after);
    const parsed: unknown = JSON.parse(w.input);
    expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
    if (newIr.input === 'canonical') expect(newA?.explain(req).canonical).toBe(w.input);
  }
}

describe('diffPolicies on fixtures/analysis/diffs.json', () => {
  for (const c of fixture.cases) {
    it(c.name, () => {
      const oldIr = approver(c.old);
      const newIr = approver(c.new);
      const d = diffPolicies(oldIr, newIr, { compat: c.compat === true, totalTimeMs: 20_000 });
      expect(d.verdict).toBe(c.verdict);
      expect(d.newlyDenied !== null).toBe(c.verdict === 'stricter' || c.verdict === 'neither');
      expect(d.newlyAllowed !== null).toBe(c.verdict === 'looser' || c.verdict === 'neither');
      expect(d.unknown.length > 0).toBe(c.verdict === 'unknown');
      checkDiffWitnesses(oldIr, newIr, d, c.compat === true);
      // The reverse comparison mirrors the verdict.
      const back = diffPolicies(newIr, oldIr, { compat: c.compat === true, totalTimeMs: 20_000 }).verdict;
      const mirror: Record<string, string> = { stricter: 'looser', looser: 'stricter' };
      expect(back).toBe(mirror[c.verdict] ?? c.verdict);
    });
  }

  it('names the calls each side decides differently', () => {
    const c = fixture.cases.find((x) => x.name === 'a new deny rule') as Case;
    const d = diffPolicies(approver(c.old), approver(c.new));
    expect(d.newlyDenied?.toolName).toBe('bash');
    expect(d.newlyDenied?.old.rule).toEqual({ list: 'allow', index: 0 });
    expect(d.newlyDenied?.new.rule).toEqual({ list: 'deny', index: 0 });
    expect(d.newlyDenied?.new.reason).toBe('denied by pattern policy');
  });

  it('says unknown rather than equivalent when a limit is hit', () => {
    const oldIr = approver({ mode: 'pattern', default: 'allow', allow: [], deny: [{ tool: 'bash', match: '(a|b)*a(a|b){14}' }] });
    const newIr = approver({ mode: 'pattern', default: 'allow', allow: [], deny: [{ tool: 'bash', match: '(b|a)*a(b|a){14}' }] });
    const d = diffPolicies(oldIr, newIr, { maxStates: 200 });
    expect(d.verdict).toBe('unknown');
  });
});
