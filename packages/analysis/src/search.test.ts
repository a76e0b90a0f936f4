import { describe, expect, it } from 'vitest';
import { codePointsToString } from './charset.ts';
import { andOf, FALSE, orOf, TRUE } from './search.ts';

describe('lists as long as a policy are never spread into arguments', () => {
  it('and/or over 300,000 formulas, and a string of 300,000 code points, do not overflow the stack', () => {
    const many = Array.from({ length: 300_000 }, () => ({ op: 'or' as const, xs: [TRUE, FALSE] }));
    expect(() => andOf(many)).not.toThrow();
    expect(() => orOf(many)).not.toThrow();
    expect(codePointsToString(Array.from({ length: 300_000 }, () => 0x1f600))).toBe('😀'.repeat(300_000));
  });
});
