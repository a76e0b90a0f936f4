import { describe, expect, it } from 'vitest';
import { canBeginWith, patternBranches, sample } from './pattern-text.ts';

const atomsOf = (p: string) => (patternBranches(p) ?? []).map((b) => b.atoms);

describe('patternBranches', () => {
  it('splits at top-level `|` only, keeping each branch as written with its offset', () => {
    expect(patternBranches('(?i)"path":"(a|b)|[|]x|\\Q|\\E|')?.map((b) => [b.text, b.start])).toEqual([
      ['(?i)"path":"(a|b)', 0],
      ['[|]x', 18],
      ['\\Q|\\E', 23],
      ['', 29],
    ]);
  });

  it('gives each item its kind and repetition; flag groups are no items; line anchors say so', () => {
    const [items] = atomsOf('^(?i)a*(?:bc)?\\b(?m)$');
    expect(items?.map((a) => [a.kind, a.min, a.max, a.line ?? null])).toEqual([
      ['anchor-start', 1, 1, false],
      ['chars', 0, Infinity, null],
      ['group', 0, 1, null],
      ['assert', 1, 1, null],
      ['anchor-end', 1, 1, true],
    ]);
  });

  it('is null for a pattern the parser cannot model', () => {
    expect(patternBranches('\\p{NotAScript}')).toBeNull();
  });
});

describe('canBeginWith', () => {
  it('reads classes exactly (Unicode, POSIX and folded ones included); groups may begin with anything', () => {
    const begins = (p: string, skipWs = false) => canBeginWith((atomsOf(p)[0] ?? []).slice(), ['{'], skipWs);
    expect(begins('\\pL')).toBe(false);
    expect(begins('[[:punct:]]')).toBe(true);
    expect(begins('(?i)[^{]')).toBe(false);
    expect(begins('\\s*x')).toBe(false);
    expect(begins('[[:space:]]+\\{', true)).toBe(true);
    expect(begins('(?:x)')).toBe(true);
  });
});

describe('sample', () => {
  it('takes the first branch, minimal repeats, literals as written and a readable member of each class', () => {
    expect(sample('(?i)RM\\s+-rf|x')).toBe('RM -rf');
    expect(sample('a{2}b*[xyz]\\d', true)).toBe('aabx0');
    expect(sample('\\101\\x{42}[^a]\\pN.')).toBe('ABx0a');
    expect(sample('^(?:ab|c)+$')).toBe('ab');
    expect(sample('[[:upper:]]')).toBe('Z');
  });
});
