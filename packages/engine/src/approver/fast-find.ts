/**
 * Substring search that starts from the needle's rarest character. V8's `indexOf` looks for the
 * needle's first character and compares from there: a needle starting with a character frequent in
 * tool inputs (`"`, space, `e`, `/`) stops at nearly every position. Searching for the needle's
 * suffix from its rarest character, then checking the part before it, finds the same occurrences.
 */

/** ASCII characters of JSON tool inputs and code, most frequent first (rough); others count as rare. */
const COMMON = ' e"tasoinrl:/,.cdpu_hmf-gb0y1w{}2()=;ATvk3SE45x67';
const RANK = new Int32Array(128).fill(-1);
for (let i = 0; i < COMMON.length; i++) RANK[COMMON.charCodeAt(i)] = COMMON.length - i;

export interface Needle {
  readonly text: string;
  /** Offset of the search anchor: `text.slice(at)` is searched, `text.slice(0, at)` checked before it. */
  readonly at: number;
  readonly suffix: string;
  readonly head: string;
}

export function needle(text: string): Needle {
  let at = 0;
  let best = Infinity;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const rank = c < 128 ? RANK[c]! : 0;
    if (rank < best) {
      best = rank;
      at = i;
    }
  }
  return { text, at, suffix: text.slice(at), head: text.slice(0, at) };
}

/** `text.indexOf(n.text, from)`, searched from the needle's rarest character. */
export function find(text: string, n: Needle, from = 0): number {
  if (n.at === 0) return text.indexOf(n.text, from);
  let i = text.indexOf(n.suffix, from + n.at);
  while (i >= 0) {
    if (text.startsWith(n.head, i - n.at)) return i - n.at;
    i = text.indexOf(n.suffix, i + 1);
  }
  return -1;
}

/** Whether every group has a needle in `text` (the `check` screen's groups). */
export function findAll(groups: readonly (readonly Needle[])[], text: string): boolean {
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i]!;
    let hit = false;
    for (let j = 0; j < g.length && !hit; j++) hit = find(text, g[j]!) >= 0;
    if (!hit) return false;
  }
  return true;
}
