import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileRegex, firstLoneSurrogate, GO_MAX_PROGRAM_SIZE, groupNames, MAX_PATTERN_CHARS, MAX_PROGRAM_SIZE, renameDuplicateGroups, shortRegexError, TOO_LARGE_HELP, unicodeClassRanges, wellFormed } from './regex.ts';
import type { CompiledRegex } from './regex.ts';

/** Any UTF-16 code unit (lone surrogates included), plus some astral and JSON-ish characters. */
const utf16Unit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('😀', '\u{10400}', 'a', 'b', '1', '{', '}', '"', ':', ','),
);

function mustCompile(pattern: string): CompiledRegex {
  const r = compileRegex(pattern);
  if (!r.ok) throw new Error(`expected ${pattern} to compile, got ${r.error}`);
  return r.regex;
}

function errorOf(pattern: string): string {
  const r = compileRegex(pattern);
  if (r.ok) throw new Error(`expected ${pattern} to be rejected`);
  return r.error;
}

describe('compileRegex: what Go rejects, with Go error text', () => {
  const rejected: [string, string, string][] = [
    ['missing paren', '(', 'error parsing regexp: missing closing ): `(`'],
    ['lookahead', '(?=a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['negative lookahead', '(?!a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?!`'],
    ['lookbehind', '(?<=a)', 'error parsing regexp: invalid named capture: `(?<=a)`'],
    ['negative lookbehind', '(?<!a)', 'error parsing regexp: invalid named capture: `(?<!a)`'],
    ['lookbehind with a later >', '(?<=a)>', 'error parsing regexp: invalid named capture: `(?<=a)>`'],
    ['backreference', '(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['bare backreference', '\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['possessive plus', 'a++', 'error parsing regexp: invalid nested repetition operator: `++`'],
    ['possessive star', 'a*+', 'error parsing regexp: invalid nested repetition operator: `*+`'],
    ['\\Z', 'a\\Z', 'error parsing regexp: invalid escape sequence: `\\Z`'],
    ['repeat count over 1000', 'a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
    ['open repeat over 1000', 'a{1001,}', 'error parsing regexp: invalid repeat count: `{1001,}`'],
    ['nested repeats over 1000', '(a{100}){100}', 'error parsing regexp: invalid repeat count: `{100}`'],
    ['\\u escape', '\\u263a', 'error parsing regexp: invalid escape sequence: `\\u`'],
    ['\\c escape', '\\cA', 'error parsing regexp: invalid escape sequence: `\\c`'],
    ['\\C', 'a\\C', 'error parsing regexp: invalid escape sequence: `\\C`'],
    ['unexpected paren', 'a)', 'error parsing regexp: unexpected ): `a)`'],
    ['missing bracket', '[a', 'error parsing regexp: missing closing ]: `[a`'],
    ['missing repeat argument', '*a', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['bad range', '[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
    ['unknown class', '\\p{Foo}', 'error parsing regexp: invalid character class range: `\\p{Foo}`'],
    ['python backreference', '(?P=n)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?P`'],
    ['trailing backslash (Go prints an empty expression)', 'ab\\', 'error parsing regexp: trailing backslash at end of expression: ``'],
    ['lone surrogate in the pattern', 'a\ud800b', 'error parsing regexp: invalid UTF-8: `\ud800b`'],
  ];
  it.each(rejected)('%s: %s', (_name, pattern, error) => {
    expect(errorOf(pattern)).toBe(error);
  });

  it('reports nesting depth with the whole pattern, as Go does', () => {
    const p = '('.repeat(1001) + 'a' + ')'.repeat(1001);
    expect(errorOf(p)).toBe(`error parsing regexp: expression nests too deeply: \`${p}\``);
  });

  it('accepts exactly 1000 repeats', () => {
    expect(mustCompile('^a{1000}$').test('a'.repeat(1000))).toBe(true);
  });
});

describe('compileRegex: what Go accepts, and how it matches', () => {
  const cases: [string, string, string, boolean][] = [
    ['(?i)', '(?i)bash', 'BaSh', true],
    ['without (?i) case matters', 'bash', 'BASH', false],
    ['(?i) folds the Kelvin sign', '(?i)k', '\u212a', true],
    ['(?i) folds long s', '(?i)s', '\u017f', true],
    ['(?s) lets . match newline', '(?s)a.b', 'a\nb', true],
    ['. does not match newline', 'a.b', 'a\nb', false],
    ['(?m) line anchors', '(?m)^b$', 'a\nb\nc', true],
    ['$ is end of text without (?m)', 'a$', 'a\nb', false],
    ['$ does not match before a final newline', 'a$', 'a\n', false],
    ['^ is start of text without (?m)', '^b', 'a\nb', false],
    ['(?P<n>x)', '(?P<n>x)y', 'xy', true],
    ['(?<name>x) (Go 1.22+)', '(?<name>x)y', 'xy', true],
    ['\\Q..\\E is literal', '\\Qa.b\\E', 'a.b', true],
    ['\\Q..\\E does not treat . as any', '\\Qa.b\\E', 'axb', false],
    ['[[:alpha:]]', '^[[:alpha:]]+$', 'abcXYZ', true],
    ['[[:alpha:]] is ASCII', '[[:alpha:]]', 'é', false],
    ['\\pL', '^\\pL$', 'é', true],
    ['\\pL is not a digit', '\\pL', '123', false],
    ['\\z', 'c\\z', 'abc', true],
    ['\\z is end of text only', 'a\\z', 'a\n', false],
    ['\\x{263a}', '\\x{263a}', 'x\u263a', true],
    ['\\s matches tab, newline, form feed, return, space', '^\\s{5}$', '\t\n\f\r ', true],
    ['\\s does not match vertical tab', '\\s', '\v', false],
    ['\\s does not match no-break space', '\\s', '\u00a0', false],
    ['\\b is ASCII: é is not a word character', 'a\\b', 'aé', true],
    ['\\w is ASCII', '\\w', 'é', false],
    ['. matches an astral character as one', '^.$', '😀', true],
    ['empty pattern matches empty input', '', '', true],
    ['^$ matches empty input', '^$', '', true],
    ['.* matches empty input', '^.*$', '', true],
  ];
  it.each(cases)('%s', (_name, pattern, subject, expected) => {
    expect(mustCompile(pattern).test(subject)).toBe(expected);
  });

  it('(?U) makes repetition lazy', () => {
    expect(mustCompile('(?U)a+').find('aaa')).toEqual({ start: 0, end: 1 });
    expect(mustCompile('a+').find('aaa')).toEqual({ start: 0, end: 3 });
  });

  it('leftmost-first alternation, as Go', () => {
    expect(mustCompile('a|ab').find('ab')).toEqual({ start: 0, end: 1 });
  });
});

describe('CompiledRegex.find: UTF-16 offsets', () => {
  it('counts an emoji as two code units', () => {
    const s = '😀b';
    const m = mustCompile('b').find(s);
    expect(m).toEqual({ start: 2, end: 3 });
    expect(s.slice(m!.start, m!.end)).toBe('b');
  });
  it('spans a whole emoji', () => {
    const s = 'x😀😀y';
    const m = mustCompile('😀+').find(s);
    expect(m).toEqual({ start: 1, end: 5 });
  });
  it('returns null without a match', () => {
    expect(mustCompile('zz').find('abc')).toBeNull();
  });
  it('agrees with test on arbitrary strings', () => {
    const re = mustCompile('[a-c]+\\d');
    fc.assert(
      fc.property(fc.string({ unit: utf16Unit }), (s) => {
        const m = re.find(s);
        expect(m !== null).toBe(re.test(s));
        if (m) expect(re.test(s.slice(m.start, m.end))).toBe(true);
      }),
    );
  });
});

describe('lone surrogates in subjects (read as U+FFFD, as their UTF-8 encoding)', () => {
  it('never throws and keeps offsets', () => {
    const re = mustCompile('x');
    expect(re.test('\ud800x')).toBe(true);
    expect(re.find('\ud800x')).toEqual({ start: 1, end: 2 });
    expect(re.find('\udc00\ud800x')).toEqual({ start: 2, end: 3 });
  });
  it('matches a lone surrogate as U+FFFD', () => {
    expect(mustCompile('^\\x{fffd}x$').test('\ud800x')).toBe(true);
    expect(mustCompile('^.x$').test('\udfffx')).toBe(true);
    expect(mustCompile('\\x{d800}').test('\ud800')).toBe(false);
  });
  it('never throws on arbitrary UTF-16', () => {
    const re = mustCompile('(?i)a.c|\\pL+');
    fc.assert(
      fc.property(fc.string({ unit: utf16Unit }), (s) => {
        re.test(s);
        re.find(s);
        re.testWhole(s);
      }),
    );
  });
  it('wellFormed and firstLoneSurrogate', () => {
    expect(wellFormed('a\ud800b\udc00')).toBe('a\ufffdb\ufffd');
    expect(wellFormed('😀')).toBe('😀');
    expect(firstLoneSurrogate('😀a\udc00')).toBe(3);
    expect(firstLoneSurrogate('😀')).toBe(-1);
    expect(firstLoneSurrogate('\ud83d')).toBe(0);
  });
});

describe('testWhole', () => {
  it('anchors both ends around the whole alternation', () => {
    const re = mustCompile('ls|pwd');
    expect(re.testWhole('ls')).toBe(true);
    expect(re.testWhole('pwd')).toBe(true);
    expect(re.testWhole('ls; curl x')).toBe(false);
  });
  it('a (?m) inside the pattern does not loosen the outer anchors', () => {
    expect(mustCompile('(?m)ls.*').testWhole('ls\nrm -rf /')).toBe(false);
    expect(mustCompile('ls.*').testWhole('ls\nrm -rf /')).toBe(false);
  });
});

describe('performance', () => {
  it('searches 10 MB without hanging', () => {
    const big = 'a'.repeat(10 * 1024 * 1024);
    // How long it takes is measured in bench/ (front-end scaling), as a ratio to a quarter of the input.
    expect(mustCompile('rm -rf').test(big)).toBe(false);
    expect(mustCompile('(a+)+$').test(big)).toBe(true);
  });
});

describe('capture group names: Go accepts a name used twice', () => {
  it('compiles a repeated name and matches as Go does', () => {
    const re = mustCompile('(?P<c>ls)|(?P<c>pwd)');
    expect(re.test('pwd')).toBe(true);
    expect(re.test('ls')).toBe(true);
    expect(re.test('cat')).toBe(false);
    expect(re.source).toBe('(?P<c>ls)|(?P<c>pwd)');
    expect(mustCompile('(?<c>a)(?P<c>b)(?<c>c)').test('xabc')).toBe(true);
  });

  // Expected texts from Go 1.19.8's regexp.Compile: the error after the repeated name quotes the pattern as written.
  const later: [string, string][] = [
    ['(?P<c>a)(?P<c>b)(', 'error parsing regexp: missing closing ): `(?P<c>a)(?P<c>b)(`'],
    ['(?P<c>a)(?P<c>b))', 'error parsing regexp: unexpected ): `(?P<c>a)(?P<c>b))`'],
    ['(?P<c>a)(?P<c>b)x**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['(?P<c>a)(?P<c>b)[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
    ['(?P<c>a)(?P<c>b)(?P<>x)', 'error parsing regexp: invalid named capture: `(?P<>`'],
    ['(?P<c>a)(?P<c>b)(?P<c!>x)', 'error parsing regexp: invalid named capture: `(?P<c!>`'],
    ['(?P<c>a)(?P<c>b)\\8', 'error parsing regexp: invalid escape sequence: `\\8`'],
  ];
  it.each(later)('reports a later error in %s with Go text', (pattern, error) => {
    expect(errorOf(pattern)).toBe(error);
  });

  it('reads names as Go does: not inside \\Q…\\E, a class or an escape', () => {
    expect(groupNames('\\Q(?P<c>\\E(?P<c>x)[(?P<c>][[:alpha:](?P<c>]\\\\(?P<d>y)\\(?P<e>').map((g) => g.name)).toEqual(['c', 'd']);
    expect(groupNames('[]](?P<a>x)[^]](?P<b>y)').map((g) => g.name)).toEqual(['a', 'b']);
    expect(mustCompile('\\Q(?P<c>\\E(?P<c>x)').test('(?P<c>x')).toBe(true);
  });

  it('renames repeats to unused names of the same length, longer once those run out', () => {
    expect(renameDuplicateGroups('(?P<c>a)(?P<c>b)(?<A>c)')).toBe('(?P<c>a)(?P<B>b)(?<A>c)');
    const many = Array.from({ length: 70 }, () => '(?P<a>x)').join('');
    const renamed = renameDuplicateGroups(many);
    expect(renamed.length).toBeGreaterThan(many.length);
    expect(new Set(groupNames(renamed).map((g) => g.name)).size).toBe(70);
    expect(mustCompile(many).test('x'.repeat(70))).toBe(true);
  });
});

describe('program size: Verdict keeps re2js bound, below Go', () => {
  it('refuses a program Go compiles (1,500,001 instructions), and says where the bounds are', () => {
    // Go 1.19.8 compiles this pattern (its bound is 3,355,443 instructions); re2js's is 1,398,101.
    const pattern = `(?:${'a'.repeat(1500)}){1000}`;
    expect(errorOf(pattern)).toBe(`error parsing regexp: expression too large: \`${pattern}\``);
    expect(TOO_LARGE_HELP).toContain('1,398,101');
    expect(TOO_LARGE_HELP).toContain('3,355,443');
    expect([MAX_PROGRAM_SIZE, GO_MAX_PROGRAM_SIZE]).toEqual([1_398_101, 3_355_443]);
  });
});

/**
 * Where Go releases differ, Verdict follows Go 1.22 and later for syntax and error texts, and re2js's
 * Unicode 17.0.0 tables for properties (packages/engine/README.md, "Which Go release"). Each row
 * pins the choice: an older or newer Go would answer the other way.
 */
describe('the Go release Verdict follows', () => {
  it('accepts (?<name>…) as Go 1.22+ does (Go 1.21 and older: `invalid or unsupported Perl syntax: `(?<``)', () => {
    expect(mustCompile('(?<name>ls)').test('ls')).toBe(true);
    expect(errorOf('(?<=x)')).toBe('error parsing regexp: invalid named capture: `(?<=x)`');
  });

  it('says `expression too large` as Go 1.20+ does (Go 1.19: `regexp/syntax: internal error`)', () => {
    const p = `(?:${'a'.repeat(3400)}){1000}`;
    expect(errorOf(p)).toBe(`error parsing regexp: expression too large: \`${p}\``);
  });

  it('knows the scripts of Unicode 15.0 (Go 1.21+) and of 16.0 and 17.0 (no Go release yet)', () => {
    expect(mustCompile('\\p{Kawi}').test('\u{11f04}')).toBe(true); // 15.0
    expect(mustCompile('\\p{Garay}').test('\u{10d50}')).toBe(true); // 16.0
    expect(mustCompile('\\p{Sidetic}').test('\u{10940}')).toBe(true); // 17.0
    expect(mustCompile('\\pL').test('\u{10940}')).toBe(true);
  });

  it('folds the case pairs of Unicode 16.0 (Go 1.21–1.25, on Unicode 15.0.0, do not)', () => {
    expect(mustCompile('(?i)^\u1c89$').testWhole('\u1c8a')).toBe(true);
  });
});

describe('compileRegex: patterns over the length limit are refused before parsing', () => {
  it('compiles a pattern of exactly MAX_PATTERN_CHARS characters and refuses one more', () => {
    expect(compileRegex('a'.repeat(MAX_PATTERN_CHARS)).ok).toBe(true);
    expect(compileRegex('a'.repeat(MAX_PATTERN_CHARS + 1))).toEqual({
      ok: false,
      error: `error parsing regexp: pattern too long: ${MAX_PATTERN_CHARS + 1} characters, over Verdict's limit of ${MAX_PATTERN_CHARS}`,
    });
  });
  it('counts characters, not UTF-16 units (an astral character is one)', () => {
    expect(compileRegex('😀'.repeat(MAX_PATTERN_CHARS)).ok).toBe(true);
  });
  it('refuses a million `(?:)` at once, which would exhaust a 1 GiB heap in re2js', () => {
    const r = compileRegex('(?:)'.repeat(1_000_000));
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.error).toBe("error parsing regexp: pattern too long: 4000000 characters, over Verdict's limit of 65536");
  });
  it('shortRegexError shortens the quoted expression of a Go error and keeps short ones exact', () => {
    const short = compileRegex('a(');
    expect(short.ok ? '' : shortRegexError(short.error)).toBe('error parsing regexp: missing closing ): `a(`');
    const long = compileRegex('a'.repeat(1000) + '(');
    expect(long.ok ? '' : shortRegexError(long.error)).toBe(`error parsing regexp: missing closing ): \`${'a'.repeat(48)}…${'a'.repeat(31)}( (1001 characters)\``);
  });
});

describe('unicodeClassRanges: the Unicode classes re2js (Go) matches with', () => {
  const holds = (name: string, ch: string): boolean => {
    const r = unicodeClassRanges(name) ?? [];
    const cp = ch.codePointAt(0) as number;
    for (let i = 0; i < r.length; i += 2) if (cp >= (r[i] as number) && cp <= (r[i + 1] as number)) return true;
    return false;
  };
  it('gives each class the members the compiled pattern matches', () => {
    for (const [name, ch] of [['L', 'é'], ['Lu', 'É'], ['Greek', 'λ'], ['Nd', '٣'], ['Zs', '\u3000'], ['C', '\u00ad'], ['Any', '\u{10ffff}']] as const) {
      const re = compileRegex(`^\\p{${name}}$`);
      if (!re.ok) throw new Error(re.error);
      expect(re.regex.test(ch), name).toBe(true);
      expect(holds(name, ch), name).toBe(true);
      expect(holds(name, '\x01'), name).toBe(name === 'C' || name === 'Any');
    }
  });
  it('is null for a name Go does not know', () => {
    expect(unicodeClassRanges('NotAScript')).toBeNull();
    expect(unicodeClassRanges('{')).toBeNull();
  });
});
