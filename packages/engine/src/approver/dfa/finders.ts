/**
 * Skipping ahead: while nothing is under way (the state is just the restarted rules), a JavaScript
 * RegExp of the rules' first characters finds the next position where one of them can begin, and
 * the scan jumps there. The finders of one DFA, by the set of rules they look for. Reads the
 * program (`program.ts`) only.
 */
import { ALT, ALT_MATCH, CAPTURE, EMPTY_WIDTH, FAIL, FOLD_CASE, MATCH, NOP, RUNE_ANY, RUNE_ANY_NOT_NL } from '../../regex/re2-program.ts';
import type { Inst } from '../../regex/re2-program.ts';
import type { Program } from './program.ts';

/** Characters of each rule's leads: a finder looks for the first `LEAD_DEPTH` characters of a match. */
const LEAD_DEPTH = 3;
/** More lead paths than this for one rule, and the rule's leads are cut one character shorter. */
const MAX_LEAD_PATHS = 16;
/** Finders (compiled RegExps) one DFA keeps. */
const MAX_FINDERS = 64;
/** Steps of the walk for one rule's leads (each depth tried); past it the rule has none. */
const MAX_LEAD_WALK = 2048;
/** The most UTF-16 code units a finder's match spans. */
export const LEAD_UNITS = 2 * LEAD_DEPTH;
/** Character classes a finder's alternation may hold in all (its cost per character, at worst). */
const MAX_FINDER_COST = 48;

/**
 * A code point as an escape of a finder (which has the `u` flag): `\u{…}` always, so that two
 * surrogate code points in a row stay two (under the `u` flag `\uD83D\uDE00` is one character).
 */
function esc(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

/**
 * The JavaScript class (source, for the `u` flag) of the characters rune instruction `inst` accepts,
 * or `null` when it cannot be written soundly: over code points it accepts exactly what `inst`
 * accepts, and a lone surrogate wherever it accepts U+FFFD (the scan's reading of one). Folded ASCII
 * letters are their Go fold orbit (`k` also U+212A, `s` also U+017F); other folded runes are not
 * attempted.
 */
export function classSource(inst: Inst): string | null {
  if (inst.op === RUNE_ANY) return '[^]';
  if (inst.op === RUNE_ANY_NOT_NL) return '[^\\n]';
  const runes = inst.runes;
  if (runes.length === 1) {
    const r = runes[0]!;
    if ((inst.arg & FOLD_CASE) === 0) return r === 0xfffd ? `[${esc(r)}${esc(0xd800)}-${esc(0xdfff)}]` : `[${esc(r)}]`;
    const lower = r | 0x20;
    if (lower >= 0x61 && lower <= 0x7a) return `[${esc(lower & ~0x20)}${esc(lower)}${lower === 0x6b ? esc(0x212a) : lower === 0x73 ? esc(0x17f) : ''}]`;
    return r <= 0x7f ? `[${esc(r)}]` : null;
  }
  if (runes.length === 0 || runes.length % 2 !== 0) return null;
  let src = '[';
  let replacement = false;
  for (let j = 0; j < runes.length; j += 2) {
    src += runes[j] === runes[j + 1] ? esc(runes[j]!) : `${esc(runes[j]!)}-${esc(runes[j + 1]!)}`;
    if (runes[j]! <= 0xfffd && 0xfffd <= runes[j + 1]!) replacement = true;
  }
  // The scan reads a lone surrogate as U+FFFD; the search sees the surrogate itself.
  return `${src}${replacement ? `${esc(0xd800)}-${esc(0xdfff)}` : ''}]`;
}

/**
 * The sequences of up to `depth` character classes every match of rule `r` begins with (assertions
 * skipped, which only widens them), or `null` when some match can begin with fewer characters (the
 * rule matches the empty string) or a class cannot be written.
 */
function leadPaths(p: Program, r: number, depth: number): string[][] | null {
  const paths = new Map<string, string[]>();
  let ok = true;
  // Alternatives that read nothing multiply the ways to one path (`(?:a?){500}b` has ~500^3 to its
  // first three characters): past this many steps of the walk the rule gets no leads.
  let steps = MAX_LEAD_WALK;
  // Instructions on the current run of moves that read nothing, marked with the run's number: a
  // loop among them adds no path. Unmarked on the way back, so sibling branches may pass them.
  const onRun = new Int32Array(p.insts.length);
  let runs = 0;
  const add = (acc: readonly string[]) => {
    paths.set(acc.join(''), [...acc]);
    if (paths.size > MAX_LEAD_PATHS) ok = false;
  };
  const walk = (g: number, acc: readonly string[], n: number, run: number): void => {
    if (!ok) return;
    if (--steps < 0) {
      ok = false;
      return;
    }
    if (n === depth) {
      add(acc);
      return;
    }
    const op = p.op[g];
    switch (op) {
      case ALT:
      case ALT_MATCH:
      case NOP:
      case CAPTURE:
      case EMPTY_WIDTH: {
        if (onRun[g] === run) return; // a loop that reads nothing adds no path
        onRun[g] = run;
        walk(p.out[g]!, acc, n, run);
        if (op === ALT || op === ALT_MATCH) walk(p.arg[g]!, acc, n, run);
        onRun[g] = 0;
        return;
      }
      case FAIL:
        return;
      case MATCH:
        if (n === 0) ok = false;
        else add(acc);
        return;
      default: {
        const c = classSource(p.insts[g]!);
        if (c === null) ok = false;
        else walk(p.out[g]!, [...acc, c], n + 1, ++runs);
      }
    }
  };
  walk(p.starts[r]!, [], 0, ++runs);
  return ok ? [...paths.values()] : null;
}


export class Finders {
  /** Finders by the set of rules they look for (`null`: some rule has no lead). */
  private readonly cache = new Map<string, RegExp | null>();

  constructor(private readonly p: Program) {}

  /** Finders made so far (`null` ones included). */
  get size(): number {
    return this.cache.size;
  }

  /**
   * A search for the next position where one of `rules` can begin a match: the alternation of their
   * lead paths, or `null` when some rule has none. A backtracking matcher may try every alternative at
   * every position, so the alternation is kept to `MAX_FINDER_COST` classes in all (shorter leads when
   * longer ones would cost more; at one character, one class for all): the search costs at most that
   * many class tests per character of any text.
   */
  forRules(rules: readonly number[]): RegExp | null {
    const key = rules.join(',');
    if (this.cache.has(key)) return this.cache.get(key)!;
    // Each set of rules still able to change the answer has its own finder: a text that matches rules
    // in many orders would make many. Past this many, idle states just step (no search, same answers).
    if (this.cache.size >= MAX_FINDERS) return null;
    let src: string | null = null;
    for (let depth = LEAD_DEPTH; depth >= 1 && src === null; depth--) {
      const paths = new Map<string, string[]>();
      for (const r of rules) {
        let own: string[][] | null = null;
        for (let d = depth; d >= 1 && own === null; d--) own = leadPaths(this.p, r, d);
        if (own === null) {
          paths.clear();
          depth = 0; // some rule can begin anywhere: no finder
          break;
        }
        for (const p of own) paths.set(p.join(''), p);
      }
      if (paths.size === 0) break;
      let cost = 0;
      for (const p of paths.values()) cost += p.length;
      if (cost <= MAX_FINDER_COST) src = [...paths.keys()].join('|');
      else if (depth === 1) {
        // One class for every first character (a negated class would stop everywhere: no finder).
        const parts = [...paths.keys()];
        if (parts.every((c) => c.startsWith('[') && !c.startsWith('[^'))) src = `[${parts.map((c) => c.slice(1, -1)).join('')}]`;
      }
    }
    let finder: RegExp | null = null;
    if (src !== null) {
      try {
        // No lookahead (it makes V8 give up its fast scan, ~3× slower): the match ends at `lastIndex`
        // and began at most `LEAD_DEPTH` code points (two code units each at most) before. Always the
        // `u` flag: it reads the text by code points, as the scan does, so `[^]` and `[^\n]` take a
        // surrogate pair as one character (without it `s.do` never found `s😀do`) and a lone
        // surrogate as a character of its own (the scan's U+FFFD, which `classSource` accounts for).
        finder = new RegExp(src, 'gu');
      } catch {
        finder = null;
      }
    }
    this.cache.set(key, finder);
    return finder;
  }
}
