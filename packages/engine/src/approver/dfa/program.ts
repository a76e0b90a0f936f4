/**
 * The DFA's program: the rules' re2js programs laid side by side (global program counters), the
 * rules' order (first tier, then last tier: `deny` then `allow` here), and the walk through the moves
 * that read nothing (`Closure`). The other parts of the DFA (`classes.ts`, `finders.ts`,
 * `states.ts`, `../fast-dfa.ts`) read it; it reads nothing of theirs.
 */
import type { RE2JS } from 're2js';
import {
  ALT,
  ALT_MATCH,
  BEGIN_LINE,
  BEGIN_TEXT,
  CAPTURE,
  EMPTY_WIDTH,
  END_LINE,
  END_TEXT,
  FAIL,
  FOLD_CASE,
  MATCH,
  NO_WORD_BOUNDARY,
  NOP,
  progOf,
  readsRune,
  RUNE,
  RUNE1,
  RUNE_ANY,
  RUNE_ANY_NOT_NL,
  WORD_BOUNDARY,
} from '../../regex/re2-program.ts';
import type { Inst, Prog } from '../../regex/re2-program.ts';

/** Programs larger than this (all rules of a tool together) are not run as one DFA. */
export const MAX_DFA_INSTS = 3000;

// Kinds of the character before a position (and after it; `END` only after).
export const K_BEGIN = 0;
export const K_NEWLINE = 1;
export const K_WORD = 2;
export const K_OTHER = 3;
export const K_END = 4;

export function kindOf(cp: number): number {
  if (cp === 10) return K_NEWLINE;
  if ((cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95) return K_WORD;
  return K_OTHER;
}

/** The assertion flags that hold between a character of kind `prev` and one of kind `next`. */
export function context(prev: number, next: number): number {
  let flags = 0;
  if (prev === K_BEGIN) flags |= BEGIN_TEXT | BEGIN_LINE;
  if (prev === K_NEWLINE) flags |= BEGIN_LINE;
  if (next === K_END) flags |= END_TEXT | END_LINE;
  if (next === K_NEWLINE) flags |= END_LINE;
  flags |= (prev === K_WORD) !== (next === K_WORD) ? WORD_BOUNDARY : NO_WORD_BOUNDARY;
  return flags;
}

export interface Program {
  /** Number of first-tier rules; rules `0 … deny-1` are first-tier rules, `deny … deny+allow-1` last-tier ones. */
  readonly deny: number;
  readonly allow: number;
  // The rules' programs, side by side: global program counter → instruction and rule.
  readonly insts: readonly Inst[];
  /** Each global pc's op, and its `out` and `arg` as global pcs (`arg` of an assertion: its flags). */
  readonly op: Uint8Array;
  readonly out: Int32Array;
  readonly arg: Int32Array;
  readonly ruleOf: Int32Array;
  /** Global start of each rule (-1: the rule matches every text). */
  readonly starts: Int32Array;
  /** Rules restarted at every position (not anchored at the start of the text). */
  readonly restartRules: readonly number[];
  /** Global pcs of the rune instructions, for class signatures. */
  readonly runeInsts: readonly number[];
}

/** Whether every match of the program must start at 0 (it begins with `\A` / `^` without `(?m)`). */
function anchoredAtStart(prog: Prog): boolean {
  let pc = prog.start;
  for (let guard = 0; guard < prog.inst.length; guard++) {
    const inst = prog.inst[pc];
    if (inst === undefined) return false;
    if (inst.op === NOP || inst.op === CAPTURE) pc = inst.out;
    else return inst.op === EMPTY_WIDTH && (inst.arg & BEGIN_TEXT) !== 0;
  }
  return false;
}

const SUPPORTED = new Set([ALT, ALT_MATCH, CAPTURE, EMPTY_WIDTH, FAIL, MATCH, NOP, RUNE, RUNE1, RUNE_ANY, RUNE_ANY_NOT_NL]);

/**
 * The program of the rules in order (`null` entries match every text), or `null` when some rule
 * cannot run in it (no re2js program, an instruction it does not know) or the programs together are
 * larger than `MAX_DFA_INSTS`.
 */
export function buildProgram(deny: readonly (RE2JS | null)[], allow: readonly (RE2JS | null)[]): Program | null {
  const all = [...deny, ...allow];
  const insts: Inst[] = [];
  const ruleOfList: number[] = [];
  const starts = new Int32Array(all.length);
  const restartRules: number[] = [];
  const runeInsts: number[] = [];
  // Instructions are re2js's objects, whose `out`/`arg` are local pcs: flat copies hold global ones.
  const op: number[] = [];
  const outG: number[] = [];
  const argG: number[] = [];
  for (let r = 0; r < all.length; r++) {
    const re = all[r];
    if (re === null || re === undefined) {
      starts[r] = -1;
      continue;
    }
    const prog = progOf(re);
    if (prog === null) return null;
    if (insts.length + prog.inst.length > MAX_DFA_INSTS) return null;
    const base = insts.length;
    for (let pc = 0; pc < prog.inst.length; pc++) {
      const inst = prog.inst[pc]!;
      if (!SUPPORTED.has(inst.op)) return null;
      // Case folding applies to single runes only (Go's compiler); anything else is not understood.
      if ((inst.op === RUNE || inst.op === RUNE1) && (inst.arg & FOLD_CASE) !== 0 && inst.runes.length !== 1) return null;
      insts.push(inst);
      ruleOfList.push(r);
      op.push(inst.op);
      outG.push(base + inst.out);
      argG.push(inst.op === ALT || inst.op === ALT_MATCH ? base + inst.arg : inst.arg);
      if (readsRune(inst.op)) runeInsts.push(base + pc);
    }
    starts[r] = base + prog.start;
    if (!anchoredAtStart(prog)) restartRules.push(r);
  }
  return {
    deny: deny.length,
    allow: allow.length,
    insts,
    op: Uint8Array.from(op),
    out: Int32Array.from(outG),
    arg: Int32Array.from(argG),
    ruleOf: Int32Array.from(ruleOfList),
    starts,
    restartRules,
    runeInsts,
  };
}

/** Whether rule `r` matching could still change the answer, given the best rules seen so far. */
export function improves(p: Program, r: number, bd: number, ba: number): boolean {
  return r < p.deny ? r < bd : bd === p.deny && r - p.deny < ba;
}

/** The answer of best rules `bd`, `ba`: a first-tier rule, else `deny +` a last-tier one, else `deny + allow`. */
export function resultOf(p: Program, bd: number, ba: number): number {
  if (bd < p.deny) return bd;
  if (ba < p.allow) return p.deny + ba;
  return p.deny + p.allow;
}

/** `follow` with no assertion settled: they wait in the state. */
export const PENDING = -1;

/**
 * The walk through the moves that read nothing, with its own scratch (a stamp per global pc and a
 * work stack): one per DFA, so no two DFAs share state.
 */
export class Closure {
  private readonly seen: Int32Array;
  private stamp = 0;
  private readonly work: number[] = [];

  constructor(private readonly p: Program) {
    this.seen = new Int32Array(p.insts.length);
  }

  /** A new stamp: every pc is unseen under it. */
  next(): number {
    this.stamp++;
    if (this.stamp > 0x3fffffff) {
      this.seen.fill(0);
      this.stamp = 1;
    }
    return this.stamp;
  }

  /** Marks `g` seen under `stamp`; false when it already was. */
  visit(g: number, stamp: number): boolean {
    if (this.seen[g] === stamp) return false;
    this.seen[g] = stamp;
    return true;
  }

  /** Adds to `out` what global pc `from` reaches without reading a character or passing an assertion. */
  from(from: number, stamp: number, out: number[]): void {
    this.work.length = 0;
    this.work.push(from);
    this.follow(stamp, PENDING, out);
  }

  /** `follow` from each of `pcs`, in order, with the assertions settled by `flags`. */
  fromAll(pcs: Int32Array, stamp: number, flags: number, out: number[]): void {
    const work = this.work;
    work.length = 0;
    for (let i = pcs.length - 1; i >= 0; i--) work.push(pcs[i]!);
    this.follow(stamp, flags, out);
  }

  /**
   * Follows the instructions on the work stack through the moves that read nothing, adding to `out`
   * the runes and matches reached, once each (`stamp`). With `flags` of `PENDING` an assertion stops
   * there and is added too (it waits in the state for the next character); otherwise it is passed when
   * `flags` (the context at this position) satisfy it, and dropped when not.
   */
  private follow(stamp: number, flags: number, out: number[]): void {
    const { op, out: next, arg } = this.p;
    const { seen, work } = this;
    while (work.length > 0) {
      const g = work.pop()!;
      if (seen[g] === stamp) continue;
      seen[g] = stamp;
      switch (op[g]) {
        case ALT:
        case ALT_MATCH:
          work.push(arg[g]!, next[g]!);
          break;
        case NOP:
        case CAPTURE:
          work.push(next[g]!);
          break;
        case EMPTY_WIDTH:
          if (flags === PENDING) out.push(g);
          else if ((arg[g]! & ~flags) === 0) work.push(next[g]!);
          break;
        case FAIL:
          break;
        default:
          out.push(g);
      }
    }
  }
}
