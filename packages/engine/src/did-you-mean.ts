/**
 * "Did you mean" suggestions for near misses (keys, enum values, driver names, DSL keywords, rule
 * ids, CLI commands and options): the project's one fuzzy matcher. `editDistance` is its one edit
 * distance and `nearMissLimit` its one threshold; the compiler (which re-exports these), the DSL's
 * parser, printer and messages, the lint configuration and the CLI use them.
 */

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const m = a.length;
  const n = b.length;
  if (m === 0) return n;
  if (n === 0) return m;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, (prev2[j - 2] ?? 0) + 1);
      }
      cur[j] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n] ?? 0;
}

/** The most edits a near miss of `word` may be from what it meant: a third of its length, at least 1. */
export function nearMissLimit(word: string): number {
  return Math.max(1, Math.floor(word.length / 3));
}

/** Whether `word` is a near miss of `target` (or `target` itself): case ignored, at most {@link nearMissLimit} edits. */
export function isNearMiss(word: string, target: string): boolean {
  const w = word.toLowerCase();
  const t = target.toLowerCase();
  if (w === t) return true;
  const limit = nearMissLimit(word);
  return Math.abs(w.length - t.length) <= limit && editDistance(w, t) <= limit;
}

/** Lowercase, without `_`, `-`, spaces and dots: `ReadOnly`, `read-only` and `read_only` compare equal. */
export function normalizeWord(s: string): string {
  return s.toLowerCase().replace(/[\s_.-]+/g, '');
}

/** Go constant names people copy from the SDK docs, mapped to the file's strings (normalized form). */
const GO_SYNONYMS: Readonly<Record<string, string>> = {
  autodeny: 'autoreject',
  deny: 'autoreject',
  reject: 'autoreject',
  approve: 'autoapprove',
  allowall: 'allowall',
};
const GO_PREFIXES = ['approval', 'question', 'sandbox', 'feature', 'fallback', 'policy'];

function goNormalize(s: string): string {
  let n = normalizeWord(s);
  for (const p of GO_PREFIXES) {
    if (n.startsWith(p) && n.length > p.length) {
      n = n.slice(p.length);
      break;
    }
  }
  return n;
}

/**
 * The closest candidate to `word`, or `undefined` when none is close enough.
 * Tried in order: same word ignoring case and separators; a Go constant name for it (`ApprovalAutoDeny`
 * → `auto_reject`); then edit distance at most a third of the word's length (at least 1).
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const pool = candidates.filter((c) => c !== '' && c !== word);
  if (pool.length === 0 || word === '') return undefined;
  const nw = normalizeWord(word);
  const exact = pool.find((c) => normalizeWord(c) === nw);
  if (exact !== undefined) return exact;
  const gw = goNormalize(word);
  // `FeatureDeny` is `deny` itself where `deny` is a value; elsewhere `deny` stands for `auto_reject`.
  const byGoName = pool.find((c) => normalizeWord(c) === gw);
  if (byGoName !== undefined) return byGoName;
  const syn = GO_SYNONYMS[gw] ?? gw;
  const bySyn = pool.find((c) => normalizeWord(c) === syn);
  if (bySyn !== undefined) return bySyn;
  const limit = nearMissLimit(word);
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of pool) {
    // The distance is at least the difference in length: a long word costs nothing to rule out.
    if (Math.abs(c.length - word.length) > limit) continue;
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return bestD <= limit ? best : undefined;
}

/** `did you mean \`x\`?` or `undefined`. */
export function didYouMeanHelp(word: string, candidates: readonly string[]): string | undefined {
  const s = didYouMean(word, candidates);
  return s === undefined ? undefined : `did you mean \`${s}\`?`;
}
