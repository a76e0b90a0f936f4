/**
 * The literal gate: one pass over the text that tells, for all the rules of a tool at once, which
 * of them can possibly match, instead of one native string search per rule.
 *
 * A rule is keyed when every match must contain one of a few literals (its key, from its screen:
 * the literal itself, its anchored prefix, one of its required groups, its leading literal), each of
 * at least `Q` code units. For each key literal one `Q`-gram (Q consecutive code units) is chosen;
 * a text containing the literal contains the gram. The pass hashes every `Q`-gram of the text (a
 * shift-xor hash whose value depends on exactly the last `Q` code units) and looks it up in a small
 * table; every rule whose gram hashes to a hit is marked a candidate. Collisions only add candidates,
 * so the gate never drops a rule that could match; a candidate still gets its exact test.
 */

/** Gram length in UTF-16 code units. */
export const Q = 4;

export interface Gate {
  /** log2 of the table size. */
  readonly bits: number;
  /** Shift per code unit: `Q * shift >= bits`, so a code unit `Q` back has left the mask. */
  readonly shift: number;
  readonly mask: number;
  /** Hash → bucket number + 1 (0: no key gram hashes here). */
  readonly table: Uint16Array | Int32Array;
  /** Bucket b's keyed ids are `ids[start[b]] .. ids[start[b + 1] - 1]`. */
  readonly start: Int32Array;
  readonly ids: Int32Array;
  /** Per bucket, the scan that last emptied it (a bucket's ids are marked once per scan). */
  readonly seen: Int32Array;
  /** Per keyed id, the scan that last marked it. */
  readonly marks: Int32Array;
  /** Scans made so far (the number of the last one). */
  scans: number;
}

function hashOf(gram: string, shift: number, mask: number): number {
  let h = 0;
  for (let i = 0; i < gram.length; i++) h = ((h << shift) ^ gram.charCodeAt(i)) & mask;
  return h;
}

/**
 * Builds a gate over `keys`: `keys[id]` is the key literals of keyed id `id` (each at least `Q` long).
 * Returns `null` when there is nothing to key.
 */
export function buildGate(keys: readonly (readonly string[])[]): Gate | null {
  if (keys.length === 0) return null;
  // How many keys contain each gram: a gram shared by many keys marks them all; prefer rare ones.
  const freq = new Map<string, number>();
  for (const lits of keys) {
    const grams = new Set<string>();
    for (const lit of lits) for (let i = 0; i + Q <= lit.length; i++) grams.add(lit.slice(i, i + Q));
    for (const g of grams) freq.set(g, (freq.get(g) ?? 0) + 1);
  }
  const chosen: string[][] = keys.map((lits) =>
    lits.map((lit) => {
      let best = lit.slice(lit.length - Q);
      let bestFreq = freq.get(best) ?? 0;
      for (let i = lit.length - Q - 1; i >= 0; i--) {
        const g = lit.slice(i, i + Q);
        const f = freq.get(g) ?? 0;
        if (f < bestFreq) {
          best = g;
          bestFreq = f;
        }
      }
      return best;
    }),
  );
  let grams = 0;
  for (const c of chosen) grams += c.length;
  const bits = Math.min(16, Math.max(10, Math.ceil(Math.log2(grams * 16))));
  const shift = Math.ceil(bits / Q);
  const mask = (1 << bits) - 1;
  const byHash = new Map<number, Set<number>>();
  chosen.forEach((gs, id) => {
    for (const g of gs) {
      const h = hashOf(g, shift, mask);
      let b = byHash.get(h);
      if (b === undefined) byHash.set(h, (b = new Set()));
      b.add(id);
    }
  });
  const table = byHash.size < 0xffff ? new Uint16Array(1 << bits) : new Int32Array(1 << bits);
  const start = new Int32Array(byHash.size + 1);
  const ids: number[] = [];
  let b = 0;
  for (const [h, set] of byHash) {
    table[h] = b + 1;
    start[b] = ids.length;
    for (const id of set) ids.push(id);
    b++;
  }
  start[b] = ids.length;
  return {
    bits,
    shift,
    mask,
    table,
    start,
    ids: Int32Array.from(ids),
    seen: new Int32Array(byHash.size).fill(-1),
    marks: new Int32Array(keys.length).fill(-1),
    scans: 0,
  };
}

/**
 * Marks every keyed id whose gram occurs in `text` (and perhaps a few more) with the returned scan
 * number: id `k` can match only if `gate.marks[k]` is that number. Scan numbers wrap after 2^31 scans;
 * a stale mark equal to a new number only adds a candidate.
 */
export function scan(gate: Gate, text: string): number {
  gate.scans = (gate.scans + 1) | 0;
  const no = gate.scans;
  const { shift, mask, table, start, ids, seen, marks } = gate;
  let h = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    h = ((h << shift) ^ text.charCodeAt(i)) & mask;
    const b = table[h]!;
    if (b !== 0 && seen[b - 1] !== no) {
      seen[b - 1] = no;
      for (let k = start[b - 1]!, end = start[b]!; k < end; k++) marks[ids[k]!] = no;
    }
  }
  return no;
}
