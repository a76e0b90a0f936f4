import { compileRegex } from '@verdict/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeBudget, NfaBuilder, SearchDfa } from './automaton.ts';
import { escapeCodePoint, LanguageCache } from './model.ts';
import { parseRegex, UnsupportedPattern } from './syntax.ts';

/** Whether the analysis' DFA for `pattern` accepts `text` (Go: the regex is found in `text`). */
function dfaMatches(pattern: string, text: string): boolean {
  const b = new NfaBuilder();
  const start = b.regex(parseRegex(pattern), b.match());
  const dfa = new SearchDfa(b.build(start), makeBudget({ timeMs: 60_000, maxStates: 100_000 }));
  let s = dfa.start;
  for (const ch of text) s = dfa.step(s, ch.codePointAt(0) as number);
  return dfa.isAccepting(s);
}

function engineMatches(pattern: string, text: string): boolean {
  const r = compileRegex(pattern);
  if (!r.ok) throw new Error(r.error);
  return r.regex.test(text);
}

describe('regex languages agree with the engine', () => {
  const table: [string, string, boolean][] = [
    ['^\\s*"command":', '{"command":"ls"}', false],
    ['^\\s*"command":', '  "command":', true],
    ['\\bls\\b', '{"command":"ls"}', true],
    ['\\bls\\b', '{"command":"lsof"}', false],
    ['\\Bs\\B', 'ls', false],
    ['(?i)k', '\u212a', true],
    ['(?i)\\W', '\u212a', false],
    ['(?i)[^k]', 'K', false],
    ['(?i)\\x{17f}', 'S', true],
    ['ı', 'I', false],
    ['(?i)ı', 'i', false],
    ['a$', 'a\n', false],
    ['(?m)a$', 'a\nb', true],
    ['(?m)^b', 'a\nb', true],
    ['^b', 'a\nb', false],
    ['.', '\n', false],
    ['(?s).', '\n', true],
    ['[^a]', '\n', true],
    ['\\pL', 'é', true],
    ['\\p{Greek}', 'λ', true],
    ['\\PL', 'é', false],
    ['[[:^alpha:]]', 'a', false],
    ['\\Q.*\\E', 'a', false],
    ['\\Q.*\\E', '.*', true],
    // A repetition after `\Q…\E` takes its last character only, as in Go.
    ['^\\Qab\\E*$', 'a', true],
    ['^\\Qab\\E*$', 'abab', false],
    ['^\\Qab\\E{2}$', 'abb', true],
    // …and one after a flag group or an empty `\Q\E` the item before it.
    ['^a(?i)*$', 'aa', true],
    ['^a(?i)*$', 'aA', false],
    ['^a\\Q\\E+$', 'aaa', true],
    ['^ab(?s){2}$', 'abb', true],
    ['a{01}', 'a{01}', true],
    ['a{2,3}$', 'aa', true],
    ['^a{2,3}$', 'aaaa', false],
    ['\\101\\x42\\x{43}', 'ABC', true],
    ['[\\d-z]', '-', true],
    ['(?i:A)b', 'aB', false],
    ['(?i)a|b', 'B', true],
    ['(?U)a+?', 'a', true],
    ['(?P<n>x)(?<m>y)', 'xy', true],
    ['\\z', '', true],
    ['^$', '', true],
    ['x*', '', true],
    ['[^\\x00-\\x{10FFFF}]', 'a', false],
  ];
  it.each(table)('%s on %j', (pattern, text, want) => {
    expect(engineMatches(pattern, text)).toBe(want);
    expect(dfaMatches(pattern, text)).toBe(want);
  });

  const atoms = [
    'a', 'b', 'k', 's', '\\n', '.', '(?s:.)', '[ab]', '[^a]', '[a-c]', '\\w', '\\W', '\\d', '\\s', '\\S', '\\b', '\\B',
    '^', '$', '(?m:^)', '(?m:$)', '\\A', '\\z', '(?i:k)', '(?i:[^s])', '(?i:\\W)', '\\pL', '\\p{Greek}', '[[:punct:]]',
    '\\x{212a}', '"', '\\{', ' ', 'é',
  ];
  const pattern: fc.Arbitrary<string> = fc.letrec<{ re: string }>((tie) => ({
    re: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...atoms),
      fc.tuple(tie('re'), tie('re')).map(([x, y]) => x + y),
      fc.tuple(tie('re'), tie('re')).map(([x, y]) => `(?:${x}|${y})`),
      fc.tuple(tie('re'), fc.constantFrom('*', '+', '?', '{2}', '{0,2}', '{1,}', '*?')).map(([x, q]) => `(?:${x})${q}`),
      tie('re').map((x) => `(?i:${x})`),
      tie('re').map((x) => `(?m:${x})`),
    ),
  })).re;
  const text = fc
    .array(fc.constantFrom('a', 'b', 'k', 'K', '\u212a', 's', 'S', '\u017f', '\n', ' ', '"', '{', '}', '.', 'é', 'λ', '1', '_'), { maxLength: 8 })
    .map((cs) => cs.join(''));

  it('on generated patterns and texts', () => {
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), (p, texts) => {
        if (!compileRegex(p).ok) return;
        for (const t of texts) expect(dfaMatches(p, t), `${p} on ${JSON.stringify(t)}`).toBe(engineMatches(p, t));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what it cannot model instead of guessing', () => {
    expect(() => parseRegex('\\p{NotAScript}')).toThrow(UnsupportedPattern);
  });
});

describe('field rules under canonical input see values as canonical JSON writes them', () => {
  const accepts = (dfa: SearchDfa, text: string): boolean => {
    let s = dfa.start;
    for (const ch of text) s = dfa.step(s, ch.codePointAt(0) as number);
    return dfa.isAccepting(s);
  };
  const escape = (v: string): string => Array.from(v, (c) => escapeCodePoint(c.codePointAt(0) as number)).join('');
  const value = fc
    .array(fc.constantFrom('a', 'n', 'u', '0', '"', '\\', '\n', '\t', '\u0001', '\u0008', '\u000b', '\u001f', '\u2028', '\u2029', '\u007f', 'é'), { maxLength: 5 })
    .map((cs) => cs.join(''));
  const patterns = ['.*', '(?s).*', '[\\x00-\\x1f]+', 'a"b|\\\\', '(?s:.)\\x{2028}?', '[^a]*', '\\n\\t|u00', '[\\x{2028}\\x{2029}"]*'];

  it('the bounds hold exactly the escaped values the pattern matches whole', () => {
    const cache = new LanguageCache();
    fc.assert(
      fc.property(fc.constantFrom(...patterns), value, (p, v) => {
        const lang = cache.rule(p, 'command', 'canonical');
        const whole = compileRegex(`^(?:${p})$`);
        if (!whole.ok) throw new Error(whole.error);
        const want = whole.regex.test(v);
        const text = `{"command":"${escape(v)}"}`;
        expect(accepts(lang.upper as SearchDfa, text), `${p} upper on ${JSON.stringify(text)}`).toBe(want);
        expect(accepts(lang.lower as SearchDfa, text), `${p} lower on ${JSON.stringify(text)}`).toBe(want);
      }),
      { numRuns: 400 },
    );
  });
});
