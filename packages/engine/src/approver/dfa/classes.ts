/**
 * The DFA's class map: code points every rune instruction of the program treats alike (and of the
 * same kind for assertions) share a class, so a state's transitions are a row of classes. ASCII
 * classes are computed when the map is built; other code points get theirs on first sight, by the
 * interval they fall in between the points where a rule's ranges change (one binary search), or one
 * by one when a rule folds a non-ASCII rune (bounded cache). Reads the program (`program.ts`) only.
 */
import { FOLD_CASE, RUNE_ANY, RUNE_ANY_NOT_NL } from '../../regex/re2-program.ts';
import type { Inst } from '../../regex/re2-program.ts';
import { K_END, kindOf } from './program.ts';
import type { Program } from './program.ts';

/** Classes of code points (the end of text included) a DFA distinguishes. */
export const MAX_CLASSES = 96;
/** Non-ASCII code points whose class is remembered. */
const MAX_CP_CACHE = 8192;
/**
 * Non-ASCII code points one call may classify (each costs one `matchRune` per instruction that can
 * tell non-ASCII code points apart): past it the call answers "unknown", so a text of a million
 * distinct characters costs a bounded amount here.
 */
const MAX_NEW_CPS_PER_CALL = 512;

/** `classOf` answers: the classes are full (drop them); this call may classify no more. */
export const CLASSES_FULL = -1;
export const NO_MORE_CPS = -2;

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

/** An instruction's behaviour: op, fold flag and runes. */
function behaviour(inst: Inst): string {
  return `${inst.op}:${inst.arg & FOLD_CASE}:${inst.runes.join(',')}`;
}

/** One instruction of each behaviour among `pcs`. */
function distinctInsts(insts: readonly Inst[], pcs: readonly number[]): number[] {
  const seen = new Set<string>();
  return pcs.filter((g) => {
    const key = behaviour(insts[g]!);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
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

export class ClassMap {
  /** The class of each ASCII character. */
  readonly ascii = new Uint8Array(128);
  /** A code point of each class (`-1`: the end of text, class 0). */
  readonly rep: number[] = [-1];
  /** The kind of each class's code points (for assertions). */
  readonly kind: number[] = [K_END];
  /** Classes made for ASCII (and the end of text) when the map was built; the rest come and go. */
  private asciiClasses = 0;
  /**
   * The rune instructions that can tell two non-ASCII code points apart: not a single ASCII rune, not
   * ranges below U+0080, not "any character" (which takes every non-ASCII code point).
   */
  private readonly cpInsts: readonly number[];
  /**
   * When every instruction of `cpInsts` accepts a known set of ranges, the code points where one of
   * them changes its answer, sorted: the classes of the intervals between them are cached per
   * interval (`intervalClass`, -1 until made), so no code point needs a class of its own. `null`
   * when some instruction folds a non-ASCII rune (its orbit is re2js's to know): code points are then
   * classified one by one (`cpClass`).
   */
  private readonly cpBounds: Int32Array | null;
  private readonly intervalClass: Int32Array;
  private readonly cpClass = new Map<number, number>();
  private readonly byKey = new Map<string, number>();
  /** Non-ASCII code points classified by the current call. */
  private cpMade = 0;

  private constructor(private readonly p: Program) {
    this.cpInsts = distinctInsts(p.insts, p.runeInsts.filter((g) => tellsNonAscii(p.insts[g]!)));
    this.cpBounds = boundsOf(this.cpInsts.map((g) => p.insts[g]!));
    this.intervalClass = new Int32Array(this.cpBounds === null ? 0 : this.cpBounds.length + 1).fill(-1);
  }

  /** The class map of `p`, or `null` when ASCII alone needs more than `MAX_CLASSES` classes. */
  static build(p: Program): ClassMap | null {
    const map = new ClassMap(p);
    if (!map.makeAscii()) return null;
    map.asciiClasses = map.rep.length;
    return map;
  }

  /** A new call begins: it may classify `MAX_NEW_CPS_PER_CALL` new code points. */
  beginCall(): void {
    this.cpMade = 0;
  }

  /**
   * The classes of the 128 ASCII characters, by refinement, each distinct instruction splitting the
   * classes into what it accepts and what it does not. False when there are too many.
   */
  private makeAscii(): boolean {
    const cls = new Int32Array(128);
    for (let c = 0; c < 128; c++) cls[c] = kindOf(c);
    const accepted = new Uint8Array(128);
    const remap = new Int32Array(2 * 128);
    const done = new Set<string>();
    for (const g of this.p.runeInsts) {
      const inst = this.p.insts[g]!;
      const key = behaviour(inst);
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
        if (this.rep.length >= MAX_CLASSES) return false;
        k = this.rep.length;
        this.rep.push(c);
        this.kind.push(kindOf(c));
        ids.set(cls[c]!, k);
      }
      this.ascii[c] = k;
    }
    return true;
  }

  /**
   * The class of non-ASCII `cp`, made on first sight; -1 when the map has as many classes as it can
   * hold. Every other instruction answers alike for all non-ASCII code points (which are all of kind
   * "other"), so the instructions of `cpInsts` decide the class.
   */
  private classOfNew(cp: number): number {
    let key = 'N';
    for (const g of this.cpInsts) key += this.p.insts[g]!.matchRune(cp) ? '1' : '0';
    let k = this.byKey.get(key);
    if (k === undefined) {
      if (this.rep.length >= MAX_CLASSES) return CLASSES_FULL;
      k = this.rep.length;
      this.rep.push(cp);
      this.kind.push(kindOf(cp));
      this.byKey.set(key, k);
    }
    return k;
  }

  /** The class of non-ASCII `cp`; `CLASSES_FULL` or `NO_MORE_CPS` when it cannot be had. */
  ofCp(cp: number): number {
    const bounds = this.cpBounds;
    if (bounds !== null) {
      // The interval of `cp`: the number of bounds at or below it.
      let lo = 0;
      let hi = bounds.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (bounds[mid]! <= cp) lo = mid + 1;
        else hi = mid;
      }
      let k = this.intervalClass[lo]!;
      if (k < 0) {
        k = this.classOfNew(cp);
        if (k < 0) return CLASSES_FULL;
        this.intervalClass[lo] = k;
      }
      return k;
    }
    const k = this.cpClass.get(cp);
    if (k !== undefined) return k;
    if (this.cpMade >= MAX_NEW_CPS_PER_CALL) return NO_MORE_CPS;
    this.cpMade++;
    const made = this.classOfNew(cp);
    if (made < 0) return CLASSES_FULL;
    if (this.cpClass.size >= MAX_CP_CACHE) this.cpClass.clear();
    this.cpClass.set(cp, made);
    return made;
  }

  /** Drops the classes of non-ASCII code points (every state's transitions use them: drop those too). */
  dropNonAscii(): void {
    const keep = this.asciiClasses;
    for (const [key, k] of this.byKey) if (k >= keep) this.byKey.delete(key);
    this.rep.length = keep;
    this.kind.length = keep;
    this.cpClass.clear();
    this.intervalClass.fill(-1);
  }
}
