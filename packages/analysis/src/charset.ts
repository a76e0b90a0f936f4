/**
 * Sets of Unicode code points as sorted, disjoint, non-adjacent inclusive ranges.
 *
 * The alphabet of every automaton in the analysis is the set of Unicode scalar values: code points
 * 0..0x10FFFF without the surrogates. Go matches UTF-8, where a surrogate cannot occur (an invalid
 * byte reads as U+FFFD), so no input the engine decides on can contain one.
 */

/** Flattened ranges: `[lo0, hi0, lo1, hi1, …]`, sorted, disjoint and non-adjacent. */
export type CharSet = readonly number[];

export const MAX_RUNE = 0x10ffff;
const SURROGATE_LO = 0xd800;
const SURROGATE_HI = 0xdfff;

export const EMPTY: CharSet = [];
/** Every scalar value (the universe of the analysis). */
export const ANY: CharSet = [0, SURROGATE_LO - 1, SURROGATE_HI + 1, MAX_RUNE];

/** Normalises a list of `[lo, hi]` pairs (any order, overlapping) and removes surrogates. */
export function fromRanges(pairs: readonly (readonly [number, number])[]): CharSet {
  return intersect(merge(pairs.filter(([lo, hi]) => lo <= hi)), ANY);
}

/** Sorted, disjoint, non-adjacent ranges covering the given (valid) pairs. */
function merge(pairs: readonly (readonly [number, number])[]): number[] {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of sorted) {
    const n = out.length;
    if (n > 0 && lo <= (out[n - 1] as number) + 1) {
      if (hi > (out[n - 1] as number)) out[n - 1] = hi;
    } else {
      out.push(lo, hi);
    }
  }
  return out;
}

export function single(cp: number): CharSet {
  return cp >= SURROGATE_LO && cp <= SURROGATE_HI ? EMPTY : [cp, cp];
}

export function range(lo: number, hi: number): CharSet {
  return fromRanges([[lo, hi]]);
}

/** Builds a set from a string of characters and `a-z`-style ranges (no escapes; for tables). */
export function fromSpec(spec: string): CharSet {
  const cps = Array.from(spec, (c) => c.codePointAt(0) as number);
  const pairs: [number, number][] = [];
  for (let i = 0; i < cps.length; i++) {
    const lo = cps[i] as number;
    if (cps[i + 1] === 0x2d && i + 2 < cps.length) {
      pairs.push([lo, cps[i + 2] as number]);
      i += 2;
    } else {
      pairs.push([lo, lo]);
    }
  }
  return fromRanges(pairs);
}

export function union(a: CharSet, b: CharSet): CharSet {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const pairs: [number, number][] = [];
  for (const set of [a, b]) for (let i = 0; i < set.length; i += 2) pairs.push([set[i] as number, set[i + 1] as number]);
  return merge(pairs);
}

export function intersect(a: CharSet, b: CharSet): CharSet {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i] as number, b[j] as number);
    const hi = Math.min(a[i + 1] as number, b[j + 1] as number);
    if (lo <= hi) out.push(lo, hi);
    if ((a[i + 1] as number) < (b[j + 1] as number)) i += 2;
    else j += 2;
  }
  return out;
}

/** The complement within the universe (scalar values). */
export function negate(a: CharSet): CharSet {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < a.length; i += 2) {
    const lo = a[i] as number;
    if (lo > next) out.push(next, lo - 1);
    next = (a[i + 1] as number) + 1;
  }
  if (next <= MAX_RUNE) out.push(next, MAX_RUNE);
  return intersect(out, ANY);
}

export function subtract(a: CharSet, b: CharSet): CharSet {
  return intersect(a, negate(b));
}

export function has(a: CharSet, cp: number): boolean {
  let lo = 0;
  let hi = a.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < (a[2 * mid] as number)) hi = mid - 1;
    else if (cp > (a[2 * mid + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}

export function isEmpty(a: CharSet): boolean {
  return a.length === 0;
}

export function equals(a: CharSet, b: CharSet): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Characters tried first when a witness needs a member of a set: readable ones. */
const PREFERRED = Array.from('abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ _-./:,;=+', (c) =>
  c.codePointAt(0) as number,
);

/** Sort key for witness characters: preferred ones first, in their order, then by code point. */
export function readability(cp: number): number {
  const i = PREFERRED.indexOf(cp);
  return i >= 0 ? i : PREFERRED.length + cp;
}

/** A readable member of a non-empty set, or `undefined` for the empty set. */
export function pick(a: CharSet): number | undefined {
  if (a.length === 0) return undefined;
  for (const cp of PREFERRED) if (has(a, cp)) return cp;
  // Then any printable ASCII, then the first non-control member.
  for (let i = 0; i < a.length; i += 2) {
    const lo = Math.max(a[i] as number, 0x21);
    if (lo <= Math.min(a[i + 1] as number, 0x7e)) return lo;
  }
  for (let i = 0; i < a.length; i += 2) {
    const lo = Math.max(a[i] as number, 0xa1);
    if (lo <= (a[i + 1] as number)) return lo;
  }
  return a[0];
}

/**
 * The coarsest partition of the universe that refines every given set: each block is a set of
 * code points that no given set tells apart, with a readable representative. An automaton whose
 * transitions are labelled by the given sets behaves the same on every member of a block.
 */
export function partition(sets: readonly CharSet[]): { block: CharSet; rep: number }[] {
  const unique = [...new Set(sets)];
  let n = 2;
  for (const s of unique) n += s.length;
  const bounds = new Int32Array(n);
  let k = 0;
  bounds[k++] = 0;
  bounds[k++] = MAX_RUNE + 1;
  for (const s of unique) {
    for (let i = 0; i < s.length; i += 2) {
      bounds[k++] = s[i] as number;
      bounds[k++] = (s[i + 1] as number) + 1;
    }
  }
  bounds.sort();
  const cuts: number[] = [];
  for (let i = 0; i < n; i++) if (i === 0 || bounds[i] !== bounds[i - 1]) cuts.push(bounds[i] as number);
  // Refinement: each set splits the blocks it cuts through (renaming the part inside it), so two
  // elementary intervals end with the same id exactly when every set holds both or neither.
  const id = new Int32Array(cuts.length - 1);
  let fresh = 1;
  const renamed = new Map<number, number>();
  for (const s of unique) {
    renamed.clear();
    for (let i = 0; i < s.length; i += 2) {
      let idx = lowerBound(cuts, s[i] as number);
      const end = (s[i + 1] as number) + 1;
      while (idx < cuts.length - 1 && (cuts[idx] as number) < end) {
        const old = id[idx] as number;
        let to = renamed.get(old);
        if (to === undefined) {
          to = fresh++;
          renamed.set(old, to);
        }
        id[idx] = to;
        idx++;
      }
    }
  }
  const groups = new Map<number, [number, number][]>();
  for (let i = 0; i < cuts.length - 1; i++) {
    const g = id[i] as number;
    let pairs = groups.get(g);
    if (pairs === undefined) {
      pairs = [];
      groups.set(g, pairs);
    }
    pairs.push([cuts[i] as number, (cuts[i + 1] as number) - 1]);
  }
  const out: { block: CharSet; rep: number }[] = [];
  for (const pairs of groups.values()) {
    const block = fromRanges(pairs);
    const rep = pick(block);
    if (rep !== undefined) out.push({ block, rep });
  }
  return out;
}

/** The first index of sorted `arr` whose value is at least `v` (`arr.length` when none is). */
export function lowerBound(arr: readonly number[], v: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((arr[mid] as number) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The string of a list of code points of any length (never spread into `fromCodePoint`'s arguments). */
export function codePointsToString(cps: readonly number[]): string {
  let out = '';
  for (let i = 0; i < cps.length; i += 4096) out += String.fromCodePoint(...cps.slice(i, i + 4096));
  return out;
}
