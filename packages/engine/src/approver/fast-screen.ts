/**
 * Literal screens: a check costing one native string search that rules a pattern out without
 * running it. A screen never rejects a subject its regex matches; when it cannot say, it is `run`.
 *
 * Screens are read from what re2js already computed when it compiled the pattern (its program and
 * its prefilter tree: the literals any match must contain), so they are exactly the tests re2js
 * itself would make first, done here without building a matcher input for every rule:
 * - `literal`: the whole pattern is a literal (re2js `prefixComplete`): matches iff the subject
 *   contains it.
 * - `prefix`: the pattern starts with `^` (beginning of text, no `(?m)`) followed by literal
 *   characters: a subject that does not start with them cannot match.
 * - `any`: a match contains one of a few literals (re2js prefilter, case-sensitive parts only).
 * - `run`: nothing cheap is known; the regex runs.
 *
 * This reads re2js internals (pinned at 2.10.0); `fast.test.ts` checks screens against the regex.
 */
import type { RE2JS } from 're2js';

export type Screen =
  | { readonly kind: 'literal'; readonly needle: string }
  | { readonly kind: 'prefix'; readonly prefix: string }
  | { readonly kind: 'any'; readonly needles: readonly string[] }
  | { readonly kind: 'run' };

const RUN: Screen = { kind: 'run' };
/** More needles than this cost more than running the regex. */
const MAX_NEEDLES = 6;

// re2js internals (2.10.0): src/Prefilter.js, src/Inst.js, src/RE2Flags.js, src/Utils.js.
const PF_NONE = 0;
const PF_EXACT = 1;
const PF_AND = 2;
const PF_OR = 3;
const EMPTY_BEGIN_TEXT = 4;
const FOLD_CASE = 1;

interface Prefilter {
  type: number;
  subs: Prefilter[];
  str: string;
}
interface Inst {
  op: number;
  out: number;
  arg: number;
  runes: number[];
}
interface Prog {
  start: number;
  getInst(pc: number): Inst;
}
interface Re2Internals {
  prefilter: Prefilter | null;
  prefixComplete: boolean;
  prefix: string | null;
  prog: Prog;
}

// Inst op codes (src/Inst.js).
const OP_CAPTURE = 3;
const OP_EMPTY_WIDTH = 4;
const OP_NOP = 7;
const OP_RUNE = 8;
const OP_RUNE1 = 9;

function internals(re: RE2JS): Re2Internals | undefined {
  const r = (re as unknown as { re2Input?: Re2Internals }).re2Input;
  if (r === undefined || r === null || typeof r !== 'object' || r.prog === undefined) return undefined;
  return r;
}

function searchable(cp: number): boolean {
  return !(cp === 0xfffd || (cp >= 0xd800 && cp <= 0xdfff));
}

/** The literal a `^`-anchored program must start with, or `""`. */
function anchoredPrefix(prog: Prog): string {
  let pc = prog.start;
  let anchored = false;
  let inst = prog.getInst(pc);
  // Leading no-ops and empty-width assertions; only a plain beginning-of-text anchor is understood.
  for (;;) {
    if (inst.op === OP_NOP || inst.op === OP_CAPTURE) {
      pc = inst.out;
    } else if (inst.op === OP_EMPTY_WIDTH) {
      if (inst.arg !== EMPTY_BEGIN_TEXT) return '';
      anchored = true;
      pc = inst.out;
    } else break;
    inst = prog.getInst(pc);
  }
  if (!anchored) return '';
  let prefix = '';
  for (;;) {
    if (inst.op === OP_NOP || inst.op === OP_CAPTURE) {
      inst = prog.getInst(inst.out);
      continue;
    }
    if ((inst.op !== OP_RUNE && inst.op !== OP_RUNE1) || inst.runes.length !== 1) break;
    if ((inst.arg & FOLD_CASE) !== 0) break;
    const cp = inst.runes[0]!;
    if (!searchable(cp)) break;
    prefix += String.fromCodePoint(cp);
    inst = prog.getInst(inst.out);
  }
  return prefix;
}

/** Literals one of which any match contains, or `null`. */
function needles(pf: Prefilter | null): string[] | null {
  if (pf === null) return null;
  switch (pf.type) {
    case PF_EXACT:
      return pf.str === '' ? null : [pf.str];
    case PF_OR: {
      const all: string[] = [];
      for (const s of pf.subs) {
        const n = needles(s);
        if (n === null) return null;
        all.push(...n);
        if (all.length > MAX_NEEDLES) return null;
      }
      return all.length === 0 ? null : all;
    }
    case PF_AND: {
      let best: string[] | null = null;
      for (const s of pf.subs) {
        const n = needles(s);
        if (n === null) continue;
        if (best === null || score(n) > score(best)) best = n;
      }
      return best;
    }
    case PF_NONE:
    default:
      return null;
  }
}

/** Longer needles reject more subjects; each extra needle costs a search. */
function score(n: readonly string[]): number {
  return Math.min(shortest(n), 12) - 3 * (n.length - 1);
}

function shortest(xs: readonly string[]): number {
  let m = Infinity;
  for (const x of xs) m = Math.min(m, x.length);
  return m;
}

/** The cheapest sound screen for an unanchored search with `re`. */
export function screenFor(re: RE2JS): Screen {
  const r = internals(re);
  if (r === undefined) return RUN;
  if (r.prefixComplete && typeof r.prefix === 'string' && r.prefix !== '') return { kind: 'literal', needle: r.prefix };
  const prefix = anchoredPrefix(r.prog);
  if (prefix !== '') return { kind: 'prefix', prefix };
  const n = needles(r.prefilter);
  if (n !== null) return { kind: 'any', needles: n };
  return RUN;
}

/** Whether `subject` passes `screen` (a `literal` screen that passes is a match). */
export function passes(screen: Screen, subject: string): boolean {
  switch (screen.kind) {
    case 'literal':
      return subject.includes(screen.needle);
    case 'prefix':
      return subject.startsWith(screen.prefix);
    case 'any': {
      const n = screen.needles;
      for (let i = 0; i < n.length; i++) if (subject.includes(n[i]!)) return true;
      return false;
    }
    case 'run':
      return true;
  }
}
