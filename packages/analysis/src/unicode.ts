/**
 * The character classes of Go's regexp syntax, once: Unicode classes and simple case folding read
 * from the engine (re2js's own tables, which are Go's, so the analysis reasons with the tables
 * patterns match with), Perl and POSIX classes (ASCII, as in Go).
 */
import { foldCodePoint, LAST_FOLDING_CODE_POINT, unicodeClassRanges } from '@verdict/engine';
import { type CharSet, fromRanges, fromSpec, has, union } from './charset.ts';

const cache = new Map<string, CharSet | null>();

/**
 * The code points of a Go Unicode class name (`L`, `Lu`, `Greek`, `Any`), or `null` when Go knows
 * no such class (the pattern is then treated as unknown).
 */
export function unicodeClass(name: string): CharSet | null {
  let set = cache.get(name);
  if (set === undefined) {
    const ranges = unicodeClassRanges(name);
    const pairs: [number, number][] = [];
    if (ranges !== null) for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i] as number, ranges[i + 1] as number]);
    set = ranges === null ? null : fromRanges(pairs);
    cache.set(name, set);
  }
  return set;
}

// --- Perl and POSIX classes (ASCII, as in Go) ---

export const PERL_CLASSES: Record<string, CharSet> = {
  d: fromSpec('0-9'),
  s: fromSpec('\t\n\f\r '),
  w: fromSpec('0-9A-Za-z_'),
};

export const POSIX_CLASSES: Record<string, CharSet> = {
  alnum: fromSpec('0-9A-Za-z'),
  alpha: fromSpec('A-Za-z'),
  ascii: fromRanges([[0, 0x7f]]),
  blank: fromSpec('\t '),
  cntrl: fromRanges([[0, 0x1f], [0x7f, 0x7f]]),
  digit: fromSpec('0-9'),
  graph: fromRanges([[0x21, 0x7e]]),
  lower: fromSpec('a-z'),
  print: fromRanges([[0x20, 0x7e]]),
  punct: fromRanges([[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]]),
  space: fromSpec('\t\n\v\f\r '),
  upper: fromSpec('A-Z'),
  word: fromSpec('0-9A-Za-z_'),
  xdigit: fromSpec('0-9A-Fa-f'),
};

/** ASCII word characters, for `\b` and `\B` (Go's are ASCII only). */
export const WORD = PERL_CLASSES.w as CharSet;

export function isWordChar(cp: number): boolean {
  return has(WORD, cp);
}

// --- Simple case folding (the orbits Go's (?i) and strings.EqualFold use) ---

let orbits: Map<number, number[]> | undefined;

/**
 * Every code point with a non-trivial fold orbit, mapped to its orbit (sorted): the engine's orbits,
 * which are re2js's `(?i)` tables (`foldCodePoint`), so lint reasons with the tables patterns match with.
 */
function orbitTable(): Map<number, number[]> {
  if (orbits !== undefined) return orbits;
  const groups = new Map<number, number[]>();
  for (let c = 0; c <= LAST_FOLDING_CODE_POINT; c++) {
    if (c === 0xd800) {
      c = 0xdfff;
      continue;
    }
    const r = foldCodePoint(c);
    let g = groups.get(r);
    if (g === undefined) {
      g = [];
      groups.set(r, g);
    }
    g.push(c);
  }
  orbits = new Map();
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    for (const c of g) orbits.set(c, g);
  }
  return orbits;
}

/** The fold orbit of `cp` (itself alone when it has no case). */
export function orbit(cp: number): readonly number[] {
  if (cp < 0x80) return asciiOrbit(cp);
  return tableOrbit(cp);
}

/** `orbit` read from the full table (building it costs ~0.1 s, a third of a `verdict lint` run). */
export function tableOrbit(cp: number): readonly number[] {
  return orbitTable().get(cp) ?? [cp];
}

let asciiOrbits: (readonly number[])[] | undefined;

/**
 * The orbits of ASCII code points without the table: a letter and its other case, plus the two
 * letters outside ASCII that fold into it (U+017F `ſ` with `s`, U+212A KELVIN SIGN with `k`).
 * unicode-ascii.test.ts checks every one against the table.
 */
function asciiOrbit(cp: number): readonly number[] {
  if (asciiOrbits === undefined) {
    asciiOrbits = [];
    for (let c = 0; c < 0x80; c++) {
      const upper = c >= 0x61 && c <= 0x7a ? c - 0x20 : c;
      if (upper < 0x41 || upper > 0x5a) asciiOrbits.push([c]);
      else if (upper === 0x4b) asciiOrbits.push([0x4b, 0x6b, 0x212a]);
      else if (upper === 0x53) asciiOrbits.push([0x53, 0x73, 0x17f]);
      else asciiOrbits.push([upper, upper + 0x20]);
    }
  }
  return asciiOrbits[cp] as readonly number[];
}

/** `set` closed under simple case folding (what Go builds for a class under `(?i)`). */
export function foldSet(set: CharSet): CharSet {
  const table = orbitTable();
  const extra: [number, number][] = [];
  for (const [c, g] of table) {
    if (has(set, c)) for (const d of g) extra.push([d, d]);
  }
  return extra.length === 0 ? set : union(set, fromRanges(extra));
}
