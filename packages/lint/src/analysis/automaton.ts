/**
 * Automata over code points: Thompson NFAs with empty-width assertions, and lazily determinised
 * search DFAs (RE2's construction).
 *
 * A DFA state is a set of NFA instructions plus what the previous character was (start of text,
 * newline, ASCII word character, other). Conditions on the next character (`$`, `\b`) are resolved
 * when that character is read, as RE2's DFA does, so `^ $ \A \z (?m) \b \B` are all exact.
 * The DFA recognises "the pattern matches somewhere in the text" (Go's unanchored search): the start
 * instruction is re-entered at every position and a match leads to an accepting sink.
 */
import { ANY, type CharSet, has, partition, single } from './charset.ts';
import type { AssertKind, RegexNode } from './syntax.ts';
import { isWordChar, WORD } from './unicode.ts';

export type Inst =
  | { op: 'char'; set: CharSet; out: number }
  | { op: 'split'; outs: number[] }
  | { op: 'assert'; kind: AssertKind; out: number }
  | { op: 'match' };

export interface Nfa {
  insts: Inst[];
  start: number;
}

/** A question ran out of states or time: the answer is "unknown", never a guess. */
export class LimitExceeded extends Error {}

export interface Budget {
  /** `cpuNow()` value after which work stops. */
  deadline: number;
  maxStates: number;
  /** NFA instructions allowed for one pattern (repeat expansion). */
  maxNfa: number;
}

/**
 * Milliseconds of CPU time this process has used. Limits are in CPU time, not wall time, so that
 * a loaded machine (a CI runner, parallel test workers) does not turn decided questions into
 * "unknown" ones. Reading the CPU clock is a system call: within half a millisecond of wall-clock
 * time of the last reading, the last reading plus the wall-clock time since is returned instead.
 */
export function cpuNow(): number {
  const wall = performance.now();
  if (wall - lastWall < 0.5) return lastCpu + (wall - lastWall);
  const u = process.cpuUsage();
  lastWall = wall;
  lastCpu = (u.user + u.system) / 1000;
  return lastCpu;
}

let lastWall = -Infinity;
let lastCpu = 0;

export function makeBudget(options: { timeMs?: number; maxStates?: number } = {}): Budget {
  return {
    deadline: cpuNow() + (options.timeMs ?? 200),
    maxStates: options.maxStates ?? 10_000,
    maxNfa: 20_000,
  };
}

export function checkTime(budget: Budget): void {
  if (cpuNow() > budget.deadline) throw new LimitExceeded('time limit');
}

// --- NFA construction ---

export class NfaBuilder {
  readonly insts: Inst[] = [];
  constructor(private readonly maxInsts = 20_000) {}

  add(inst: Inst): number {
    if (this.insts.length >= this.maxInsts) throw new LimitExceeded('pattern too large to analyse');
    this.insts.push(inst);
    return this.insts.length - 1;
  }

  match(): number {
    return this.add({ op: 'match' });
  }

  /** Compiles `node` so that it continues at `next`; returns the entry instruction. */
  regex(node: RegexNode, next: number): number {
    switch (node.t) {
      case 'chars':
        return this.add({ op: 'char', set: node.set, out: next });
      case 'empty':
        return next;
      case 'assert':
        return this.add({ op: 'assert', kind: node.kind, out: next });
      case 'cat': {
        let n = next;
        for (let i = node.subs.length - 1; i >= 0; i--) n = this.regex(node.subs[i] as RegexNode, n);
        return n;
      }
      case 'alt':
        return this.add({ op: 'split', outs: node.subs.map((s) => this.regex(s, next)) });
      case 'rep': {
        let n = next;
        if (node.max < 0) {
          const loop = this.add({ op: 'split', outs: [] });
          const body = this.regex(node.sub, loop);
          (this.insts[loop] as { outs: number[] }).outs = [body, next];
          n = loop;
        } else {
          for (let k = node.min; k < node.max; k++) {
            const body = this.regex(node.sub, n);
            n = this.add({ op: 'split', outs: [body, next] });
          }
        }
        for (let k = 0; k < node.min; k++) n = this.regex(node.sub, n);
        return n;
      }
    }
  }

  /** A literal string (exact code points) continuing at `next`. */
  literal(text: string, next: number): number {
    let n = next;
    const cps = Array.from(text, (c) => c.codePointAt(0) as number);
    for (let i = cps.length - 1; i >= 0; i--) n = this.add({ op: 'char', set: [cps[i] as number, cps[i] as number], out: n });
    return n;
  }

  /** `Σ*` continuing at `next`. */
  anything(next: number): number {
    const loop = this.add({ op: 'split', outs: [] });
    const body = this.add({ op: 'char', set: ANY, out: loop });
    (this.insts[loop] as { outs: number[] }).outs = [body, next];
    return loop;
  }

  build(start: number): Nfa {
    return { insts: this.insts, start };
  }
}

// --- Lazy search DFA ---

const PREV_START = 0;
const PREV_NL = 1;
const PREV_WORD = 2;
const PREV_OTHER = 3;
const NEXT_EOT = 4;

function kindOf(cp: number): number {
  if (cp === 0x0a) return PREV_NL;
  return isWordChar(cp) ? PREV_WORD : PREV_OTHER;
}

function assertHolds(kind: AssertKind, prev: number, next: number): boolean {
  switch (kind) {
    case 'bot':
      return prev === PREV_START;
    case 'eot':
      return next === NEXT_EOT;
    case 'bol':
      return prev === PREV_START || prev === PREV_NL;
    case 'eol':
      return next === NEXT_EOT || next === PREV_NL;
    case 'wb':
      return (prev === PREV_WORD) !== (next === PREV_WORD);
    case 'nwb':
      return (prev === PREV_WORD) === (next === PREV_WORD);
  }
}

/** DFAs larger than this get no distance table (the search then runs without a heuristic). */
const MATERIALIZE_LIMIT = 3_000;

/** The accepting sink: a match was found, every extension matches too. */
export const ACCEPT = 0;

interface DState {
  kernel: number[];
  prev: number;
  /** Target state by block of the DFA's own alphabet (-1: not computed yet). */
  trans: Int32Array;
  accepting: boolean | undefined;
  dead: boolean;
}

let nextId = 1;

export class SearchDfa {
  /** Distinct per DFA (a cache key for alphabets of products). */
  readonly id = nextId++;
  private readonly states: DState[] = [];
  private readonly index = new Map<string, number>();
  /** Whether no match can start after the first position (the pattern begins with `\A` or `^`). */
  private readonly anchored: boolean;
  readonly start: number;

  /** The DFA's own alphabet: the coarsest partition its character sets (and `\b`, `\n`) need. */
  private readonly blockReps: number[];
  /** Sorted starts of the alphabet's ranges and the block each range belongs to. */
  private readonly rangeStarts: number[] = [];
  private readonly rangeBlock: number[] = [];

  constructor(
    readonly nfa: Nfa,
    private budget: Budget,
  ) {
    const blocks = partition([single(0x0a), WORD, ...this.charSets()]);
    this.blockReps = blocks.map((b) => b.rep);
    const ranges: [number, number][] = [];
    blocks.forEach((b, k) => {
      for (let i = 0; i < b.block.length; i += 2) ranges.push([b.block[i] as number, k]);
    });
    ranges.sort((x, y) => x[0] - y[0]);
    for (const [start, k] of ranges) {
      this.rangeStarts.push(start);
      this.rangeBlock.push(k);
    }
    this.states.push({ kernel: [], prev: PREV_OTHER, trans: this.emptyTrans(), accepting: true, dead: false });
    this.anchored = !this.canStartLater();
    this.start = this.intern([], PREV_START);
  }

  /** Lets a DFA built under one question's budget be reused by the next question. */
  setBudget(budget: Budget): void {
    this.budget = budget;
  }

  get size(): number {
    return this.states.length;
  }

  /** The character sets the NFA tells apart (the alphabet the DFA needs). */
  charSets(): CharSet[] {
    const out: CharSet[] = [];
    for (const inst of this.nfa.insts) if (inst.op === 'char') out.push(inst.set);
    return out;
  }

  isAccepting(s: number): boolean {
    const st = this.states[s] as DState;
    if (st.accepting === undefined) st.accepting = this.closure(st.kernel, st.prev, NEXT_EOT).matched;
    return st.accepting;
  }

  private dist: Map<number, number> | null | undefined;

  /**
   * The length of a shortest accepted extension from each state (absent: none exists), found by
   * exploring the whole DFA over its own alphabet; `null` when the DFA is too large for that.
   * Used as the search heuristic and to prune states that can never accept.
   */
  distances(): Map<number, number> | null {
    if (this.dist !== undefined) return this.dist;
    try {
      const reps = this.blockReps;
      const order = [this.start];
      const seen = new Set(order);
      const preds = new Map<number, number[]>();
      for (let i = 0; i < order.length; i++) {
        if ((i & 63) === 0) checkTime(this.budget);
        if (order.length > MATERIALIZE_LIMIT) throw new LimitExceeded('state limit');
        const st = order[i] as number;
        for (const cp of reps) {
          const t = this.step(st, cp);
          let p = preds.get(t);
          if (p === undefined) {
            p = [];
            preds.set(t, p);
          }
          p.push(st);
          if (!seen.has(t)) {
            seen.add(t);
            order.push(t);
          }
        }
      }
      const dist = new Map<number, number>();
      const queue: number[] = [];
      for (const st of order) {
        if (this.isAccepting(st)) {
          dist.set(st, 0);
          queue.push(st);
        }
      }
      for (let i = 0; i < queue.length; i++) {
        const st = queue[i] as number;
        const d = dist.get(st) as number;
        for (const p of preds.get(st) ?? []) {
          if (!dist.has(p)) {
            dist.set(p, d + 1);
            queue.push(p);
          }
        }
      }
      this.dist = dist;
    } catch (e) {
      if (!(e instanceof LimitExceeded)) throw e;
      this.dist = null;
    }
    return this.dist;
  }

  /**
   * Whether the DFA has been explored in full (every reachable state and transition is known, so
   * no later question can add a state or hit the state limit on it).
   */
  complete(): boolean {
    return this.dist !== undefined && this.dist !== null;
  }

  /** Whether no extension of a string reaching `s` can be accepted (a cheap, sound test). */
  isDead(s: number): boolean {
    return (this.states[s] as DState).dead;
  }

  private emptyTrans(): Int32Array {
    return new Int32Array(this.blockReps.length).fill(-1);
  }

  /** The block of the DFA's own alphabet holding `cp`. */
  private blockOf(cp: number): number {
    const starts = this.rangeStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= cp) lo = mid;
      else hi = mid - 1;
    }
    return this.rangeBlock[lo] as number;
  }

  step(s: number, cp: number): number {
    if (s === ACCEPT) return ACCEPT;
    const st = this.states[s] as DState;
    const block = this.blockOf(cp);
    const hit = st.trans[block] as number;
    if (hit >= 0) return hit;
    // Every member of the block behaves alike: compute with the block's representative.
    cp = this.blockReps[block] as number;
    const kind = kindOf(cp);
    const { chars, matched } = this.closure(st.kernel, st.prev, kind);
    let target: number;
    if (matched) target = ACCEPT;
    else {
      const next = new Set<number>();
      for (const pc of chars) {
        const inst = this.nfa.insts[pc] as { set: CharSet; out: number };
        if (has(inst.set, cp)) next.add(inst.out);
      }
      target = this.intern([...next].sort((a, b) => a - b), kind);
    }
    st.trans[block] = target;
    return target;
  }

  private intern(kernel: number[], prev: number): number {
    const key = `${prev}:${kernel.join(',')}`;
    const hit = this.index.get(key);
    if (hit !== undefined) return hit;
    if (this.states.length >= this.budget.maxStates) throw new LimitExceeded('state limit');
    const dead = kernel.length === 0 && this.anchored && prev !== PREV_START;
    this.states.push({ kernel, prev, trans: this.emptyTrans(), accepting: dead ? false : undefined, dead });
    this.index.set(key, this.states.length - 1);
    return this.states.length - 1;
  }

  private closure(kernel: readonly number[], prev: number, next: number): { chars: number[]; matched: boolean } {
    const seen = new Set<number>();
    const chars: number[] = [];
    let matched = false;
    const stack = [...kernel, this.nfa.start];
    while (stack.length > 0) {
      const pc = stack.pop() as number;
      if (seen.has(pc)) continue;
      seen.add(pc);
      const inst = this.nfa.insts[pc] as Inst;
      switch (inst.op) {
        case 'char':
          chars.push(pc);
          break;
        case 'match':
          matched = true;
          break;
        case 'split':
          for (const o of inst.outs) stack.push(o);
          break;
        case 'assert':
          if (assertHolds(inst.kind, prev, next)) stack.push(inst.out);
          break;
      }
    }
    return { chars, matched };
  }

  /** Whether the start instruction can lead anywhere when not at the start of the text. */
  private canStartLater(): boolean {
    const seen = new Set<number>();
    const stack = [this.nfa.start];
    while (stack.length > 0) {
      const pc = stack.pop() as number;
      if (seen.has(pc)) continue;
      seen.add(pc);
      const inst = this.nfa.insts[pc] as Inst;
      if (inst.op === 'char' || inst.op === 'match') return true;
      if (inst.op === 'split') stack.push(...inst.outs);
      else if (inst.op === 'assert' && inst.kind !== 'bot') stack.push(inst.out);
    }
    return false;
  }
}
