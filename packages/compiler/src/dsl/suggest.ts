/**
 * The DSL's "did you mean": near misses of its keywords (lowercased words, one edit for a word of
 * up to four letters, two above), over the compiler's one edit distance.
 */
import { editDistance } from '../did-you-mean.ts';

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
