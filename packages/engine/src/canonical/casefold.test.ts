import { describe, expect, it } from 'vitest';
import { progOf, RUNE, RUNE1 } from '../regex/re2-program.ts';
import fc from 'fast-check';
import { caseFold, equalFold, foldCodePoint } from './casefold.ts';
import { compileRegex, LAST_FOLDING_CODE_POINT } from '../regex/regex.ts';
import { RE2JS } from 're2js';
import { compileApprover } from '../approver/config.ts';

describe('caseFold: Unicode simple case folding orbits', () => {
  const equal: [string, string[]][] = [
    ['ASCII tool names', ['Bash', 'bash', 'BASH']],
    ['Kelvin sign with k', ['k', 'K', '\u212a']],
    ['long s with s', ['s', 'S', '\u017f']],
    ['sharp s with capital sharp s', ['\u00df', '\u1e9e']],
    ['sigma forms', ['\u03a3', '\u03c3', '\u03c2']],
    ['micro sign with mu', ['\u00b5', '\u039c', '\u03bc']],
    ['Angstrom sign', ['\u212b', '\u00c5', '\u00e5']],
    ['ohm sign', ['\u2126', '\u03a9', '\u03c9']],
    ['titlecase dz', ['\u01c4', '\u01c5', '\u01c6']],
    ['theta symbol', ['\u03b8', '\u0398', '\u03d1', '\u03f4']],
    ['Cherokee', ['\u13a0', '\uab70']],
    ['Deseret (astral)', ['\u{10400}', '\u{10428}']],
    ['Adlam (astral)', ['\u{1e900}', '\u{1e922}']],
    ['key spelled in several ways', ['command', 'Command', 'COMMAND']],
  ];
  it.each(equal)('%s fold together', (_name, forms) => {
    const folded = forms.map(caseFold);
    for (const f of folded) expect(f).toBe(folded[0]);
  });

  const apart: [string, string, string][] = [
    ['dotted capital I stays alone', '\u0130', 'i'],
    ['dotted capital I is not I', '\u0130', 'I'],
    ['dotless i stays alone', '\u0131', 'i'],
    ['dotless i is not I', '\u0131', 'I'],
    ['sharp s is not ss (full folding only)', '\u00df', 'ss'],
    ['different letters', 'a', 'b'],
    ['k is not s', 'k', 's'],
  ];
  it.each(apart)('%s', (_name, a, b) => {
    expect(caseFold(a)).not.toBe(caseFold(b));
    expect(equalFold(a, b)).toBe(false);
  });

  it('maps each code point to the smallest member of its orbit', () => {
    expect(foldCodePoint(0x212a)).toBe(0x4b);
    expect(foldCodePoint(0x6b)).toBe(0x4b);
    expect(foldCodePoint(0x17f)).toBe(0x53);
    expect(foldCodePoint(0x3c2)).toBe(0x3a3);
    expect(foldCodePoint(0x131)).toBe(0x131);
    expect(foldCodePoint(0x130)).toBe(0x130);
  });

  it('keeps length for ASCII and leaves non-letters alone', () => {
    expect(caseFold('read_file-2')).toBe('READ_FILE-2');
    expect(caseFold('')).toBe('');
    expect(caseFold('😀')).toBe('😀');
  });

  it('reads a lone surrogate as U+FFFD', () => {
    expect(caseFold('a\ud800')).toBe('A\ufffd');
  });

  it('is idempotent and agrees with toUpperCase/toLowerCase round trips on ASCII', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(caseFold(caseFold(s))).toBe(caseFold(s));
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), (s) => {
        expect(caseFold(s.toLowerCase())).toBe(caseFold(s.toUpperCase()));
      }),
    );
  });
});

describe('caseFold agrees with the Go fold tables inside re2js', () => {
  // re2js carries a port of Go's unicode.SimpleFold tables (used by `(?i)`); the orbits built here
  // from toLowerCase/toUpperCase must be exactly those orbits.
  it('every orbit is one (?i) class, and no singleton folds with anything', () => {
    const orbits = new Map<number, number[]>();
    for (let c = 0; c <= 0x1ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const r = foldCodePoint(c);
      const list = orbits.get(r);
      if (list) list.push(c);
      else orbits.set(r, [c]);
    }
    const singles: number[] = [];
    const members: number[] = [];
    const wrong: string[] = [];
    for (const [r, list] of orbits) {
      if (list.length === 1) {
        singles.push(r);
        continue;
      }
      members.push(...list);
      const re = compileRegex(`(?i)^\\x{${r.toString(16)}}$`);
      if (!re.ok) throw new Error(re.error);
      for (const m of list) if (!re.regex.testWhole(String.fromCodePoint(m))) wrong.push(m.toString(16));
    }
    const ranges: string[] = [];
    for (let i = 0; i < singles.length; ) {
      let j = i;
      while (j + 1 < singles.length && singles[j + 1] === singles[j]! + 1) j++;
      ranges.push(`\\x{${singles[i]!.toString(16)}}-\\x{${singles[j]!.toString(16)}}`);
      i = j + 1;
    }
    const cls = compileRegex(`(?i)[${ranges.join('')}]`);
    if (!cls.ok) throw new Error(cls.error);
    for (const m of members) if (cls.regex.test(String.fromCodePoint(m))) wrong.push(m.toString(16));
    expect(members.length).toBeGreaterThan(2800);
    expect(wrong).toEqual([]);
  });
});

describe('one set of fold tables: tool names fold as (?i) patterns do', () => {
  const pairs: [string, string, string][] = [
    ['U+0390 and U+1FD3 (CaseFolding.txt only; no upper/lower mapping joins them)', '\u0390', '\u1fd3'],
    ['U+03B0 and U+1FE3', '\u03b0', '\u1fe3'],
    ['U+1C89 and U+1C8A (a Unicode 16.0 pair: re2js has it, no Go release does yet)', '\u1c89', '\u1c8a'],
    ['KELVIN SIGN and k', '\u212a', 'k'],
  ];
  it.each(pairs)('%s', (_, a, b) => {
    const re = compileRegex(`(?i)^${a}$`);
    if (!re.ok) throw new Error(re.error);
    expect(re.regex.testWhole(b)).toBe(true);
    expect(equalFold(`x${a}`, `X${b}`)).toBe(true);
  });

  it('keeps apart what (?i) keeps apart: dotless ı, dotted İ and i', () => {
    for (const [a, b] of [
      ['\u0131', 'i'],
      ['\u0130', 'i'],
      ['\u0131', 'I'],
    ] as const) {
      const re = compileRegex(`(?i)^${a}$`);
      if (!re.ok) throw new Error(re.error);
      expect(re.regex.testWhole(b)).toBe(false);
      expect(equalFold(a, b)).toBe(false);
    }
  });

  it('a tool rule matches a tool name spelt with another member of the orbit', () => {
    const { approver } = compileApprover({ mode: 'pattern', default: 'deny', reason: '', input: 'raw', allow: [{ tool: 'ra\u0390', match: '' }], deny: [] } as never);
    expect(approver?.decide({ toolName: 'RA\u1fd3', input: '{}' }).decision).toBe('allow');
  });

  it('no code point above U+1FFFF folds with one outside its plane (so none is probed there)', () => {
    for (let plane = 2; plane <= 16; plane++) {
      const lo = plane * 0x10000;
      const prog = progOf(RE2JS.compile(`(?i)[\\x{${lo.toString(16)}}-\\x{${(lo + 0xffff).toString(16)}}]`))!;
      const runes = prog.inst.filter((i) => i.op === RUNE || i.op === RUNE1).map((i) => Array.from(i.runes));
      expect(runes).toEqual([[lo, lo + 0xffff]]);
    }
    expect(LAST_FOLDING_CODE_POINT).toBe(0x1ffff);
    expect(foldCodePoint(0x20000)).toBe(0x20000);
  });
});
