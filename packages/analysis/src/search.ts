/**
 * Emptiness of boolean combinations of search DFAs, by breadth-first search of their product.
 *
 * Complement is exact (the DFAs are deterministic and total), so any formula of atoms, negated
 * atoms, `and` and `or` is decided. The search returns a shortest witness, proves emptiness by
 * exhausting the reachable product, or stops at the budget (the caller then says "unknown").
 */
import { type Budget, checkTime, LimitExceeded, type SearchDfa } from './automaton.ts';
import { type CharSet, codePointsToString, fromRanges, MAX_RUNE, pick, readability } from './charset.ts';

export type Formula =
  | { op: 'atom'; dfa: SearchDfa; neg: boolean }
  | { op: 'and'; xs: Formula[] }
  | { op: 'or'; xs: Formula[] }
  | { op: 'const'; value: boolean };

export const TRUE: Formula = { op: 'const', value: true };
export const FALSE: Formula = { op: 'const', value: false };

export function atom(dfa: SearchDfa, neg = false): Formula {
  return { op: 'atom', dfa, neg };
}

export function and(...xs: Formula[]): Formula {
  return andOf(xs);
}

/**
 * `and` over a list of any length. Lists come from rule counts, so they are never spread into
 * arguments (V8 throws `Maximum call stack size exceeded` from about 100,000 of them).
 */
export function andOf(xs: readonly Formula[]): Formula {
  const flat: Formula[] = [];
  for (const x of xs) {
    if (x.op === 'const') {
      if (!x.value) return FALSE;
      continue;
    }
    if (x.op === 'and') for (const y of x.xs) flat.push(y);
    else flat.push(x);
  }
  if (flat.length === 0) return TRUE;
  return flat.length === 1 ? (flat[0] as Formula) : { op: 'and', xs: flat };
}

export function or(...xs: Formula[]): Formula {
  return orOf(xs);
}

/** `or` over a list of any length (see {@link andOf}). */
export function orOf(xs: readonly Formula[]): Formula {
  const flat: Formula[] = [];
  for (const x of xs) {
    if (x.op === 'const') {
      if (x.value) return TRUE;
      continue;
    }
    if (x.op === 'or') for (const y of x.xs) flat.push(y);
    else flat.push(x);
  }
  if (flat.length === 0) return FALSE;
  return flat.length === 1 ? (flat[0] as Formula) : { op: 'or', xs: flat };
}

/** Negation, pushed down to the atoms. */
export function not(f: Formula): Formula {
  switch (f.op) {
    case 'const':
      return f.value ? FALSE : TRUE;
    case 'atom':
      return { op: 'atom', dfa: f.dfa, neg: !f.neg };
    case 'and':
      return orOf(f.xs.map(not));
    case 'or':
      return andOf(f.xs.map(not));
  }
}

export type SearchResult = { status: 'empty' } | { status: 'witness'; text: string } | { status: 'limit'; why: string };

const T = 1;
const F = 0;
const U = 2;

/** Finds a shortest string in the language of `formula`, or proves there is none. */
export function findWitness(formula: Formula, budget: Budget): SearchResult {
  if (formula.op === 'const') return formula.value ? { status: 'witness', text: '' } : { status: 'empty' };
  // The same question over the same (shared) DFAs recurs across files: a rule's pattern in every
  // policy of a repository. Answers are kept per formula and state limit; limits are not kept.
  const key = formulaKey(formula);
  const memoKey = key === null ? null : `${budget.maxStates}#${key}`;
  const hit = memoKey === null ? undefined : answers.get(memoKey);
  if (hit !== undefined) return hit;
  const r = search(formula, budget);
  if (memoKey !== null && r.status !== 'limit') {
    if (answers.size >= ANSWERS_MAX) answers.clear();
    answers.set(memoKey, r);
  }
  return r;
}

const answers = new Map<string, SearchResult>();
const ANSWERS_MAX = 10_000;

/** A text naming the formula over DFA ids (`null` when an atom is not a real DFA). */
function formulaKey(f: Formula): string | null {
  switch (f.op) {
    case 'const':
      return f.value ? 'T' : 'F';
    case 'atom':
      return typeof f.dfa.id === 'number' ? `${f.neg ? '!' : ''}${f.dfa.id}` : null;
    case 'and':
    case 'or': {
      const parts: string[] = [];
      for (const x of f.xs) {
        const k = formulaKey(x);
        if (k === null) return null;
        parts.push(k);
      }
      return `${f.op === 'and' ? '&' : '|'}(${parts.join(',')})`;
    }
  }
}

function search(formula: Formula, budget: Budget): SearchResult {
  if (propositionallySatisfiable(formula) === false) return { status: 'empty' };
  const dfas: SearchDfa[] = [];
  const slot = new Map<SearchDfa, number>();
  const collect = (f: Formula): void => {
    if (f.op === 'atom' && !slot.has(f.dfa)) {
      slot.set(f.dfa, dfas.length);
      dfas.push(f.dfa);
    } else if (f.op === 'and' || f.op === 'or') f.xs.forEach(collect);
  };
  collect(formula);
  for (const d of dfas) d.setBudget(budget);

  const reps = productAlphabet(dfas);

  const evalWith = (f: Formula, value: (i: number) => number): number => {
    switch (f.op) {
      case 'const':
        return f.value ? T : F;
      case 'atom': {
        const v = value(slot.get(f.dfa) as number);
        return v === U ? U : f.neg ? 1 - v : v;
      }
      case 'and': {
        let r = T;
        for (const x of f.xs) {
          const v = evalWith(x, value);
          if (v === F) return F;
          if (v === U) r = U;
        }
        return r;
      }
      case 'or': {
        let r = F;
        for (const x of f.xs) {
          const v = evalWith(x, value);
          if (v === T) return T;
          if (v === U) r = U;
        }
        return r;
      }
    }
  };

  const dists = dfas.map((d) => d.distances());
  // A lower bound on how many more characters the formula needs (Infinity: it can never hold).
  const need = (f: Formula, t: readonly number[]): number => {
    switch (f.op) {
      case 'const':
        return f.value ? 0 : Infinity;
      case 'atom': {
        if (f.neg) return 0;
        const k = slot.get(f.dfa) as number;
        const table = dists[k];
        if (table === null || table === undefined) return 0;
        const d = table[t[k] as number] as number;
        return d < 0 ? Infinity : d;
      }
      case 'and': {
        let m = 0;
        for (const x of f.xs) {
          const v = need(x, t);
          if (v > m) m = v;
          if (m === Infinity) break;
        }
        return m;
      }
      case 'or': {
        let m = Infinity;
        for (const x of f.xs) {
          const v = need(x, t);
          if (v < m) m = v;
          if (m === 0) break;
        }
        return m;
      }
    }
  };

  try {
    const tuples: number[][] = [];
    const parent: number[] = [];
    const via: number[] = [];
    const depth: number[] = [];
    const seen = new Set<string | number>();
    const scratch: number[] = new Array<number>(dfas.length).fill(0);
    const heap = new MinHeap();
    // Up to three components fit a number key exactly (states stay below 2^17 each).
    const numeric = dfas.length <= 3 && budget.maxStates < 1 << 17;
    const push = (t: number[], from: number, cp: number): void => {
      const key = numeric ? (t[0] as number) + (t[1] ?? 0) * 131072 + (t[2] ?? 0) * 17179869184 : t.join(',');
      if (seen.has(key)) return;
      if (tuples.length >= budget.maxStates) throw new LimitExceeded('state limit');
      seen.add(key);
      const h = need(formula, t);
      if (h === Infinity) return; // can never satisfy the formula: prune
      const id = tuples.length;
      const g = from < 0 ? 0 : (depth[from] as number) + 1;
      tuples.push(t.slice());
      parent.push(from);
      via.push(cp);
      depth.push(g);
      // Weighted A*: heads for an accepting state; witnesses stay short, not always shortest.
      heap.push(g + 2 * h, id);
    };
    push(
      dfas.map((d) => d.start),
      -1,
      -1,
    );
    let n = 0;
    while (heap.size > 0) {
      const i = heap.pop();
      if ((n++ & 63) === 0) checkTime(budget);
      const t = tuples[i] as number[];
      if (evalWith(formula, (k) => ((dfas[k] as SearchDfa).isAccepting(t[k] as number) ? T : F)) === T) {
        const cps: number[] = [];
        for (let j = i; parent[j] !== -1; j = parent[j] as number) cps.push(via[j] as number);
        return { status: 'witness', text: codePointsToString(cps.reverse()) };
      }
      // Prune: nothing reachable from here can satisfy the formula.
      const fixed = (k: number): number => {
        const d = dfas[k] as SearchDfa;
        const s = t[k] as number;
        if (s === 0) return T;
        return d.isDead(s) ? F : U;
      };
      if (evalWith(formula, fixed) === F) continue;
      for (const cp of reps) {
        for (let k = 0; k < dfas.length; k++) scratch[k] = (dfas[k] as SearchDfa).step(t[k] as number, cp);
        push(scratch, i, cp);
      }
    }
    return { status: 'empty' };
  } catch (e) {
    if (e instanceof LimitExceeded) return { status: 'limit', why: e.message };
    throw e;
  }
}

const alphabets = new Map<string, number[]>();
const ALPHABETS_MAX = 5_000;

/**
 * One character per block of the coarsest partition that the DFAs' character sets (and `\n`, word
 * characters) need, readable ones first: ties in the search go to them, so witnesses read
 * naturally. Cached by the set of DFAs (the same pairs of rules recur across questions and files).
 */
function productAlphabet(dfas: readonly SearchDfa[]): number[] {
  const key = dfas.map((d) => d.id).join(',');
  let reps = alphabets.get(key);
  if (reps === undefined) {
    reps = commonRefinement(dfas)
      .map((block) => pick(block) as number)
      .sort((a, b) => readability(a) - readability(b));
    if (alphabets.size >= ALPHABETS_MAX) alphabets.clear();
    alphabets.set(key, reps);
  }
  return reps;
}

/**
 * The blocks of the coarsest partition that refines every DFA's alphabet (which is the partition
 * of all their character sets, `\n` and word characters together), from the DFAs' own ranges.
 */
function commonRefinement(dfas: readonly SearchDfa[]): CharSet[] {
  const alphabets = dfas.map((d) => d.alphabet());
  const cutSet = new Set<number>();
  for (const a of alphabets) for (const s of a.starts) cutSet.add(s);
  const cuts = Int32Array.from(cutSet).sort();
  const cursor = new Int32Array(dfas.length);
  // The tuple of blocks as one number while that is exact (block counts multiply below 2^53).
  let room = 1;
  for (const a of alphabets) room *= a.starts.length + 1;
  const numeric = room < Number.MAX_SAFE_INTEGER;
  const groups = new Map<string | number, [number, number][]>();
  for (let i = 0; i < cuts.length; i++) {
    const lo = cuts[i] as number;
    const hi = i + 1 < cuts.length ? (cuts[i + 1] as number) - 1 : MAX_RUNE;
    let sig: string | number = numeric ? 0 : '';
    for (let k = 0; k < alphabets.length; k++) {
      const a = alphabets[k] as { starts: readonly number[]; blocks: readonly number[] };
      let c = cursor[k] as number;
      while (c + 1 < a.starts.length && (a.starts[c + 1] as number) <= lo) c++;
      cursor[k] = c;
      const b = a.blocks[c] as number;
      sig = typeof sig === 'number' ? sig * (a.starts.length + 1) + b : `${sig}${b},`;
    }
    let pairs = groups.get(sig);
    if (pairs === undefined) {
      pairs = [];
      groups.set(sig, pairs);
    }
    pairs.push([lo, hi]);
  }
  const out: CharSet[] = [];
  for (const pairs of groups.values()) {
    const block = fromRanges(pairs);
    if (block.length > 0) out.push(block);
  }
  return out;
}

/** A binary min-heap of ids by priority (ties: insertion order). */
class MinHeap {
  private readonly keys: number[] = [];
  private readonly ids: number[] = [];

  get size(): number {
    return this.ids.length;
  }

  push(key: number, id: number): void {
    const keys = this.keys;
    const ids = this.ids;
    let i = ids.length;
    keys.push(key);
    ids.push(id);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(keys[i] as number, ids[i] as number, keys[p] as number, ids[p] as number)) break;
      [keys[i], keys[p]] = [keys[p] as number, keys[i] as number];
      [ids[i], ids[p]] = [ids[p] as number, ids[i] as number];
      i = p;
    }
  }

  pop(): number {
    const keys = this.keys;
    const ids = this.ids;
    const top = ids[0] as number;
    const lastKey = keys.pop() as number;
    const lastId = ids.pop() as number;
    if (ids.length > 0) {
      keys[0] = lastKey;
      ids[0] = lastId;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < ids.length && less(keys[l] as number, ids[l] as number, keys[m] as number, ids[m] as number)) m = l;
        if (r < ids.length && less(keys[r] as number, ids[r] as number, keys[m] as number, ids[m] as number)) m = r;
        if (m === i) break;
        [keys[i], keys[m]] = [keys[m] as number, keys[i] as number];
        [ids[i], ids[m]] = [ids[m] as number, ids[i] as number];
        i = m;
      }
    }
    return top;
  }
}

function less(ka: number, ia: number, kb: number, ib: number): boolean {
  return ka < kb || (ka === kb && ia < ib);
}

/** `f` with every literal of `dfa` replaced by `value` (and constants folded). */
export function assign(f: Formula, dfa: SearchDfa, value: boolean): Formula {
  switch (f.op) {
    case 'const':
      return f;
    case 'atom':
      return f.dfa === dfa ? (f.neg ? !value : value) ? TRUE : FALSE : f;
    case 'and':
      return andOf(f.xs.map((x) => assign(x, dfa, value)));
    case 'or':
      return orOf(f.xs.map((x) => assign(x, dfa, value)));
  }
}

export function firstAtom(f: Formula): SearchDfa | undefined {
  if (f.op === 'atom') return f.dfa;
  if (f.op === 'and' || f.op === 'or') {
    for (const x of f.xs) {
      const a = firstAtom(x);
      if (a !== undefined) return a;
    }
  }
  return undefined;
}

/**
 * Whether `f` is satisfiable when its atoms are read as independent propositions (a DPLL-style
 * split). `false` proves the language empty without touching an automaton (two policies that
 * differ only in rule order, or a deny rule that is also an allow rule, end here); `true` or
 * `undefined` (too many splits) says nothing.
 */
export function propositionallySatisfiable(f: Formula, limit = 2_000): boolean | undefined {
  let budget = limit;
  const go = (g: Formula): boolean | undefined => {
    if (g.op === 'const') return g.value;
    if (--budget < 0) return undefined;
    const v = firstAtom(g) as SearchDfa;
    const t = go(assign(g, v, true));
    if (t === true) return true;
    const e = go(assign(g, v, false));
    if (e === true) return true;
    return t === undefined || e === undefined ? undefined : false;
  };
  return go(f);
}
