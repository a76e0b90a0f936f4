/** "Did you mean" support: optimal string alignment distance over lowercased words. */

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length > 64 || b.length > 64) return Math.abs(a.length - b.length) + 64;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1]!;
}

/** Whether `word` is a near miss of `target`: same word in another case, or one or two edits away. */
export function isNear(word: string, target: string): boolean {
  const w = word.toLowerCase();
  if (w === target) return true;
  const limit = target.length <= 4 ? 1 : 2;
  if (Math.abs(w.length - target.length) > limit) return false;
  return editDistance(w, target) <= limit;
}

/** The candidate `word` most likely meant, when one is near enough. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    if (!isNear(word, c)) continue;
    const dist = editDistance(word.toLowerCase(), c);
    if (dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  return best;
}

export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const c = closest(word, candidates);
  return c === undefined || c === word ? undefined : `did you mean \`${c}\`?`;
}
