import { describe, expect, it } from 'vitest';
import { ruleMatchesInput } from './oracle.ts';
import { RegexCache } from './regex-cache.ts';
import { findInputWitness } from './witness.ts';

describe('findInputWitness', () => {
  it('wraps a sample of the pattern in a common key first', () => {
    expect(findInputWitness(new RegexCache(), { match: 'rm -rf' }, 'deny', 'raw')?.text).toBe('{"command":"rm -rf"}');
    expect(findInputWitness(new RegexCache(), { match: 'ls|pwd', field: 'cmd' }, 'allow', 'raw')?.text).toBe('{"cmd":"ls"}');
  });

  it('falls back to the exact search when no sample matches', () => {
    const regexes = new RegexCache();
    // The first branch can never match, so its sample is no witness; the second branch has one.
    for (const [rule, mode] of [
      [{ match: '$x|rm -rf' }, 'raw'],
      [{ match: '$x|"cmd":"rm' }, 'canonical'],
      [{ match: '$x|rm', field: 'command' }, 'raw'],
    ] as const) {
      const w = findInputWitness(regexes, rule, 'deny', mode);
      expect(w, rule.match).toBeDefined();
      expect(ruleMatchesInput(regexes, rule, 'deny', mode, w?.text ?? '')).toBe(true);
      expect(JSON.parse(w?.text ?? '')).toEqual(w?.value);
    }
  });

  it('finds none for a rule no JSON object matches', () => {
    expect(findInputWitness(new RegexCache(), { match: '^x' }, 'deny', 'raw')).toBeUndefined();
    expect(findInputWitness(new RegexCache(), { match: '^\\s' }, 'deny', 'canonical')).toBeUndefined();
  });
});
