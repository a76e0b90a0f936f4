/**
 * Unicode simple case folding, as Go's `strings.EqualFold` / `unicode.SimpleFold` see it.
 *
 * Two strings are equal under simple case folding when, code point by code point, each pair lies in
 * the same fold orbit (`K` `k` `K`; `S` `s` `ſ`; `Σ` `σ` `ς`; `ß` `ẞ`; `ΐ` `ΐ`). `caseFold` maps every
 * code point to the smallest member of its orbit, so `caseFold(a) === caseFold(b)` exactly when `a`
 * and `b` are equal under simple case folding. (JS `toLowerCase` is not that: it maps `İ` to two code
 * points, and it knows nothing of the orbits CaseFolding.txt adds, such as U+0390 with U+1FD3.)
 *
 * The orbits are re2js's, the tables its `(?i)` matches with (`foldRepresentative`), so a tool name,
 * a field name or a canonical key folds exactly as a `(?i)` pattern does. Which Unicode version that
 * is, and how it compares with Go releases, is in packages/engine/README.md ("Unicode version").
 */
import { foldRepresentative, wellFormed } from '../regex/regex.ts';

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The representative (smallest member) of the simple case-folding orbit of code point `cp`. */
export function foldCodePoint(cp: number): number {
  return foldRepresentative(cp);
}

/**
 * `s` with every code point replaced by the representative of its simple case-folding orbit.
 * Lone surrogates read as U+FFFD first, as in UTF-8. Compare results with `===`: the
 * representative is an implementation detail (ASCII letters fold to upper case).
 */
export function caseFold(s: string): string {
  if (isAscii(s)) return s.toUpperCase();
  let out = '';
  for (const ch of wellFormed(s)) {
    const cp = ch.codePointAt(0) ?? 0;
    const r = foldRepresentative(cp);
    out += r === cp ? ch : String.fromCodePoint(r);
  }
  return out;
}

/** Whether `a` and `b` are equal under Unicode simple case folding (Go `strings.EqualFold`). */
export function equalFold(a: string, b: string): boolean {
  return a === b || caseFold(a) === caseFold(b);
}
