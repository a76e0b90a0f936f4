/**
 * The one reader of re2js's internals (pinned at 2.10.0): the compiled program of a pattern, its
 * instructions and their op codes (src/Prog.js, src/Inst.js), the empty-width flags (src/Utils.js),
 * and the literal facts re2js computes when it compiles (src/RE2.js: `prefix`, `prefixComplete`,
 * the prefilter tree of src/Prefilter.js). Everything else in the engine that looks inside a
 * compiled pattern (the DFA, the literal screens, the case-folding tables) goes through here; a
 * re2js upgrade that moves them breaks this file's test (`re2-program.test.ts`), not a decision.
 */
import type { RE2JS } from 're2js';
import type { CompiledRegex } from './regex.ts';

// Instruction op codes (src/Inst.js).
export const ALT = 1;
export const ALT_MATCH = 2;
export const CAPTURE = 3;
export const EMPTY_WIDTH = 4;
export const FAIL = 5;
export const MATCH = 6;
export const NOP = 7;
export const RUNE = 8;
export const RUNE1 = 9;
export const RUNE_ANY = 10;
export const RUNE_ANY_NOT_NL = 11;

/** The flag of a rune instruction's `arg` that folds case (src/RE2Flags.js). */
export const FOLD_CASE = 1;

// Empty-width assertion flags (src/Utils.js): the `arg` of an `EMPTY_WIDTH` instruction.
export const BEGIN_LINE = 1;
export const END_LINE = 2;
export const BEGIN_TEXT = 4;
export const END_TEXT = 8;
export const WORD_BOUNDARY = 16;
export const NO_WORD_BOUNDARY = 32;

// Prefilter node types (src/Prefilter.js).
export const PF_NONE = 0;
export const PF_EXACT = 1;
export const PF_AND = 2;
export const PF_OR = 3;

/** One instruction: `out` and `arg` are program counters of its program (`arg`: flags or fold bit for some ops). */
export interface Inst {
  readonly op: number;
  readonly out: number;
  readonly arg: number;
  /** Rune instructions: one rune, or sorted inclusive `[lo, hi]` pairs. */
  readonly runes: Int32Array | number[];
  /** Whether the instruction reads code point `r` (rune instructions; folds case itself). */
  matchRune(r: number): boolean;
}

export interface Prog {
  readonly start: number;
  readonly inst: readonly Inst[];
}

export interface Prefilter {
  readonly type: number;
  readonly subs: readonly Prefilter[];
  readonly str: string;
}

/** What re2js keeps of a compiled pattern besides its program. */
export interface Re2Internals {
  readonly prog: Prog;
  readonly prefilter: Prefilter | null;
  /** The whole pattern is the literal `prefix`. */
  readonly prefixComplete: boolean;
  /** The program's leading run of plain characters (`""` or `null`: none). */
  readonly prefix: string | null;
  /** re2js's machine entry: `[matched, …]` (here for an anchored test without captures). */
  matchMachineInput?(input: unknown, start: number, end: number, anchor: number, ngroup: number): [boolean, unknown];
}

/** The internals of a compiled pattern, or `null` when re2js does not expose them as expected. */
export function internalsOf(re: RE2JS): Re2Internals | null {
  const r = (re as unknown as { re2Input?: Re2Internals }).re2Input;
  if (r === undefined || r === null || typeof r !== 'object') return null;
  const prog = r.prog as Prog | undefined | null;
  if (prog === undefined || prog === null || !Array.isArray(prog.inst)) return null;
  return r;
}

/** The program of a compiled pattern, or `null` when it is not exposed. */
export function progOf(re: RE2JS): Prog | null {
  return internalsOf(re)?.prog ?? null;
}

/**
 * The number of instructions of a compiled pattern's re2js program, or `undefined` when the program
 * is not exposed. It is the cost of a decision per input character at worst: when no DFA can hold
 * the text's states, re2js's NFA may step every instruction at every character (~12 ns a step on
 * the benchmark machine when quiet, ~35 ns loaded: 500 instructions are ~6-18 s per megabyte of
 * hostile input).
 */
export function programSize(regex: CompiledRegex): number | undefined {
  const engine = regex.engine;
  return engine === undefined ? undefined : progOf(engine)?.inst.length;
}

/** Whether `inst` reads a character (a rune instruction of any kind). */
export function readsRune(op: number): boolean {
  return op >= RUNE && op <= RUNE_ANY_NOT_NL;
}
