import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../src/index.ts';

function glob(source: string, gitignore = false) {
  const c = compileGlob(source, { gitignore });
  if (!c.ok) throw new Error(c.error);
  return c.glob;
}

describe('globs in .gitignore style (configuration include/ignore, --ignore-pattern)', () => {
  const cases: [string, string, boolean][] = [
    ['policies/**', 'policies/a/b.yaml', true],
    ['policies/**', 'other/a.yaml', false],
    ['**/generated/**', 'x/generated/y.yaml', true],
    ['**/generated/**', 'generated/y.yaml', true],
    ['*.json', 'deep/a.json', true],
    ['*.json', 'a.yaml', false],
    ['policies/*.yaml', 'policies/a/b.yaml', false],
    ['policies/*.{yaml,yml}', 'policies/a.yml', true],
    ['p?.yaml', 'p1.yaml', true],
    ['fixtures/', 'fixtures/x/y.json', true],
    ['fixtures/', 'fixtures', false],
    ['generated', 'a/b/generated/c.yaml', true],
    ['/generated', 'a/generated/c.yaml', false],
    ['/generated', 'generated/c.yaml', true],
    ['[!x]y.yaml', 'ay.yaml', true],
    ['[!x]y.yaml', 'xy.yaml', false],
    ['[[:digit:]].yaml', '7.yaml', true],
    ['.hidden.yaml', 'a/.hidden.yaml', true],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
  ];
  for (const [g, path, expected] of cases) {
    it(`${g} ${expected ? 'takes in' : 'leaves out'} ${path}`, () => {
      expect(glob(g, true).matchesWithin(path)).toBe(expected);
    });
  }

  it('a trailing slash names folders only', () => {
    expect(glob('gen/', true).matches('gen', true)).toBe(true);
    expect(glob('gen/', true).matches('gen', false)).toBe(false);
    expect(glob('gen', true).matches('gen', false)).toBe(true);
  });
});

describe('globs as arguments (whole paths from their folder)', () => {
  it('`*` stays in one segment, `**` crosses folders', () => {
    expect(glob('*.yaml').matches('a.yaml', false)).toBe(true);
    expect(glob('*.yaml').matches('d/a.yaml', false)).toBe(false);
    expect(glob('**/*.yaml').matches('a.yaml', false)).toBe(true);
    expect(glob('**/*.yaml').matches('d/e/a.yaml', false)).toBe(true);
    expect(glob('**/*.yaml').matches('d/e/a.json', false)).toBe(false);
  });
});

describe('invalid globs are errors a person can read', () => {
  const cases: [string, string][] = [
    ['[abc', 'missing closing `]` (a literal one is written `\\]`)'],
    ['{a,b', 'missing closing `}` (a literal one is written `\\}`)'],
    ['a)', 'missing opening `(` (a literal one is written `\\(`)'],
    ['', 'the glob names no path'],
  ];
  for (const [g, error] of cases) {
    it(JSON.stringify(g), () => expect(compileGlob(g)).toEqual({ ok: false, error }));
  }
  it('a lookaround, which RE2 cannot run, is refused', () => {
    const c = compileGlob('a(?=b)');
    expect(c.ok).toBe(false);
  });
});

/**
 * picomatch turns a glob into a backtracking JavaScript RegExp: `**\/a/` repeated 10 times took 37 s
 * on a path of 40 `a/` segments, and each repeat multiplies it. Here the glob runs on RE2, whose
 * time is linear in the path: 30 repeats on a path of 20,000 segments (which would take longer than
 * the age of the universe by backtracking) finish within the test's timeout.
 */
describe('matching takes time linear in the path, whatever the glob', () => {
  const deep = 'a/'.repeat(20_000);
  for (const n of [11, 20, 30]) {
    it(`\`**/a/\` ×${n} against ${deep.length} characters`, { timeout: 20_000 }, () => {
      const g = glob(`${'**/a/'.repeat(n)}x`, true);
      expect(g.matchesWithin(`${deep}y`)).toBe(false);
      expect(g.matchesWithin(`${deep}x`)).toBe(true);
      expect(glob(`${'**/'.repeat(n)}x`, true).matchesWithin(`${deep}y`)).toBe(false);
      expect(glob(`${'*a'.repeat(n)}b`).matches(`${'a'.repeat(40_000)}`, false)).toBe(false);
    });
  }
});
