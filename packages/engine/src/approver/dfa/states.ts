/**
 * The DFA's state cache: states made as the text asks for them, their transition table, and the
 * bounds on them. A state is the set of program counters alive at a position, the previous
 * character's kind (only when the set holds an assertion), and the best first-tier and last-tier
 * rules seen to match so far. Reads the program, its closure walk and the finders.
 */
import { EMPTY_WIDTH } from '../../regex/re2-program.ts';
import type { Finders } from './finders.ts';
import { improves, K_BEGIN, K_OTHER } from './program.ts';
import type { Closure, Program } from './program.ts';

/** States kept before the cache is dropped. */
export const MAX_STATES = 2048;
/**
 * States all the DFAs of one plan may hold together (a policy may name many tools): ~512 bytes of
 * transitions each, so ~8 MiB of tables. A DFA that would pass it drops its own states.
 */
const PLAN_STATES = 16_384;
/** Program counters held by all states together before the cache is dropped (memory bound). */
const MAX_STATE_PCS = 1 << 20;
/** The same for all the DFAs of one plan: ~16 MiB of `Int32Array`s. */
const PLAN_STATE_PCS = 1 << 22;
/** `stateFor`'s answer when the state is new and the cache holds no more. */
export const FULL = -2;
/**
 * A transition is the next state's row in `trans` (its id shifted by `ROW_SHIFT`, rows of 128 >
 * `MAX_CLASSES` entries) with two flags in the low bits, so a step is one table read and one test.
 */
export const ROW_SHIFT = 7;
export const ROW_MASK = ~((1 << ROW_SHIFT) - 1);
/** The state is final: nothing the rest of the text holds changes its answer. */
export const FIN = 1;
/** The state is idle and has a finder: the scan may skip ahead. */
export const IDLE = 2;

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

function stateHash(pcs: Int32Array, prev: number, bd: number, ba: number): number {
  let h = Math.imul(prev + 1, 0x9e3779b1) ^ Math.imul(bd + 1, 0x85ebca6b) ^ Math.imul(ba + 1, 0xc2b2ae35);
  for (let j = 0; j < pcs.length; j++) h = Math.imul(h ^ pcs[j]!, 0x01000193);
  return h;
}

export class StateCache {
  /** State ids by hash of (pcs, previous kind, best rules). */
  private byKey = new Map<number, number[]>();
  /** Program counters held by all states. */
  private pcsTotal = 0;
  /** The closure of the restarted rules that can still change the answer, by best rules (`bd,ba`). */
  private readonly restarts = new Map<string, Int32Array>();
  pcs: Int32Array[] = [];
  prev: number[] = [];
  bestDeny: number[] = [];
  bestAllow: number[] = [];
  /** Transitions: `trans[(state << ROW_SHIFT) + class]`, the next state's code (`codeOf`), -1 until computed. */
  trans = new Int32Array(0);
  /** 1 when nothing the rest of the text holds can change the state's answer. */
  fin = new Uint8Array(0);
  /**
   * For an idle state (nothing under way: only the restarted rules, at the current position), a
   * search for the next position where one of them can begin a match; `null` otherwise.
   */
  finder: (RegExp | null)[] = [];
  /** The state's answer at the end of the text (`-2` until computed). */
  endResult = new Int32Array(0);
  /** The start state, and its code (`codeOf(start)`, kept up to date: read at every call). */
  start = 0;
  startCode = 0;

  constructor(
    private readonly p: Program,
    private readonly closure: Closure,
    private readonly finders: Finders,
    /** States kept before the cache is dropped (`MAX_STATES`; tests lower it). */
    private readonly maxStates: number,
    /** States held by all the DFAs sharing this budget (one plan's), and their bound. */
    private readonly budget: StateBudget,
  ) {
    this.reset();
  }

  /** States made so far. */
  get size(): number {
    return this.pcs.length;
  }

  /** Program counters held by all states (what they count against the budget). */
  get heldPcs(): number {
    return this.pcsTotal;
  }

  /** Drops every state and makes the start state again. */
  reset(): void {
    const p = this.p;
    this.budget.used -= this.pcs.length;
    this.budget.pcs -= this.pcsTotal;
    this.byKey = new Map();
    this.pcsTotal = 0;
    this.pcs = [];
    this.prev = [];
    this.bestDeny = [];
    this.bestAllow = [];
    this.trans = new Int32Array(8 << ROW_SHIFT).fill(-1);
    this.fin = new Uint8Array(8);
    this.finder = [];
    this.endResult = new Int32Array(8).fill(-2);
    // The start state: every rule's program at position 0; rules that match every text have matched.
    let bd = p.deny;
    let ba = p.allow;
    for (let r = 0; r < p.starts.length; r++) {
      if (p.starts[r]! >= 0) continue;
      if (r < p.deny) bd = Math.min(bd, r);
      else ba = Math.min(ba, r - p.deny);
    }
    const out: number[] = [];
    const stamp = this.closure.next();
    for (let r = 0; r < p.starts.length; r++) if (p.starts[r]! >= 0 && improves(p, r, bd, ba)) this.closure.from(p.starts[r]!, stamp, out);
    this.start = this.stateFor(out, K_BEGIN, bd, ba, true);
    this.startCode = this.codeOf(this.start);
  }

  /** A state's code in `trans`: its row and its flags. */
  codeOf(id: number): number {
    return (id << ROW_SHIFT) | (this.fin[id] === 1 ? FIN : 0) | (this.finder[id] !== null && this.finder[id] !== undefined ? IDLE : 0);
  }

  /** The closure of the restarted rules that can still change the answer given the best rules so far. */
  restartClosure(bd: number, ba: number): Int32Array {
    const key = `${bd},${ba}`;
    let pcs = this.restarts.get(key);
    if (pcs === undefined) {
      const p = this.p;
      const out: number[] = [];
      const stamp = this.closure.next();
      for (const r of p.restartRules) if (improves(p, r, bd, ba)) this.closure.from(p.starts[r]!, stamp, out);
      pcs = Int32Array.from(out).sort();
      if (this.restarts.size >= 64) this.restarts.clear();
      this.restarts.set(key, pcs);
    }
    return pcs;
  }

  private same(id: number, pcs: Int32Array, prev: number, bd: number, ba: number): boolean {
    if (this.prev[id] !== prev || this.bestDeny[id] !== bd || this.bestAllow[id] !== ba) return false;
    const have = this.pcs[id]!;
    if (have.length !== pcs.length) return false;
    for (let j = 0; j < pcs.length; j++) if (have[j] !== pcs[j]) return false;
    return true;
  }

  /**
   * The id of the state (made if new); `FULL` when it is new and the cache holds no more. The start
   * state (`start`) is always made: a plan's budget may be passed by one state per DFA.
   */
  stateFor(pcsIn: readonly number[], prevIn: number, bd: number, ba: number, start = false): number {
    const p = this.p;
    // A typed array sorts numerically without calling back into JavaScript.
    const pcs = Int32Array.from(pcsIn).sort();
    let assertions = false;
    for (const g of pcs) if (p.op[g] === EMPTY_WIDTH) assertions = true;
    // The previous character matters only to assertions.
    const prev = assertions ? prevIn : K_OTHER;
    const hash = stateHash(pcs, prev, bd, ba);
    const bucket = this.byKey.get(hash);
    if (bucket !== undefined) for (const known of bucket) if (this.same(known, pcs, prev, bd, ba)) return known;
    const id = this.pcs.length;
    // The start state is always made (bounds are checked before it: it is the first of its cache).
    const budget = this.budget;
    if (!start && (id >= this.maxStates || this.pcsTotal + pcs.length > MAX_STATE_PCS || budget.used >= budget.max || budget.pcs + pcs.length > budget.maxPcs)) {
      return FULL;
    }
    this.pcsTotal += pcs.length;
    budget.used++;
    budget.pcs += pcs.length;
    if (id << ROW_SHIFT >= this.trans.length) {
      const trans = new Int32Array(this.trans.length * 2).fill(-1);
      trans.set(this.trans);
      this.trans = trans;
      const fin = new Uint8Array(this.fin.length * 2);
      fin.set(this.fin);
      this.fin = fin;
      const end = new Int32Array(this.endResult.length * 2).fill(-2);
      end.set(this.endResult);
      this.endResult = end;
    }
    if (bucket === undefined) this.byKey.set(hash, [id]);
    else bucket.push(id);
    this.pcs.push(pcs);
    this.prev.push(prev);
    this.bestDeny.push(bd);
    this.bestAllow.push(ba);
    // Final: the first first-tier rule matched, or nothing is alive and nothing restarts.
    let alive = pcs.length > 0;
    if (!alive) for (const r of p.restartRules) if (improves(p, r, bd, ba)) alive = true;
    this.fin[id] = (bd === 0 && p.deny > 0) || !alive ? 1 : 0;
    this.finder.push(this.fin[id] === 1 ? null : this.idleFinder(pcs, bd, ba));
    return id;
  }

  /**
   * The finder of a state whose set is exactly the restarted rules' starts (nothing under way), else
   * `null`. From such a state, positions where no restarted rule can begin a match change nothing but
   * the previous character, so the scan may jump to the character before the next possible start.
   */
  private idleFinder(pcs: Int32Array, bd: number, ba: number): RegExp | null {
    const idle = this.restartClosure(bd, ba);
    if (idle.length === 0 || idle.length !== pcs.length) return null;
    for (let j = 0; j < idle.length; j++) if (idle[j] !== pcs[j]) return null;
    const p = this.p;
    return this.finders.forRules(p.restartRules.filter((r) => improves(p, r, bd, ba)));
  }
}
