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
 *   there (`finderFor`).
 *
 * Work is bounded: a transition is computed once (cost linear in the states' sets), then it is one
 * table read per character; a call computes at most `MAX_STEPS_PER_CALL` transitions, and a DFA holds
 * at most `MAX_STATES` states (`PLAN_STATES` for all of a plan's DFAs) and `MAX_CLASSES` classes. Past
 * a bound the call answers `UNKNOWN` (a full cache is dropped first) and the caller decides through
 * the per-rule steps: a pathological text costs a bounded amount here and never changes a decision.
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
  RUNE,
  RUNE1,
  RUNE_ANY,
  RUNE_ANY_NOT_NL,
  WORD_BOUNDARY,
} from '../regex/re2-program.ts';
import type { Inst, Prog } from '../regex/re2-program.ts';

/** `runDfa` could not decide within its budget: decide another way. */
export const UNKNOWN = -1;

// Kinds of the character before a position (and after it; `END` only after).
const K_BEGIN = 0;
const K_NEWLINE = 1;
const K_WORD = 2;
const K_OTHER = 3;
const K_END = 4;

/** States kept before the cache is dropped. */
const MAX_STATES = 2048;
/**
 * States all the DFAs of one plan may hold together (a policy may name many tools): ~512 bytes of
 * transitions each, so ~8 MiB of tables. A DFA that would pass it drops its own states.
 */
const PLAN_STATES = 16_384;
/** Program counters held by all states together before the cache is dropped (memory bound). */
const MAX_STATE_PCS = 1 << 20;
/** The same for all the DFAs of one plan: ~16 MiB of `Int32Array`s. */
const PLAN_STATE_PCS = 1 << 22;
/**
 * Transitions one call may compute: past it the call answers `UNKNOWN` (the cache is kept, so the
 * next calls go on filling it). A transition costs time linear in the states' sets (~5-20 µs here):
 * this bounds what one text can cost here before the steps decide it (~1-2 ms).
 */
const MAX_STEPS_PER_CALL = 128;
/** Answers of `step` when no state is made: this call may compute no more; the cache is full. */
const NO_MORE = -1;
const FULL = -2;
/** Classes of code points (the end of text included) a DFA distinguishes. */
const MAX_CLASSES = 96;
/**
 * A transition is the next state's row in `trans` (its id shifted by `ROW_SHIFT`, rows of 128 >
 * `MAX_CLASSES` entries) with two flags in the low bits, so a step is one table read and one test.
 */
const ROW_SHIFT = 7;
const ROW_MASK = ~((1 << ROW_SHIFT) - 1);
/** The state is final: nothing the rest of the text holds changes its answer. */
const FIN = 1;
/** The state is idle and has a finder: the scan may skip ahead. */
const IDLE = 2;
/** Non-ASCII code points whose class is remembered. */
const MAX_CP_CACHE = 8192;
/**
 * Non-ASCII code points one call may classify (each costs one `matchRune` per instruction that can
 * tell non-ASCII code points apart): past it the call answers `UNKNOWN`, so a text of a million
 * distinct characters costs a bounded amount here.
 */
const MAX_NEW_CPS_PER_CALL = 512;
/** Programs larger than this (all rules of a tool together) are not run as one DFA. */
export const MAX_DFA_INSTS = 3000;


/** What all the DFAs of one plan may hold together: states, and instruction references in them. */
export interface StateBudget {
  used: number;
  readonly max: number;
  pcs: number;
  readonly maxPcs: number;
}

/** A fresh budget for one plan's DFAs (`states`: `PLAN_STATES` unless tests say less). */
export function planBudget(states: number = PLAN_STATES): StateBudget {
  return { used: 0, max: states, pcs: 0, maxPcs: PLAN_STATE_PCS };
}

export interface Dfa {
  /** States kept before the cache is dropped (`MAX_STATES`; tests lower it). */
  readonly maxStates: number;
  /** States held by all the DFAs sharing this budget (one plan's), and their bound. */
  readonly budget: StateBudget;
  /** Number of deny rules; results `0 … deny-1` are deny rules, `deny … deny+allow-1` allow rules. */
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
  /**
   * The rune instructions that can tell two non-ASCII code points apart: not a single ASCII rune, not
   * ranges below U+0080, not "any character" (which takes every non-ASCII code point).
   */
  readonly cpInsts: readonly number[];
  /** Non-ASCII code points classified by the current call. */
  cpMade: number;
  /**
   * When every instruction of `cpInsts` accepts a known set of ranges, the code points where one of
   * them changes its answer, sorted: the classes of the intervals between them are cached per
   * interval (`intervalClass`, -1 until made), so no code point needs a class of its own. `null`
   * when some instruction folds a non-ASCII rune (its orbit is re2js's to know): code points are then
   * classified one by one (`cpClass`).
   */
  readonly cpBounds: Int32Array | null;
  readonly intervalClass: Int32Array;
  readonly ascii: Uint8Array;
  /** Classes made for ASCII (and the end of text) when the DFA was built; the rest come and go. */
  asciiClasses: number;
  readonly cpClass: Map<number, number>;
  readonly classKey: Map<string, number>;
  /** A code point of each class (`-1`: the end of text). */
  readonly classRep: number[];
  readonly classKind: number[];
  // The states.
  /** State ids by hash of (pcs, previous kind, best rules). */
  byKey: Map<number, number[]>;
  /** Program counters held by all states. */
  pcsTotal: number;
  /** Transitions computed by the current call. */
  made: number;
  /** The closure of the restarted rules that can still change the answer, by best rules (`bd,ba`). */
  restarts: Map<string, Int32Array>;
  pcs: Int32Array[];
  prev: number[];
  bestDeny: number[];
  bestAllow: number[];
  /** Transitions: `trans[(state << ROW_SHIFT) + class]`, the next state's code (`codeOf`), -1 until computed. */
  trans: Int32Array;
  /** 1 when nothing the rest of the text holds can change the state's answer. */
  fin: Uint8Array;
  /**
   * For an idle state (nothing under way: only the restarted rules, at the current position), a
   * search for the next position where one of them can begin a match; `null` otherwise.
   */
  finder: (RegExp | null)[];
  /** Finders by the set of restarted rules they look for (`null`: some rule has no lead). */
  readonly finders: Map<string, RegExp | null>;
  /** The state's answer at the end of the text (`-2` until computed). */
  endResult: Int32Array;
  start: number;
  /** Scratch for closures: a stamp per global pc. */
  readonly seen: Int32Array;
  stamp: number;
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
 * A DFA for a tool's deny and allow rules in list order (`null` entries match every text), or
 * `null` when some rule cannot run in it (no re2js program, an instruction it does not know) or the
 * programs together are larger than `MAX_DFA_INSTS`.
 */
export function buildDfa(
  deny: readonly (RE2JS | null)[],
  allow: readonly (RE2JS | null)[],
  options: { readonly maxStates?: number; readonly budget?: StateBudget } = {},
): Dfa | null {
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
      if (inst.op >= RUNE && inst.op <= RUNE_ANY_NOT_NL) runeInsts.push(base + pc);
    }
    starts[r] = base + prog.start;
    if (!anchoredAtStart(prog)) restartRules.push(r);
  }
  const cpInsts = distinctInsts(insts, runeInsts.filter((g) => tellsNonAscii(insts[g]!)));
  const cpBounds = boundsOf(cpInsts.map((g) => insts[g]!));
  const dfa: Dfa = {
    maxStates: options.maxStates ?? MAX_STATES,
    budget: options.budget ?? planBudget(),
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
    cpInsts,
    cpMade: 0,
    cpBounds,
    intervalClass: new Int32Array(cpBounds === null ? 0 : cpBounds.length + 1).fill(-1),
    ascii: new Uint8Array(128),
    asciiClasses: 0,
    cpClass: new Map(),
    classKey: new Map(),
    classRep: [-1],
    classKind: [K_END],
    byKey: new Map(),
    pcsTotal: 0,
    made: 0,
    restarts: new Map(),
    pcs: [],
    prev: [],
    bestDeny: [],
    bestAllow: [],
    trans: new Int32Array(0),
    fin: new Uint8Array(0),
    finder: [],
    finders: new Map(),
    endResult: new Int32Array(0),
    start: 0,
    seen: new Int32Array(insts.length),
    stamp: 0,
  };
  if (!asciiClasses(dfa)) return null;
  dfa.asciiClasses = dfa.classRep.length;
  resetStates(dfa);
  return dfa;
}

function kindOf(cp: number): number {
  if (cp === 10) return K_NEWLINE;
  if ((cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95) return K_WORD;
  return K_OTHER;
}

/**
 * ASCII letters whose simple case-folding orbit holds a non-ASCII code point: `k` (U+212A KELVIN
 * SIGN) and `s` (U+017F LONG S); every other ASCII letter folds only with its other case. (A test
 * checks this against re2js over planes 0 and 1, where every cased letter lives.)
 */
const FOLDS_BEYOND_ASCII = new Set([0x4b, 0x6b, 0x53, 0x73]);

/** Whether rune instruction `inst` may accept some non-ASCII code points and not others. */
export function tellsNonAscii(inst: Pick<Inst, 'op' | 'arg' | 'runes'>): boolean {
  if (inst.op === RUNE_ANY || inst.op === RUNE_ANY_NOT_NL) return false;
  const runes = inst.runes;
  if (runes.length === 1) return runes[0]! >= 0x80 || ((inst.arg & FOLD_CASE) !== 0 && FOLDS_BEYOND_ASCII.has(runes[0]!));
  for (let j = 1; j < runes.length; j += 2) if (runes[j]! >= 0x80) return true;
  return false;
}

/**
 * The non-ASCII code points where one of `insts` (rune instructions that can tell non-ASCII code
 * points apart) changes its answer, sorted; `null` when one folds a non-ASCII rune. A folded `k` or
 * `s` also accepts U+212A or U+017F (`FOLDS_BEYOND_ASCII`), and nothing else beyond ASCII.
 */
function boundsOf(insts: readonly Inst[]): Int32Array | null {
  const bounds: number[] = [];
  const around = (lo: number, hi: number) => {
    if (hi < 0x80) return;
    bounds.push(Math.max(lo, 0x80), hi + 1);
  };
  for (const inst of insts) {
    const runes = inst.runes;
    if (runes.length === 1 && (inst.arg & FOLD_CASE) !== 0) {
      const r = runes[0]!;
      if (r >= 0x80) return null;
      const lower = r | 0x20;
      if (lower === 0x6b) around(0x212a, 0x212a);
      else if (lower === 0x73) around(0x17f, 0x17f);
      else return null; // not in `cpInsts` (FOLDS_BEYOND_ASCII); refuse rather than guess
    } else if (runes.length === 1) around(runes[0]!, runes[0]!);
    else for (let j = 0; j + 1 < runes.length; j += 2) around(runes[j]!, runes[j + 1]!);
  }
  return Int32Array.from(new Set(bounds)).sort();
}

/** One instruction of each behaviour among `pcs` (same op, fold flag and runes). */
function distinctInsts(insts: readonly Inst[], pcs: readonly number[]): number[] {
  const seen = new Set<string>();
  return pcs.filter((g) => {
    const inst = insts[g]!;
    const key = `${inst.op}:${inst.arg & FOLD_CASE}:${inst.runes.join(',')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The class of non-ASCII `cp`, made on first sight; -1 when the DFA has as many classes as it can
 * hold. Every other instruction answers alike for all non-ASCII code points (which are all of kind
 * "other"), so the instructions of `cpInsts` decide the class.
 */
function classOfNew(dfa: Dfa, cp: number): number {
  let key = 'N';
  for (const g of dfa.cpInsts) key += dfa.insts[g]!.matchRune(cp) ? '1' : '0';
  let k = dfa.classKey.get(key);
  if (k === undefined) {
    if (dfa.classRep.length >= MAX_CLASSES) return -1;
    k = dfa.classRep.length;
    dfa.classRep.push(cp);
    dfa.classKind.push(kindOf(cp));
    dfa.classKey.set(key, k);
  }
  return k;
}

/**
 * The ASCII characters rune instruction `inst` accepts. Read off its ranges (folded single runes
 * ask `matchRune`, which knows the fold orbits): building a DFA must not cost 128 calls per instruction.
 */
function asciiAccepted(inst: Inst): number[] {
  const out: number[] = [];
  if (inst.op === RUNE_ANY || inst.op === RUNE_ANY_NOT_NL) {
    for (let c = 0; c < 128; c++) if (inst.op === RUNE_ANY || c !== 10) out.push(c);
    return out;
  }
  const runes = inst.runes;
  if (runes.length === 1 && (inst.arg & FOLD_CASE) !== 0) {
    for (let c = 0; c < 128; c++) if (inst.matchRune(c)) out.push(c);
    return out;
  }
  if (runes.length === 1) return runes[0]! < 128 ? [runes[0]!] : [];
  for (let j = 0; j + 1 < runes.length; j += 2) for (let c = runes[j]!; c <= runes[j + 1]! && c < 128; c++) out.push(c);
  return out;
}

/**
 * The classes of the 128 ASCII characters: characters every rune instruction treats alike (and of the
 * same kind for assertions) share one. Built by refinement, each distinct instruction splitting the
 * classes into what it accepts and what it does not. False when there are too many.
 */
function asciiClasses(dfa: Dfa): boolean {
  const cls = new Int32Array(128);
  for (let c = 0; c < 128; c++) cls[c] = kindOf(c);
  const accepted = new Uint8Array(128);
  const remap = new Int32Array(2 * 128);
  const done = new Set<string>();
  for (const g of dfa.runeInsts) {
    const inst = dfa.insts[g]!;
    const key = `${inst.op}:${inst.arg & FOLD_CASE}:${inst.runes.join(',')}`;
    if (done.has(key)) continue;
    done.add(key);
    accepted.fill(0);
    for (const c of asciiAccepted(inst)) accepted[c] = 1;
    remap.fill(-1);
    let next = 0;
    for (let c = 0; c < 128; c++) {
      const split = cls[c]! * 2 + accepted[c]!;
      let id = remap[split]!;
      if (id < 0) {
        id = next++;
        remap[split] = id;
      }
      cls[c] = id;
    }
  }
  const ids = new Map<number, number>();
  for (let c = 0; c < 128; c++) {
    let k = ids.get(cls[c]!);
    if (k === undefined) {
      if (dfa.classRep.length >= MAX_CLASSES) return false;
      k = dfa.classRep.length;
      dfa.classRep.push(c);
      dfa.classKind.push(kindOf(c));
      ids.set(cls[c]!, k);
    }
    dfa.ascii[c] = k;
  }
  return true;
}

/** The class of non-ASCII `cp`; -1 when the classes are full, -2 when this call may classify no more. */
function classOfCp(dfa: Dfa, cp: number): number {
  const bounds = dfa.cpBounds;
  if (bounds !== null) {
    // The interval of `cp`: the number of bounds at or below it.
    let lo = 0;
    let hi = bounds.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bounds[mid]! <= cp) lo = mid + 1;
      else hi = mid;
    }
    let k = dfa.intervalClass[lo]!;
    if (k < 0) {
      k = classOfNew(dfa, cp);
      if (k < 0) return -1;
      dfa.intervalClass[lo] = k;
    }
    return k;
  }
  const k = dfa.cpClass.get(cp);
  if (k !== undefined) return k;
  if (dfa.cpMade >= MAX_NEW_CPS_PER_CALL) return -2;
  dfa.cpMade++;
  const made = classOfNew(dfa, cp);
  if (made < 0) return -1;
  if (dfa.cpClass.size >= MAX_CP_CACHE) dfa.cpClass.clear();
  dfa.cpClass.set(cp, made);
  return made;
}

/** Drops the classes of non-ASCII code points, and so every state (their transitions use them). */
function resetClasses(dfa: Dfa): void {
  const keep = dfa.asciiClasses;
  for (const [key, k] of dfa.classKey) if (k >= keep) dfa.classKey.delete(key);
  dfa.classRep.length = keep;
  dfa.classKind.length = keep;
  dfa.cpClass.clear();
  dfa.intervalClass.fill(-1);
  resetStates(dfa);
}

/** Drops every state and makes the start state again. */
function resetStates(dfa: Dfa): void {
  dfa.budget.used -= dfa.pcs.length;
  dfa.budget.pcs -= dfa.pcsTotal;
  dfa.byKey = new Map();
  dfa.pcsTotal = 0;
  dfa.made = 0;
  dfa.pcs = [];
  dfa.prev = [];
  dfa.bestDeny = [];
  dfa.bestAllow = [];
  dfa.trans = new Int32Array(8 << ROW_SHIFT).fill(-1);
  dfa.fin = new Uint8Array(8);
  dfa.finder = [];
  dfa.endResult = new Int32Array(8).fill(-2);
  // The start state: every rule's program at position 0; rules that match every text have matched.
  let bd = dfa.deny;
  let ba = dfa.allow;
  for (let r = 0; r < dfa.starts.length; r++) {
    if (dfa.starts[r]! >= 0) continue;
    if (r < dfa.deny) bd = Math.min(bd, r);
    else ba = Math.min(ba, r - dfa.deny);
  }
  const out: number[] = [];
  const stamp = nextStamp(dfa);
  for (let r = 0; r < dfa.starts.length; r++) if (dfa.starts[r]! >= 0 && improves(dfa, r, bd, ba)) closure(dfa, dfa.starts[r]!, stamp, out);
  dfa.start = stateFor(dfa, out, K_BEGIN, bd, ba, true);
}

function nextStamp(dfa: Dfa): number {
  dfa.stamp++;
  if (dfa.stamp > 0x3fffffff) {
    dfa.seen.fill(0);
    dfa.stamp = 1;
  }
  return dfa.stamp;
}

/** Whether rule `r` matching could still change the answer, given the best rules seen so far. */
function improves(dfa: Dfa, r: number, bd: number, ba: number): boolean {
  return r < dfa.deny ? r < bd : bd === dfa.deny && r - dfa.deny < ba;
}

/** Work stack of `closure` and `expand` (one DFA step runs at a time). */
const work: number[] = [];

/** `follow` with no assertion settled: they wait in the state. */
const PENDING = -1;

/**
 * Follows the instructions on the work stack through the moves that read nothing, adding to `out`
 * the runes and matches reached, once each (`stamp`). With `flags` of `PENDING` an assertion stops
 * there and is added too (it waits in the state for the next character); otherwise it is passed when
 * `flags` (the context at this position) satisfy it, and dropped when not.
 */
function follow(dfa: Dfa, stamp: number, flags: number, out: number[]): void {
  const { op, seen } = dfa;
  while (work.length > 0) {
    const g = work.pop()!;
    if (seen[g] === stamp) continue;
    seen[g] = stamp;
    switch (op[g]) {
      case ALT:
      case ALT_MATCH:
        work.push(dfa.arg[g]!, dfa.out[g]!);
        break;
      case NOP:
      case CAPTURE:
        work.push(dfa.out[g]!);
        break;
      case EMPTY_WIDTH:
        if (flags === PENDING) out.push(g);
        else if ((dfa.arg[g]! & ~flags) === 0) work.push(dfa.out[g]!);
        break;
      case FAIL:
        break;
      default:
        out.push(g);
    }
  }
}

/** Adds to `out` what global pc `from` reaches without reading a character or passing an assertion. */
function closure(dfa: Dfa, from: number, stamp: number, out: number[]): void {
  work.length = 0;
  work.push(from);
  follow(dfa, stamp, PENDING, out);
}

function stateHash(pcs: Int32Array, prev: number, bd: number, ba: number): number {
  let h = Math.imul(prev + 1, 0x9e3779b1) ^ Math.imul(bd + 1, 0x85ebca6b) ^ Math.imul(ba + 1, 0xc2b2ae35);
  for (let j = 0; j < pcs.length; j++) h = Math.imul(h ^ pcs[j]!, 0x01000193);
  return h;
}

function sameState(dfa: Dfa, id: number, pcs: Int32Array, prev: number, bd: number, ba: number): boolean {
  if (dfa.prev[id] !== prev || dfa.bestDeny[id] !== bd || dfa.bestAllow[id] !== ba) return false;
  const have = dfa.pcs[id]!;
  if (have.length !== pcs.length) return false;
  for (let j = 0; j < pcs.length; j++) if (have[j] !== pcs[j]) return false;
  return true;
}

/** The closure of the restarted rules that can still change the answer given the best rules so far. */
function restartClosure(dfa: Dfa, bd: number, ba: number): Int32Array {
  const key = `${bd},${ba}`;
  let pcs = dfa.restarts.get(key);
  if (pcs === undefined) {
    const out: number[] = [];
    const stamp = nextStamp(dfa);
    for (const r of dfa.restartRules) if (improves(dfa, r, bd, ba)) closure(dfa, dfa.starts[r]!, stamp, out);
    pcs = Int32Array.from(out).sort();
    if (dfa.restarts.size >= 64) dfa.restarts.clear();
    dfa.restarts.set(key, pcs);
  }
  return pcs;
}

/**
 * The id of the state (made if new); `FULL` when it is new and the cache holds no more. The start
 * state (`start`) is always made: a plan's budget may be passed by one state per DFA.
 */
function stateFor(dfa: Dfa, pcsIn: readonly number[], prevIn: number, bd: number, ba: number, start = false): number {
  // A typed array sorts numerically without calling back into JavaScript.
  const pcs = Int32Array.from(pcsIn).sort();
  let assertions = false;
  for (const g of pcs) if (dfa.op[g] === EMPTY_WIDTH) assertions = true;
  // The previous character matters only to assertions.
  const prev = assertions ? prevIn : K_OTHER;
  const hash = stateHash(pcs, prev, bd, ba);
  const bucket = dfa.byKey.get(hash);
  if (bucket !== undefined) for (const known of bucket) if (sameState(dfa, known, pcs, prev, bd, ba)) return known;
  const id = dfa.pcs.length;
  // The start state is always made (bounds are checked before it: it is the first of its cache).
  const budget = dfa.budget;
  if (!start && (id >= dfa.maxStates || dfa.pcsTotal + pcs.length > MAX_STATE_PCS || budget.used >= budget.max || budget.pcs + pcs.length > budget.maxPcs)) {
    return FULL;
  }
  dfa.pcsTotal += pcs.length;
  budget.used++;
  budget.pcs += pcs.length;
  if (id << ROW_SHIFT >= dfa.trans.length) {
    const trans = new Int32Array(dfa.trans.length * 2).fill(-1);
    trans.set(dfa.trans);
    dfa.trans = trans;
    const fin = new Uint8Array(dfa.fin.length * 2);
    fin.set(dfa.fin);
    dfa.fin = fin;
    const end = new Int32Array(dfa.endResult.length * 2).fill(-2);
    end.set(dfa.endResult);
    dfa.endResult = end;
  }
  if (bucket === undefined) dfa.byKey.set(hash, [id]);
  else bucket.push(id);
  dfa.pcs.push(pcs);
  dfa.prev.push(prev);
  dfa.bestDeny.push(bd);
  dfa.bestAllow.push(ba);
  // Final: the first deny rule matched, or nothing is alive and nothing restarts.
  let alive = pcs.length > 0;
  if (!alive) for (const r of dfa.restartRules) if (improves(dfa, r, bd, ba)) alive = true;
  dfa.fin[id] = (bd === 0 && dfa.deny > 0) || !alive ? 1 : 0;
  dfa.finder.push(dfa.fin[id] === 1 ? null : idleFinder(dfa, pcs, bd, ba));
  return id;
}

function context(prev: number, next: number): number {
  let flags = 0;
  if (prev === K_BEGIN) flags |= BEGIN_TEXT | BEGIN_LINE;
  if (prev === K_NEWLINE) flags |= BEGIN_LINE;
  if (next === K_END) flags |= END_TEXT | END_LINE;
  if (next === K_NEWLINE) flags |= END_LINE;
  flags |= (prev === K_WORD) !== (next === K_WORD) ? WORD_BOUNDARY : NO_WORD_BOUNDARY;
  return flags;
}

/**
 * Passes the assertions of state `s` that hold before a character of kind `nextKind`: the rune
 * instructions then alive go to `runes`; returns the best deny and allow rules once the matches
 * found here are counted.
 */
function expand(dfa: Dfa, s: number, nextKind: number, runes: number[]): [number, number] {
  let bd = dfa.bestDeny[s]!;
  let ba = dfa.bestAllow[s]!;
  const pcs = dfa.pcs[s]!;
  work.length = 0;
  for (let i = pcs.length - 1; i >= 0; i--) work.push(pcs[i]!);
  const reached: number[] = [];
  follow(dfa, nextStamp(dfa), context(dfa.prev[s]!, nextKind), reached);
  for (const g of reached) {
    if (dfa.op[g] !== MATCH) runes.push(g);
    else {
      const r = dfa.ruleOf[g]!;
      if (r < dfa.deny) bd = Math.min(bd, r);
      else ba = Math.min(ba, r - dfa.deny);
    }
  }
  return [bd, ba];
}

/** The transition of state `s` on class `k`: the next state's id, or `NO_MORE` / `FULL`. */
function step(dfa: Dfa, s: number, k: number): number {
  if (dfa.made >= MAX_STEPS_PER_CALL) return NO_MORE;
  dfa.made++;
  const runes: number[] = [];
  const [bd, ba] = expand(dfa, s, dfa.classKind[k]!, runes);
  const restart = restartClosure(dfa, bd, ba); // before the stamp below: it may take one of its own
  const cp = dfa.classRep[k]!;
  const out: number[] = [];
  const stamp = nextStamp(dfa);
  const { op, seen } = dfa;
  for (const g of runes) {
    if (!improves(dfa, dfa.ruleOf[g]!, bd, ba)) continue;
    const o = op[g];
    const ok = o === RUNE_ANY || (o === RUNE_ANY_NOT_NL ? cp !== 10 : dfa.insts[g]!.matchRune(cp));
    if (ok) closure(dfa, dfa.out[g]!, stamp, out);
  }
  for (const g of restart) {
    if (seen[g] === stamp) continue;
    seen[g] = stamp;
    out.push(g);
  }
  const next = stateFor(dfa, out, dfa.classKind[k]!, bd, ba);
  if (next >= 0) dfa.trans[(s << ROW_SHIFT) + k] = codeOf(dfa, next);
  return next;
}

function resultOf(dfa: Dfa, bd: number, ba: number): number {
  if (bd < dfa.deny) return bd;
  if (ba < dfa.allow) return dfa.deny + ba;
  return dfa.deny + dfa.allow;
}

function endOf(dfa: Dfa, s: number): number {
  let res = dfa.endResult[s]!;
  if (res === -2) {
    if (dfa.fin[s] === 1) res = resultOf(dfa, dfa.bestDeny[s]!, dfa.bestAllow[s]!);
    else {
      const [bd, ba] = expand(dfa, s, K_END, []);
      res = resultOf(dfa, bd, ba);
    }
    dfa.endResult[s] = res;
  }
  return res;
}

/**
 * The first matching rule for `text` (lone surrogates read as U+FFFD, as `wellFormed` makes them): `k < deny` is deny rule `k`, `deny + k` allow rule
 * `k`, `deny + allow` none; `UNKNOWN` when the DFA ran out of room (its states were dropped).
 */
export function runDfa(dfa: Dfa, text: string): number {
  const ascii = dfa.ascii;
  let trans = dfa.trans;
  let s = codeOf(dfa, dfa.start);
  if ((s & FIN) !== 0) return endOf(dfa, s >> ROW_SHIFT);
  dfa.made = 0;
  dfa.cpMade = 0;
  const n = text.length;
  // Jumps taken and characters they skipped: when jumps skip little, stop looking for them.
  let jumps = 0;
  let skipped = 0;
  let skipping = true;
  /** Where the last search's match ended: none of the finder's leads begins before it. */
  let searched = 0;
  for (let i = 0; i < n; i++) {
    if ((s & IDLE) !== 0 && skipping && i >= searched) {
      const f = dfa.finder[s >> ROW_SHIFT]!;
      f.lastIndex = i;
      // The next possible start is at `lastIndex - LEAD_UNITS` or after; the scan resumes one
      // character before it, from this state (the last character when nothing can start). No lead
      // begins before the match found, so no search is needed again until the scan passes it.
      let to = n - 1;
      if (f.test(text)) {
        searched = f.lastIndex;
        to = searched - LEAD_UNITS - 1;
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
      k = classOfCp(dfa, c);
      if (k < 0) {
        if (k === -1) resetClasses(dfa);
        return UNKNOWN;
      }
    }
    let t = trans[(s & ROW_MASK) + k]!;
    if (t < 0) {
      const next = step(dfa, s >> ROW_SHIFT, k);
      if (next < 0) {
        if (next === FULL) resetStates(dfa);
        return UNKNOWN;
      }
      t = codeOf(dfa, next);
      trans = dfa.trans;
    }
    s = t;
    if ((s & FIN) !== 0) break;
  }
  return endOf(dfa, s >> ROW_SHIFT);
}

/** A state's code in `trans`: its row and its flags. */
function codeOf(dfa: Dfa, id: number): number {
  return (id << ROW_SHIFT) | (dfa.fin[id] === 1 ? FIN : 0) | (dfa.finder[id] !== null && dfa.finder[id] !== undefined ? IDLE : 0);
}

/** States made so far (tests and measurements). */
export function dfaStates(dfa: Dfa): number {
  return dfa.pcs.length;
}

// ---- skipping ahead --------------------------------------------------------------------------------

/** Characters of each rule's leads: a finder looks for the first `LEAD_DEPTH` characters of a match. */
const LEAD_DEPTH = 3;
/** More lead paths than this for one rule, and the rule's leads are cut one character shorter. */
const MAX_LEAD_PATHS = 16;
/** Finders (compiled RegExps) one DFA keeps. */
const MAX_FINDERS = 64;
/** Steps of the walk for one rule's leads (each depth tried); past it the rule has none. */
const MAX_LEAD_WALK = 2048;
/** The most UTF-16 code units a finder's match spans. */
const LEAD_UNITS = 2 * LEAD_DEPTH;
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
function leadPaths(dfa: Dfa, r: number, depth: number): string[][] | null {
  const paths = new Map<string, string[]>();
  let ok = true;
  // Alternatives that read nothing multiply the ways to one path (`(?:a?){500}b` has ~500^3 to its
  // first three characters): past this many steps of the walk the rule gets no leads.
  let steps = MAX_LEAD_WALK;
  // Instructions on the current run of moves that read nothing, marked with the run's number: a
  // loop among them adds no path. Unmarked on the way back, so sibling branches may pass them.
  const onRun = new Int32Array(dfa.insts.length);
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
    const op = dfa.op[g];
    switch (op) {
      case ALT:
      case ALT_MATCH:
      case NOP:
      case CAPTURE:
      case EMPTY_WIDTH: {
        if (onRun[g] === run) return; // a loop that reads nothing adds no path
        onRun[g] = run;
        walk(dfa.out[g]!, acc, n, run);
        if (op === ALT || op === ALT_MATCH) walk(dfa.arg[g]!, acc, n, run);
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
        const c = classSource(dfa.insts[g]!);
        if (c === null) ok = false;
        else walk(dfa.out[g]!, [...acc, c], n + 1, ++runs);
      }
    }
  };
  walk(dfa.starts[r]!, [], 0, ++runs);
  return ok ? [...paths.values()] : null;
}

/**
 * A search for the next position where one of `rules` can begin a match: the alternation of their
 * lead paths, or `null` when some rule has none. A backtracking matcher may try every alternative at
 * every position, so the alternation is kept to `MAX_FINDER_COST` classes in all (shorter leads when
 * longer ones would cost more; at one character, one class for all): the search costs at most that
 * many class tests per character of any text.
 */
function finderFor(dfa: Dfa, rules: readonly number[]): RegExp | null {
  const key = rules.join(',');
  if (dfa.finders.has(key)) return dfa.finders.get(key)!;
  // Each set of rules still able to change the answer has its own finder: a text that matches rules
  // in many orders would make many. Past this many, idle states just step (no search, same answers).
  if (dfa.finders.size >= MAX_FINDERS) return null;
  let src: string | null = null;
  for (let depth = LEAD_DEPTH; depth >= 1 && src === null; depth--) {
    const paths = new Map<string, string[]>();
    for (const r of rules) {
      let own: string[][] | null = null;
      for (let d = depth; d >= 1 && own === null; d--) own = leadPaths(dfa, r, d);
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
  dfa.finders.set(key, finder);
  return finder;
}

/**
 * The finder of a state whose set is exactly the restarted rules' starts (nothing under way), else
 * `null`. From such a state, positions where no restarted rule can begin a match change nothing but
 * the previous character, so the scan may jump to the character before the next possible start.
 */
function idleFinder(dfa: Dfa, pcs: Int32Array, bd: number, ba: number): RegExp | null {
  const idle = restartClosure(dfa, bd, ba);
  if (idle.length === 0 || idle.length !== pcs.length) return null;
  for (let j = 0; j < idle.length; j++) if (idle[j] !== pcs[j]) return null;
  return finderFor(
    dfa,
    dfa.restartRules.filter((r) => improves(dfa, r, bd, ba)),
  );
}
