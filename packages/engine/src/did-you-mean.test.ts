import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { didYouMean, editDistance, isNearMiss, nearMissLimit } from './did-you-mean.ts';

describe('did you mean', () => {
  it('finds typos, case and separator slips, and Go constant names', () => {
    expect(didYouMean('mdoe', ['mode', 'default', 'reason'])).toBe('mode');
    expect(didYouMean('polcy', ['driver', 'policy', 'approver'])).toBe('policy');
    expect(didYouMean('ReadOnly', ['read_only', 'workspace_write', 'unrestricted'])).toBe('read_only');
    expect(didYouMean('Retry', ['abort', 'continue', 'retry'])).toBe('retry');
    expect(didYouMean('auto_deny', ['ask', 'auto_approve', 'auto_reject'])).toBe('auto_reject');
    expect(didYouMean('ApprovalAutoApprove', ['ask', 'auto_approve', 'auto_reject'])).toBe('auto_approve');
    expect(didYouMean('claud', ['codex', 'claude', 'cursor', 'codebuddy'])).toBe('claude');
    expect(didYouMean('allowall', ['allow_all', 'deny_all', 'pattern'])).toBe('allow_all');
  });
  it('stays quiet when nothing is close', () => {
    expect(didYouMean('interactive', ['allow_all', 'deny_all', 'pattern'])).toBeUndefined();
    expect(didYouMean('zzz', ['mode'])).toBeUndefined();
  });
  it('edit distance is a metric on small strings', () => {
    const s = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 6 });
    fc.assert(
      fc.property(s, s, (a, b) => {
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, b) === 0).toBe(a === b);
        expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
    expect(editDistance('ab', 'ba')).toBe(1);
  });
  it('has one threshold: a suggestion is exactly a near miss, at most a third of the word away', () => {
    expect(nearMissLimit('ask')).toBe(1);
    expect(nearMissLimit('rules/unreachable')).toBe(5);
    expect(isNearMiss('Alow', 'allow')).toBe(true);
    expect(isNearMiss('alw', 'allow')).toBe(false);
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 7 });
    fc.assert(
      fc.property(word, word, (w, c) => {
        fc.pre(w.toLowerCase() !== c.toLowerCase());
        expect(didYouMean(w, [c]) === c).toBe(isNearMiss(w, c));
      }),
    );
  });
});
