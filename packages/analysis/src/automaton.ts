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
import { ANY, type CharSet, lowerBound, partition, single } from './charset.ts';
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
  /** Whether every entry of `trans` is computed. */
  expanded: boolean;
  accepting: boolean | undefined;
  dead: boolean;
}

const OP_CHAR = 0;
const OP_SPLIT = 1;
const OP_ASSERT = 2;
const OP_MATCH = 3;
const ASSERT_CODE: Record<AssertKind, number> = { bot: 0, eot: 1, bol: 2, eol: 3, wb: 4, nwb: 5 };
const ASSERT_KINDS: AssertKind[] = ['bot', 'eot', 'bol', 'eol', 'wb', 'nwb'];
/** The kinds a next character can be (`NEXT_EOT` is the end of the text). */
const CHAR_KINDS = [PREV_NL, PREV_WORD, PREV_OTHER];

let nextId = 1;

export class SearchDfa {
  /** Distinct per DFA (a cache key for alphabets of products). */
  readonly id = nextId++;
  private readonly states: DState[] = [];
  /** States by a hash of their kernel and `prev`. */
  private readonly index = new Map<number, number[]>();
  /** Whether no match can start after the first position (the pattern begins with `\A` or `^`). */
  private readonly anchored: boolean;
  readonly start: number;

  /** The DFA's own alphabet: the coarsest partition its character sets (and `\b`, `\n`) need. */
  private readonly blockReps: number[];
  /** Sorted starts of the alphabet's ranges and the block each range belongs to. */
  private readonly rangeStarts: number[] = [];
  private readonly rangeBlock: number[] = [];
  /** The block of each ASCII character (the common case of `blockOf`). */
  private readonly asciiBlock = new Int32Array(128);
  /** The blocks of each kind of character (`PREV_NL`, `PREV_WORD`, `PREV_OTHER`). */
  private readonly blocksOfKind: number[][] = [[], [], [], []];
  private readonly blockKind: Uint8Array;

  // The NFA in flat arrays: opcode, target (char, assert), assert kind, split targets (CSR), and for
  // each char instruction the blocks of the alphabet its set holds (CSR; every set is a union of blocks).
  private readonly op: Uint8Array;
  private readonly out: Int32Array;
  private readonly akind: Uint8Array;
  private readonly splitStart: Int32Array;
  private readonly splitOuts: Int32Array;
  private readonly charStart: Int32Array;
  private readonly charBlocks: Int32Array;
  // Scratch space for closures: visit marks by generation, a stack, and the char instructions found.
  private readonly mark: Uint32Array;
  private gen = 0;
  private readonly stack: Int32Array;
  private readonly chars: Int32Array;
  private readonly sortKeys: Int32Array;
  private nChars = 0;
  /** Per block: the targets collected while expanding a state (reused). */
  private readonly acc: number[][];

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
    for (let c = 0; c < 128; c++) this.asciiBlock[c] = this.searchBlock(c);
    this.blockKind = Uint8Array.from(this.blockReps, kindOf);
    this.blockReps.forEach((rep, b) => (this.blocksOfKind[kindOf(rep)] as number[]).push(b));
    this.acc = this.blockReps.map(() => []);

    const insts = nfa.insts;
    const n = insts.length;
    this.op = new Uint8Array(n);
    this.out = new Int32Array(n);
    this.akind = new Uint8Array(n);
    this.splitStart = new Int32Array(n + 1);
    this.charStart = new Int32Array(n + 1);
    const splitOuts: number[] = [];
    const charBlocks: number[] = [];
    for (let pc = 0; pc < n; pc++) {
      const inst = insts[pc] as Inst;
      this.splitStart[pc] = splitOuts.length;
      this.charStart[pc] = charBlocks.length;
      switch (inst.op) {
        case 'char':
          this.op[pc] = OP_CHAR;
          this.out[pc] = inst.out;
          this.blocksIn(inst.set, charBlocks);
          break;
        case 'split':
          this.op[pc] = OP_SPLIT;
          for (const o of inst.outs) splitOuts.push(o);
          break;
        case 'assert':
          this.op[pc] = OP_ASSERT;
          this.out[pc] = inst.out;
          this.akind[pc] = ASSERT_CODE[inst.kind];
          break;
        case 'match':
          this.op[pc] = OP_MATCH;
          break;
      }
    }
    this.splitStart[n] = splitOuts.length;
    this.charStart[n] = charBlocks.length;
    this.splitOuts = Int32Array.from(splitOuts);
    this.charBlocks = Int32Array.from(charBlocks);
    this.mark = new Uint32Array(n);
    this.stack = new Int32Array(n + 1);
    this.chars = new Int32Array(n);
    this.sortKeys = new Int32Array(n);

    this.states.push({ kernel: [], prev: PREV_OTHER, trans: this.emptyTrans().fill(ACCEPT), expanded: true, accepting: true, dead: false });
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

  /**
   * The DFA's alphabet as sorted range starts (scalar values; each range runs to the next start)
   * and the block of each range.
   */
  alphabet(): { starts: readonly number[]; blocks: readonly number[] } {
    return { starts: this.rangeStarts, blocks: this.rangeBlock };
  }

  /** The character sets the NFA tells apart (the alphabet the DFA needs). */
  charSets(): CharSet[] {
    const out: CharSet[] = [];
    for (const inst of this.nfa.insts) if (inst.op === 'char') out.push(inst.set);
    return out;
  }

  isAccepting(s: number): boolean {
    const st = this.states[s] as DState;
    if (st.accepting === undefined) st.accepting = this.closure(st.kernel, st.prev, NEXT_EOT);
    return st.accepting;
  }

  private dist: Int32Array | null | undefined;

  /**
   * The length of a shortest accepted extension from each state, by state (-1: none exists),
   * found by exploring the whole DFA over its own alphabet; `null` when the DFA is too large for
   * that. Used as the search heuristic and to prune states that can never accept.
   */
  distances(): Int32Array | null {
    if (this.dist !== undefined) return this.dist;
    try {
      const nb = this.blockReps.length;
      const order = [this.start];
      const seen: boolean[] = [];
      seen[this.start] = true;
      // Edges as (source, target) pairs, to walk backwards from the accepting states.
      const edgeFrom: number[] = [];
      const edgeTo: number[] = [];
      for (let i = 0; i < order.length; i++) {
        if ((i & 63) === 0) checkTime(this.budget);
        if (order.length > MATERIALIZE_LIMIT) throw new LimitExceeded('state limit');
        const st = order[i] as number;
        if (st === ACCEPT) continue; // the sink only leads to itself
        const trans = this.expanded(st);
        for (let b = 0; b < nb; b++) {
          const t = trans[b] as number;
          edgeFrom.push(st);
          edgeTo.push(t);
          if (seen[t] !== true) {
            seen[t] = true;
            order.push(t);
          }
        }
      }
      const size = this.states.length;
      // Predecessors in compressed rows.
      const count = new Int32Array(size + 1);
      for (const t of edgeTo) count[t + 1] = (count[t + 1] as number) + 1;
      for (let i = 0; i < size; i++) count[i + 1] = (count[i + 1] as number) + (count[i] as number);
      const fill = count.slice(0, size);
      const preds = new Int32Array(edgeTo.length);
      for (let e = 0; e < edgeTo.length; e++) {
        const t = edgeTo[e] as number;
        preds[fill[t] as number] = edgeFrom[e] as number;
        fill[t] = (fill[t] as number) + 1;
      }
      const dist = new Int32Array(size).fill(-1);
      const queue: number[] = [];
      for (const st of order) {
        if (this.isAccepting(st)) {
          dist[st] = 0;
          queue.push(st);
        }
      }
      for (let i = 0; i < queue.length; i++) {
        const st = queue[i] as number;
        const d = dist[st] as number;
        for (let e = count[st] as number; e < (count[st + 1] as number); e++) {
          const p = preds[e] as number;
          if (dist[p] === -1) {
            dist[p] = d + 1;
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
    return cp < 128 ? (this.asciiBlock[cp] as number) : this.searchBlock(cp);
  }

  private searchBlock(cp: number): number {
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

  /** Appends the blocks that `set` (a union of blocks) holds. */
  private blocksIn(set: CharSet, out: number[]): void {
    const starts = this.rangeStarts;
    const seen = new Set<number>();
    for (let i = 0; i < set.length; i += 2) {
      const lo = set[i] as number;
      const hi = set[i + 1] as number;
      // The alphabet's ranges that start within [lo, hi]: the set holds each of them whole.
      let r = lowerBound(starts, lo);
      for (; r < starts.length && (starts[r] as number) <= hi; r++) {
        const b = this.rangeBlock[r] as number;
        if (!seen.has(b)) {
          seen.add(b);
          out.push(b);
        }
      }
    }
  }

  step(s: number, cp: number): number {
    if (s === ACCEPT) return ACCEPT;
    const block = this.blockOf(cp);
    const hit = (this.states[s] as DState).trans[block] as number;
    return hit >= 0 ? hit : (this.expanded(s)[block] as number);
  }

  /**
   * The transitions of `s` by block, all computed: one closure per kind of next character (the
   * closure depends on the character only through its kind), then the char instructions' targets
   * spread over the blocks their sets hold.
   */
  private expanded(s: number): Int32Array {
    const st = this.states[s] as DState;
    const trans = st.trans;
    if (st.expanded) return trans;
    const acc = this.acc;
    const blockKind = this.blockKind;
    for (const kind of CHAR_KINDS) {
      const blocks = this.blocksOfKind[kind] as number[];
      if (blocks.length === 0) continue;
      if (this.closure(st.kernel, st.prev, kind)) {
        for (const b of blocks) trans[b] = ACCEPT;
        continue;
      }
      for (const b of blocks) (acc[b] as number[]).length = 0;
      // Char instructions by target, so that each block's targets come out sorted.
      const order = this.byTarget();
      for (let i = 0; i < order.length; i++) {
        const pc = order[i] as number;
        const o = this.out[pc] as number;
        for (let j = this.charStart[pc] as number; j < (this.charStart[pc + 1] as number); j++) {
          const b = this.charBlocks[j] as number;
          if (blockKind[b] !== kind) continue;
          const list = acc[b] as number[];
          if (list.length === 0 || list[list.length - 1] !== o) list.push(o);
        }
      }
      for (const b of blocks) {
        if ((trans[b] as number) < 0) trans[b] = this.intern(acc[b] as number[], kind);
      }
    }
    st.expanded = true;
    return trans;
  }

  /** The char instructions of the last closure, ordered by target (a view into scratch space). */
  private byTarget(): Int32Array {
    const n = this.nChars;
    const keys = this.sortKeys.subarray(0, n);
    const chars = this.chars;
    const wide = this.out.length > 0x7fff;
    if (wide) return Int32Array.from(chars.subarray(0, n)).sort((x, y) => (this.out[x] as number) - (this.out[y] as number));
    // Target and instruction packed in one number (both below 2^15): a plain numeric sort.
    for (let i = 0; i < n; i++) keys[i] = ((this.out[chars[i] as number] as number) << 15) | (chars[i] as number);
    keys.sort();
    for (let i = 0; i < n; i++) keys[i] = (keys[i] as number) & 0x7fff;
    return keys;
  }

  /** The state for `kernel` (sorted, no repeats; copied when new) after a character of kind `prev`. */
  private intern(kernel: readonly number[], prev: number): number {
    let h = Math.imul(prev + 1, 0x9e3779b1);
    for (let i = 0; i < kernel.length; i++) h = Math.imul(h ^ (kernel[i] as number), 0x85ebca6b) ^ (h >>> 13);
    const bucket = this.index.get(h);
    if (bucket !== undefined) {
      for (const id of bucket) {
        const st = this.states[id] as DState;
        if (st.prev === prev && sameList(st.kernel, kernel)) return id;
      }
    }
    if (this.states.length >= this.budget.maxStates) throw new LimitExceeded('state limit');
    const dead = kernel.length === 0 && this.anchored && prev !== PREV_START;
    this.states.push({ kernel: kernel.slice(), prev, trans: this.emptyTrans(), expanded: false, accepting: dead ? false : undefined, dead });
    const id = this.states.length - 1;
    if (bucket === undefined) this.index.set(h, [id]);
    else bucket.push(id);
    return id;
  }

  /**
   * The instructions reachable from `kernel` and the start instruction without reading a
   * character, between a character of kind `prev` and one of kind `next`: the char instructions
   * go to `this.chars`; returns whether a match instruction is reachable (then the chars are not
   * all collected: the caller does not need them).
   */
  private closure(kernel: readonly number[], prev: number, next: number): boolean {
    let gen = ++this.gen;
    if (gen === 0xffffffff) {
      this.mark.fill(0);
      this.gen = gen = 1;
    }
    const { mark, stack, op, out, splitStart, splitOuts, akind, chars } = this;
    let sp = 0;
    let nc = 0;
    for (const pc of kernel) {
      if (mark[pc] !== gen) {
        mark[pc] = gen;
        stack[sp++] = pc;
      }
    }
    const start = this.nfa.start;
    if (mark[start] !== gen) {
      mark[start] = gen;
      stack[sp++] = start;
    }
    while (sp > 0) {
      const pc = stack[--sp] as number;
      switch (op[pc]) {
        case OP_CHAR:
          chars[nc++] = pc;
          break;
        case OP_MATCH:
          this.nChars = nc;
          return true;
        case OP_SPLIT:
          for (let j = splitStart[pc] as number; j < (splitStart[pc + 1] as number); j++) {
            const o = splitOuts[j] as number;
            if (mark[o] !== gen) {
              mark[o] = gen;
              stack[sp++] = o;
            }
          }
          break;
        case OP_ASSERT: {
          const o = out[pc] as number;
          if (mark[o] !== gen && assertHolds(ASSERT_KINDS[akind[pc] as number] as AssertKind, prev, next)) {
            mark[o] = gen;
            stack[sp++] = o;
          }
          break;
        }
      }
    }
    this.nChars = nc;
    return false;
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
      if (inst.op === 'split') for (const o of inst.outs) stack.push(o);
      else if (inst.op === 'assert' && inst.kind !== 'bot') stack.push(inst.out);
    }
    return false;
  }
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
