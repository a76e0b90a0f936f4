/**
 * One lazily built DFA per tool: a single pass over the text decides the call (the first matching
 * deny rule, else the first matching allow rule, else none), whatever the number of rules.
 *
 * The automaton runs the rules' own re2js programs (their instructions, their `matchRune`), so it
 * matches exactly what re2js matches; it only changes how the programs are stepped. It is the DFA of
 * RE2 (Cox, "Regular Expression Matching in the Wild"), built state by state as the text asks for
 * them, with three changes for a rule list:
 * - A state is the set of program counters alive at a position (all rules' programs side by side,
 *   with the rules not anchored at the start restarted at every position: an unanchored search),
 *   plus the best deny rule and the best allow rule seen to match so far. A rule that can no longer
 *   change the answer (a later deny rule once a deny rule matched; every allow rule once a deny rule
 *   matched; a later allow rule once an allow rule matched) is dropped from the set, so the scan
 *   stops as soon as nothing left can change the answer (the first deny rule matched, or no rule is
 *   alive and none restarts).
 * - Empty-width assertions (`^ $ \A \z \b \B`, `(?m)` line anchors) wait in the set until the next
 *   character is seen, then pass or die with the context of the previous and the next character;
 *   the previous character's kind (start, newline, word, other) is part of a state only when the
 *   state holds such an assertion.
 * - Characters are read as code points (a lone surrogate as U+FFFD, as `wellFormed` makes it) and
 *   mapped to classes: code points every instruction treats alike share a class. ASCII classes are
 *   computed when the DFA is built; other code points get theirs on first sight (bounded cache).
 * - While nothing is under way (the state is just the restarted rules), a JavaScript RegExp of the
 *   rules' first characters finds the next position where one of them can begin, and the scan jumps
 *   there (`dfa/finders.ts`).
 *
 * Work is bounded: a transition is computed once (cost linear in the states' sets), then it is one
 * table read per character; a call computes at most `MAX_STEPS_PER_CALL` transitions, and a DFA holds
 * at most `MAX_STATES` states (`PLAN_STATES` for all of a plan's DFAs) and `MAX_CLASSES` classes. Past
 * a bound the call answers `UNKNOWN` (a full cache is dropped first) and the caller decides through
 * the per-rule steps: a pathological text costs a bounded amount here and never changes a decision.
 */
import type { RE2JS } from 're2js';
import { MATCH, RUNE_ANY, RUNE_ANY_NOT_NL } from '../regex/re2-program.ts';
import { CLASSES_FULL, ClassMap } from './dfa/classes.ts';
import { Finders, LEAD_UNITS } from './dfa/finders.ts';
import { buildProgram, Closure, context, improves, K_END, resultOf } from './dfa/program.ts';
import type { Program } from './dfa/program.ts';
import { FIN, FULL, IDLE, MAX_STATES, planBudget, ROW_MASK, ROW_SHIFT, StateCache } from './dfa/states.ts';
import type { StateBudget } from './dfa/states.ts';

export { MAX_DFA_INSTS } from './dfa/program.ts';
export { planBudget } from './dfa/states.ts';
export type { StateBudget } from './dfa/states.ts';
export { classSource } from './dfa/finders.ts';
export { tellsNonAscii } from './dfa/classes.ts';

/** `runDfa` could not decide within its budget: decide another way. */
export const UNKNOWN = -1;

/**
 * Transitions one call may compute: past it the call answers `UNKNOWN` (the cache is kept, so the
 * next calls go on filling it). A transition costs time linear in the states' sets (~5-20 µs here):
 * this bounds what one text can cost here before the steps decide it (~1-2 ms).
 */
const MAX_STEPS_PER_CALL = 128;
/** `step`'s answer when this call may compute no more transitions. */
const NO_MORE = -1;

/**
 * One DFA: its program (the rules side by side), class map, finders and state cache, each a small
 * object of its own (`dfa/`), depending on one another one way (program ← classes, finders ← states);
 * this file steps them.
 */
export interface Dfa {
  readonly program: Program;
  readonly classes: ClassMap;
  readonly closure: Closure;
  readonly finders: Finders;
  readonly states: StateCache;
  /** Number of first-tier rules; results `0 … deny-1` are those, `deny … deny+allow-1` last-tier rules. */
  readonly deny: number;
  readonly allow: number;
  /** Transitions computed by the current call. */
  made: number;
}

/**
 * A DFA for a tool's rules in order, first tier (`deny`) then last tier (`allow`) (`null` entries
 * match every text), or `null` when some rule cannot run in it (no re2js program, an instruction it
 * does not know), the programs together are larger than `MAX_DFA_INSTS`, or ASCII alone needs too
 * many classes.
 */
export function buildDfa(
  deny: readonly (RE2JS | null)[],
  allow: readonly (RE2JS | null)[],
  options: { readonly maxStates?: number; readonly budget?: StateBudget } = {},
): Dfa | null {
  const program = buildProgram(deny, allow);
  if (program === null) return null;
  const classes = ClassMap.build(program);
  if (classes === null) return null;
  const closure = new Closure(program);
  const finders = new Finders(program);
  const states = new StateCache(program, closure, finders, options.maxStates ?? MAX_STATES, options.budget ?? planBudget());
  return { program, classes, closure, finders, states, deny: program.deny, allow: program.allow, made: 0 };
}

/**
 * Passes the assertions of state `s` that hold before a character of kind `nextKind`: the rune
 * instructions then alive go to `runes`; returns the best first-tier and last-tier rules once the
 * matches found here are counted.
 */
function expand(dfa: Dfa, s: number, nextKind: number, runes: number[]): [number, number] {
  const { program: p, states } = dfa;
  let bd = states.bestDeny[s]!;
  let ba = states.bestAllow[s]!;
  const reached: number[] = [];
  dfa.closure.fromAll(states.pcs[s]!, dfa.closure.next(), context(states.prev[s]!, nextKind), reached);
  for (const g of reached) {
    if (p.op[g] !== MATCH) runes.push(g);
    else {
      const r = p.ruleOf[g]!;
      if (r < p.deny) bd = Math.min(bd, r);
      else ba = Math.min(ba, r - p.deny);
    }
  }
  return [bd, ba];
}

/** The transition of state `s` on class `k`: the next state's id, or `NO_MORE` / `FULL`. */
function step(dfa: Dfa, s: number, k: number): number {
  if (dfa.made >= MAX_STEPS_PER_CALL) return NO_MORE;
  dfa.made++;
  const { program: p, classes, closure, states } = dfa;
  const runes: number[] = [];
  const [bd, ba] = expand(dfa, s, classes.kind[k]!, runes);
  const restart = states.restartClosure(bd, ba); // before the stamp below: it may take one of its own
  const cp = classes.rep[k]!;
  const out: number[] = [];
  const stamp = closure.next();
  const op = p.op;
  for (const g of runes) {
    if (!improves(p, p.ruleOf[g]!, bd, ba)) continue;
    const o = op[g];
    const ok = o === RUNE_ANY || (o === RUNE_ANY_NOT_NL ? cp !== 10 : p.insts[g]!.matchRune(cp));
    if (ok) closure.from(p.out[g]!, stamp, out);
  }
  for (const g of restart) if (closure.visit(g, stamp)) out.push(g);
  const next = states.stateFor(out, classes.kind[k]!, bd, ba);
  if (next >= 0) states.trans[(s << ROW_SHIFT) + k] = states.codeOf(next);
  return next;
}

/** The answer of state `s` at the end of the text. */
function endOf(dfa: Dfa, s: number): number {
  const states = dfa.states;
  let res = states.endResult[s]!;
  if (res === -2) {
    if (states.fin[s] === 1) res = resultOf(dfa.program, states.bestDeny[s]!, states.bestAllow[s]!);
    else {
      const [bd, ba] = expand(dfa, s, K_END, []);
      res = resultOf(dfa.program, bd, ba);
    }
    states.endResult[s] = res;
  }
  return res;
}

/**
 * The first matching rule for `text` (lone surrogates read as U+FFFD, as `wellFormed` makes them): `k < deny` is deny rule `k`, `deny + k` allow rule
 * `k`, `deny + allow` none; `UNKNOWN` when the DFA ran out of room (its states were dropped).
 */
export function runDfa(dfa: Dfa, text: string): number {
  // The constants of the loop as locals: V8 reads an imported binding from its module cell, with a
  // check that it is initialised, at every use (~15 % of the loop on 1 MB inputs).
  const fin = FIN;
  const idle = IDLE;
  const rowMask = ROW_MASK;
  const rowShift = ROW_SHIFT;
  const leadUnits = LEAD_UNITS;
  const states = dfa.states;
  const classes = dfa.classes;
  const ascii = classes.ascii;
  let trans = states.trans;
  let s = states.startCode;
  if ((s & fin) !== 0) return endOf(dfa, s >> rowShift);
  dfa.made = 0;
  classes.beginCall();
  const n = text.length;
  // Jumps taken and characters they skipped: when jumps skip little, stop looking for them.
  let jumps = 0;
  let skipped = 0;
  let skipping = true;
  /** Where the last search's match ended: none of the finder's leads begins before it. */
  let searched = 0;
  for (let i = 0; i < n; i++) {
    if ((s & idle) !== 0 && skipping && i >= searched) {
      const f = states.finder[s >> rowShift]!;
      f.lastIndex = i;
      // The next possible start is at `lastIndex - LEAD_UNITS` or after; the scan resumes one
      // character before it, from this state (the last character when nothing can start). No lead
      // begins before the match found, so no search is needed again until the scan passes it.
      let to = n - 1;
      if (f.test(text)) {
        searched = f.lastIndex;
        to = searched - leadUnits - 1;
      }
      if (to > i) {
        // Never into the middle of a surrogate pair: its second half alone would read as U+FFFD.
        const u = text.charCodeAt(to);
        if (u >= 0xdc00 && u <= 0xdfff) {
          const h = text.charCodeAt(to - 1);
          if (h >= 0xd800 && h <= 0xdbff) to--;
        }
        skipped += to - i;
        i = to;
      }
      if (++jumps >= 16 && skipped < jumps * 16) skipping = false;
    }
    let c = text.charCodeAt(i);
    let k: number;
    if (c < 128) k = ascii[c]!;
    else {
      if (c >= 0xd800 && c <= 0xdfff) {
        // A surrogate pair is one code point; a lone surrogate reads as U+FFFD (its UTF-8 encoding).
        const d = i + 1 < n ? text.charCodeAt(i + 1) : 0;
        if (c < 0xdc00 && d >= 0xdc00 && d <= 0xdfff) {
          c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
          i++;
        } else c = 0xfffd;
      }
      k = classes.ofCp(c);
      if (k < 0) {
        if (k === CLASSES_FULL) {
          // Every state's transitions use the classes: both go.
          classes.dropNonAscii();
          states.reset();
        }
        return UNKNOWN;
      }
    }
    let t = trans[(s & rowMask) + k]!;
    if (t < 0) {
      const next = step(dfa, s >> rowShift, k);
      if (next < 0) {
        if (next === FULL) states.reset();
        return UNKNOWN;
      }
      t = states.codeOf(next);
      trans = states.trans;
    }
    s = t;
    if ((s & fin) !== 0) break;
  }
  return endOf(dfa, s >> rowShift);
}

/** States made so far (tests and measurements). */
export function dfaStates(dfa: Dfa): number {
  return dfa.states.size;
}
