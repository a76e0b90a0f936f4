/**
 * Unicode tables for the analysis, computed at first use from the JavaScript engine's own tables.
 *
 * Go's `regexp` uses Go's `unicode` package; JavaScript's `\p{…}` uses the Unicode version of the
 * running V8. The two can differ for code points assigned in between (a few hundred per version,
 * none of them ASCII), so a verdict may in theory differ for such characters. Every witness is
 * re-checked against the real engine before it is reported, which catches a wrong one.
 */
import { caseFold, foldCodePoint, LAST_FOLDING_CODE_POINT } from '@verdict/engine';
import { ANY, type CharSet, EMPTY, fromRanges, fromSpec, has, union } from './charset.ts';

/** Go's general categories (`unicode.Categories`). `C` is Go's: Cc|Cf|Co|Cs, without unassigned. */
const CATEGORIES = new Set([
  'C', 'Cc', 'Cf', 'Co', 'Cs', 'L', 'Ll', 'Lm', 'Lo', 'Lt', 'Lu', 'M', 'Mc', 'Me', 'Mn', 'N', 'Nd',
  'Nl', 'No', 'P', 'Pc', 'Pd', 'Pe', 'Pf', 'Pi', 'Po', 'Ps', 'S', 'Sc', 'Sk', 'Sm', 'So', 'Z', 'Zl',
  'Zp', 'Zs',
]);

const cache = new Map<string, CharSet | null>();

function scan(re: RegExp): CharSet {
  const pairs: [number, number][] = [];
  let start = -1;
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c === 0xd800) {
      if (start >= 0) pairs.push([start, c - 1]);
      start = -1;
      c = 0xdfff;
      continue;
    }
    const inside = re.test(String.fromCodePoint(c));
    if (inside && start < 0) start = c;
    else if (!inside && start >= 0) {
      pairs.push([start, c - 1]);
      start = -1;
    }
  }
  if (start >= 0) pairs.push([start, 0x10ffff]);
  return fromRanges(pairs);
}

/**
 * The code points of a Go Unicode class name (`L`, `Lu`, `Greek`, `Any`), or `null` when the name
 * is one this runtime cannot compute (the pattern is then treated as unknown).
 */
export function unicodeClass(name: string): CharSet | null {
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  let set: CharSet | null = null;
  if (name === 'Any') set = ANY;
  else if (name === 'C') {
    set = ['Cc', 'Cf', 'Co', 'Cs'].map((n) => unicodeClass(n) ?? EMPTY).reduce(union, EMPTY);
  } else if (CATEGORIES.has(name)) {
    set = scan(new RegExp(`^\\p{${name}}$`, 'u'));
  } else if (/^[A-Z][A-Za-z_]*$/.test(name)) {
    try {
      set = scan(new RegExp(`^\\p{Script=${name}}$`, 'u'));
    } catch {
      set = null;
    }
  }
  cache.set(name, set);
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

/** A canonical fold key for a string: equal keys exactly when equal under simple case folding. */
export function foldKey(s: string): string {
  return caseFold(s);
}
