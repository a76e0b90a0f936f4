// The one reader of re2js internals: what it reads must be what re2js 2.10.0 keeps, or every
// reader of programs (DFA, screens, case folding) would silently see nothing or the wrong thing.
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import {
  BEGIN_TEXT,
  EMPTY_WIDTH,
  FOLD_CASE,
  internalsOf,
  MATCH,
  PF_EXACT,
  progOf,
  programSize,
  RUNE,
  RUNE1,
  RUNE_ANY_NOT_NL,
} from './re2-program.ts';
import { compileRegex } from './regex.ts';

const ops = (p: string) => progOf(RE2JS.compile(p))!.inst.map((i) => i.op);

describe('re2js program reader', () => {
  it('reads the program, its instructions and their op codes', () => {
    const prog = progOf(RE2JS.compile('a.'))!;
    expect(prog).not.toBeNull();
    const reading = prog.inst.filter((i) => i.op === RUNE1 || i.op === RUNE_ANY_NOT_NL);
    expect(reading.map((i) => i.op)).toEqual([RUNE1, RUNE_ANY_NOT_NL]);
    expect([...reading[0]!.runes]).toEqual([0x61]);
    expect(reading[0]!.matchRune(0x61)).toBe(true);
    expect(ops('a')).toContain(MATCH);
  });

  it('reads assertions and the fold flag', () => {
    const start = progOf(RE2JS.compile('^a'))!.inst.find((i) => i.op === EMPTY_WIDTH)!;
    expect(start.arg & BEGIN_TEXT).toBe(BEGIN_TEXT);
    const folded = progOf(RE2JS.compile('(?i)k'))!.inst.find((i) => i.op === RUNE)!;
    expect(folded.arg & FOLD_CASE).toBe(FOLD_CASE);
    expect(folded.matchRune(0x212a)).toBe(true);
  });

  it('reads the literal facts: prefix, whole-literal flag, prefilter', () => {
    expect(internalsOf(RE2JS.compile('sudo'))).toMatchObject({ prefix: 'sudo', prefixComplete: true });
    expect(internalsOf(RE2JS.compile('sudo.*x'))?.prefixComplete).toBe(false);
    const pf = internalsOf(RE2JS.compile('(?s).*needle.*'))?.prefilter;
    expect(pf?.type === PF_EXACT ? pf.str : pf?.subs.map((s) => s.str)).toContain('needle');
  });

  it('programSize counts the instructions of a compiled rule', () => {
    const r = compileRegex('abc');
    expect(r.ok && programSize(r.regex)).toBe(progOf(RE2JS.compile('abc'))!.inst.length);
  });
});
