// The folded-lead screen of `(?i)` patterns must pass every subject the pattern matches.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRegex } from '../regex/regex.ts';
import { foldedLeads, literalPaths } from './fast-screen.ts';

const ATOMS = ['k', 'K', '\u212a', 's', 'S', 'ſ', 'a', 'B', 'é', 'É', '"', ':', '.', '-', '1', '😀', ' '];
const escape = (s: string) => s.replace(/[\\.+*?()|[\]{}^$]/g, (c) => `\\${c}`);
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ATOMS).map(escape) },
  { weight: 1, arbitrary: fc.constantFrom('\\b', '\\B', '^', '(?m)^', '.', '\\w', 's?', '(?:ab|ks)', '(?:x|)', 'a*') },
);
const pattern = fc
  .tuple(fc.constantFrom('(?i)', '(?i)', ''), fc.array(piece, { minLength: 1, maxLength: 8 }))
  .map(([f, ps]) => f + ps.join(''))
  .filter((p) => compileRegex(p).ok);
const subject = fc.array(fc.constantFrom(...ATOMS, 'x', 'A', 'b'), { maxLength: 12 }).map((xs) => xs.join(''));

function engine(p: string) {
  const c = compileRegex(p);
  if (!c.ok) throw new Error(c.error);
  return c.regex;
}

describe('literal paths', () => {
  it('decide exactly as the pattern when they are the whole program', () => {
    const exactPattern = fc
      .tuple(fc.constantFrom('(?i)', ''), fc.array(fc.constantFrom('k', 'S', 'ſ', 'é', '"', '-', '\\b', '\\B', '^', '$', '(?:ab|k)', '(?:x|)', '\\.'), { minLength: 1, maxLength: 6 }))
      .map(([f, ps]) => f + ps.join(''))
      .filter((p) => compileRegex(p).ok);
    let exactSeen = 0;
    fc.assert(
      fc.property(exactPattern, fc.array(subject, { minLength: 1, maxLength: 6 }), (p, subjects) => {
        const re = engine(p);
        const paths = literalPaths(re.engine!);
        if (paths === null || !paths.exact) return;
        exactSeen++;
        for (const s of subjects) expect(paths.regex.test(s)).toBe(re.testWellFormed(s));
      }),
      { numRuns: 2000 },
    );
    expect(exactSeen).toBeGreaterThan(100);
  });
});

describe('folded leads', () => {
  it('never reject a subject the pattern matches', () => {
    fc.assert(
      fc.property(pattern, fc.array(subject, { minLength: 1, maxLength: 6 }), (p, subjects) => {
        const re = engine(p);
        const screen = foldedLeads(re.engine!);
        if (screen === null) return;
        for (const s of subjects) if (re.testWellFormed(s)) expect(screen.test(s)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('passes every fold variant of a (?i) literal', () => {
    const variants: Record<string, string[]> = { k: ['k', 'K', '\u212a'], s: ['s', 'S', 'ſ'], a: ['a', 'A'], '-': ['-'] };
    fc.assert(
      fc.property(fc.array(fc.constantFrom('k', 's', 'a', '-'), { minLength: 3, maxLength: 8 }), fc.array(fc.nat(2), { minLength: 8, maxLength: 8 }), subject, (word, picks, before) => {
        const screen = foldedLeads(engine(`(?i)${word.join('')}`).engine!)!;
        const text = before + word.map((c, i) => variants[c]![picks[i]! % variants[c]!.length]).join('');
        expect(screen.test(text)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('reads the literals a (?i) match begins with, folds included', () => {
    const screen = foldedLeads(engine('(?i)\\b(?:shutdown|reboot|halt)\\b').engine!)!;
    expect(['SHUTDOWN now', 'please Reboot', 'HALT', 'ſhutdown', 'halting', 'git status'].map((s) => screen.test(s))).toEqual([
      true,
      true,
      true,
      false, // \b is ASCII in RE2 and here: no boundary before ſ
      false,
      false,
    ]);
    expect(foldedLeads(engine('(?i)secrets?').engine!)!.test('ſECRET')).toBe(true);
    const k = foldedLeads(engine('(?i)kubectl')!.engine!)!;
    expect(k.test('\u212aUBECTL')).toBe(true);
    expect(foldedLeads(engine('(?i)a*b').engine!)).toBeNull();
  });
});
