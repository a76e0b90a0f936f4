/**
 * Test support for the fast path's properties (not part of the engine's API): the long-run switch,
 * and texts that put astral characters and lone surrogates at every class position of a rule's match.
 *
 * Texts made of randomly drawn units rarely hold a rule's match with an astral character exactly
 * where one of its classes reads it (`s😀do` for `s.do `): a property over them can run for a
 * long time without reaching the case. `placedTexts` builds them on purpose: it walks a rule's
 * re2js program from its start to its match, choosing at each alternation, and reads one character
 * for each class on the way (a witness, which matches unless an assertion on the way fails); then
 * it makes one text per class position and per special character put there: an astral character
 * the class accepts (if it has one), one it refuses, a lone high and a lone low surrogate (read as
 * U+FFFD), U+FFFD itself, and a whole surrogate pair split over this position and the next.
 * Each text comes bare and after filler (long enough for the DFA to search ahead).
 */
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { ALT, ALT_MATCH, CAPTURE, EMPTY_WIDTH, type Inst, NOP, type Prog, progOf, RUNE, RUNE1, RUNE_ANY, RUNE_ANY_NOT_NL } from './fast-dfa.ts';

const LONG_RUNS = process.env['VERDICT_FUZZ_RUNS'];

/** `VERDICT_FUZZ_RUNS=N` runs every property that asks here N times (a long run); else `runs`. */
export function fuzzRuns(runs: number): number {
  return LONG_RUNS === undefined || LONG_RUNS === '' ? runs : Number(LONG_RUNS);
}

/** The time limit of a property test that uses `fuzzRuns`: the package's default, or an hour for a long run. */
export const fuzzTimeout: number | undefined = LONG_RUNS === undefined || LONG_RUNS === '' ? undefined : 3_600_000;

/** The program of a pattern the caller just compiled (re2js always exposes it in 2.10.0). */
function instsOf(re: RE2JS): Prog {
  const prog = progOf(re);
  if (prog === null) throw new Error('re2js did not expose the compiled program');
  return prog;
}

function accepts(inst: Inst, cp: number): boolean {
  if (inst.op === RUNE_ANY) return true;
  if (inst.op === RUNE_ANY_NOT_NL) return cp !== 10;
  return inst.matchRune(cp);
}

/** Ordinary characters a witness is read from, then astral ones; specials are put in separately. */
const ORDINARY = [
  ...Array.from({ length: 95 }, (_, i) => 0x20 + i),
  0x0a, 0x09, 0xe9, 0xdf, 0x3c3, 0x3a3, 0x17f, 0x212a, 0x4e00, 0xa0, 0xfffd,
];
const ASTRAL = [0x1f600, 0x10400, 0x1d400, 0x20000, 0x10000, 0x10ffff, 0xe0041];

/** The most classes a witness reads (its rune instructions). */
const MAX_CLASSES = 10;

/**
 * The classes (rune instructions) of one way through `re`'s program from its start towards its
 * match, each alternation taken as `choices` say; at most `MAX_CLASSES`, fewer when the way ends.
 */
export function classPath(re: RE2JS, choices: readonly number[]): Inst[] {
  const { start, inst } = instsOf(re);
  const out: Inst[] = [];
  let pc = start;
  let c = 0;
  for (let guard = 0; guard < 4 * inst.length + 64 && out.length < MAX_CLASSES; guard++) {
    const i = inst[pc];
    if (i === undefined) break;
    if (i.op === ALT || i.op === ALT_MATCH) pc = (choices[c++ % choices.length]! & 1) === 0 ? i.out : i.arg;
    else if (i.op === NOP || i.op === CAPTURE || i.op === EMPTY_WIDTH) pc = i.out;
    else if (i.op === RUNE || i.op === RUNE1 || i.op === RUNE_ANY || i.op === RUNE_ANY_NOT_NL) {
      out.push(i);
      pc = i.out;
    } else break; // a match or a failure
  }
  return out;
}

/** A character `inst` accepts (as a string), picked by `pick`; `null` when none is known. */
function charFor(inst: Inst, pick: number): string | null {
  const ok = ORDINARY.filter((cp) => accepts(inst, cp));
  const astral = ASTRAL.filter((cp) => accepts(inst, cp));
  const all = [...ok, ...astral];
  if (all.length > 0) return String.fromCodePoint(all[pick % all.length]!);
  const r = inst.runes[0];
  return r !== undefined && (r < 0xd800 || r > 0xdfff) ? String.fromCodePoint(r) : null;
}

/** What is put at a class position: astral accepted and refused, lone surrogates, U+FFFD, a split pair. */
function specials(inst: Inst): string[] {
  const yes = ASTRAL.find((cp) => accepts(inst, cp));
  const no = ASTRAL.find((cp) => !accepts(inst, cp));
  const out = ['\ud83d', '\ude00', '\ufffd'];
  if (yes !== undefined) out.push(String.fromCodePoint(yes));
  if (no !== undefined) out.push(String.fromCodePoint(no));
  return out;
}

/**
 * Runs of characters and classes with no anchor (`s.do `, `a[^a]\\x{1F600}`): rules whose matches
 * the DFA searches ahead for, classes over astral characters and U+FFFD included.
 */
export const leadingPattern: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('a', 's', 'd', ' ', 'é', '"', '\\x{1F600}') },
      { weight: 2, arbitrary: fc.constantFrom('.', '(?s:.)', '[^\\n]', '[^a]', '\\w', '\\W', '\\pL', '\\x{fffd}', '[a-c]', '(?i:s)') },
    ),
    { minLength: 2, maxLength: 5 },
  )
  .map((xs) => xs.join(''));

const FILLER = ['lorem ipsum dolor sit amet, '.repeat(3), '{"k":"v","n":[1,2]} '.repeat(4), 'é — é 漢字 '.repeat(5), '😀 x '.repeat(8)];

/**
 * Texts for `patterns` (a rule list; `null` entries are skipped): one rule's witness (the rule
 * and the way through it chosen by fast-check) with each special character at each of its class
 * positions, and a split surrogate pair over each pair of neighbouring positions; each bare and
 * after filler that ends with and without an astral character.
 */
export function placedTexts(patterns: readonly (string | null)[]): fc.Arbitrary<string[]> {
  const real = patterns.filter((p): p is string => p !== null && p !== '');
  if (real.length === 0) return fc.constant(['', '😀', '\ud800']);
  return fc
    .record({
      rule: fc.nat({ max: real.length - 1 }),
      choices: fc.array(fc.nat(), { minLength: 16, maxLength: 16 }),
      picks: fc.array(fc.nat(), { minLength: MAX_CLASSES, maxLength: MAX_CLASSES }),
      filler: fc.constantFrom(...FILLER),
      after: fc.constantFrom('', ' tail', '😀', '\n'),
    })
    .map(({ rule, choices, picks, filler, after }) => {
      const path = classPath(RE2JS.compile(real[rule]!), choices);
      const base: string[] = [];
      for (const [j, inst] of path.entries()) {
        const ch = charFor(inst, picks[j]!);
        if (ch === null) break;
        base.push(ch);
      }
      const variants = [base.join('')];
      for (let j = 0; j < base.length; j++) {
        for (const s of specials(path[j]!)) variants.push([...base.slice(0, j), s, ...base.slice(j + 1)].join(''));
        if (j + 1 < base.length) variants.push([...base.slice(0, j), '\ud83d', '\ude00', ...base.slice(j + 2)].join(''));
      }
      const texts: string[] = [];
      for (const v of variants) texts.push(v, `${filler}${v}${after}`, `${filler}😀${v}`);
      return texts;
    });
}
