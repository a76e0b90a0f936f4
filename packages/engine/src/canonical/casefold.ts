/**
 * Unicode simple case folding, as Go's `strings.EqualFold` / `unicode.SimpleFold` see it.
 *
 * Two strings are equal under simple case folding when, code point by code point, each pair lies in
 * the same fold orbit (`K` `k` `K`; `S` `s` `ſ`; `Σ` `σ` `ς`; `ß` `ẞ`). `caseFold` maps every code
 * point to the smallest member of its orbit, so `caseFold(a) === caseFold(b)` exactly when `a` and
 * `b` are equal under simple case folding. (JS `toLowerCase` is not that: it maps `İ` to two code
 * points and leaves `K` and `k` apart only by accident of locale tables.)
 *
 * The orbit table is built once, on the first non-ASCII input, by joining each code point with its
 * single-code-point `toLowerCase` and `toUpperCase` mappings (union-find, smallest member as
 * representative) over planes 0 and 1, where every cased letter lives. Two corrections make this the
 * CaseFolding.txt C+S relation Go uses: mappings to several code points are skipped (`ß`→`SS`,
 * `İ`→`i̇`), and the dotless `ı` (U+0131), which folds only under the Turkic `T` status, stays alone
 * (its upper case is `I`, but Go does not fold it with `i`). `İ` (U+0130) stays alone too.
 */
import { wellFormed } from '../regex/regex.ts';

const LAST_CASED_PLANE_END = 0x1ffff;
const DOTLESS_I = 0x131;

let orbitMin: Map<number, number> | undefined;

function buildTable(): Map<number, number> {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    for (let p = parent.get(r); p !== undefined && p !== r; p = parent.get(r)) r = p;
    // Path compression keeps later lookups short.
    let y = x;
    while (y !== r) {
      const next = parent.get(y) ?? r;
      parent.set(y, r);
      y = next;
    }
    return r;
  };
  const union = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return;
    if (ra < rb) parent.set(rb, ra);
    else parent.set(ra, rb);
  };
  for (let c = 0; c <= LAST_CASED_PLANE_END; c++) {
    if (c >= 0xd800 && c <= 0xdfff) {
      c = 0xdfff;
      continue;
    }
    if (c === DOTLESS_I || c === 0x130) continue;
    const s = String.fromCodePoint(c);
    for (const t of [s.toLowerCase(), s.toUpperCase()]) {
      if (t === s) continue;
      const cp = t.codePointAt(0);
      if (cp === undefined || cp === DOTLESS_I || cp === 0x130) continue;
      if (t.length !== (cp > 0xffff ? 2 : 1)) continue;
      union(c, cp);
    }
  }
  const table = new Map<number, number>();
  for (const c of parent.keys()) {
    const r = find(c);
    if (r !== c) table.set(c, r);
  }
  return table;
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The representative (smallest member) of the simple case-folding orbit of code point `cp`. */
export function foldCodePoint(cp: number): number {
  if (cp < 0x80) return cp >= 0x61 && cp <= 0x7a ? cp - 0x20 : cp;
  orbitMin ??= buildTable();
  return orbitMin.get(cp) ?? cp;
}

/**
 * `s` with every code point replaced by the representative of its simple case-folding orbit.
 * Lone surrogates read as U+FFFD first, as in UTF-8. Compare results with `===`: the
 * representative is an implementation detail (ASCII letters fold to upper case).
 */
export function caseFold(s: string): string {
  if (isAscii(s)) return s.toUpperCase();
  orbitMin ??= buildTable();
  const table = orbitMin;
  let out = '';
  for (const ch of wellFormed(s)) {
    const cp = ch.codePointAt(0) ?? 0;
    const r = cp < 0x80 ? foldCodePoint(cp) : (table.get(cp) ?? cp);
    out += r === cp ? ch : String.fromCodePoint(r);
  }
  return out;
}

/** Whether `a` and `b` are equal under Unicode simple case folding (Go `strings.EqualFold`). */
export function equalFold(a: string, b: string): boolean {
  return a === b || caseFold(a) === caseFold(b);
}
