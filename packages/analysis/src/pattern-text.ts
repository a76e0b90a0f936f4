/**
 * A pattern's shape, read from the syntax tree, for the lint rules that look at it: the top-level
 * branches with their text and offsets, each branch's items with their repetition counts, whether
 * a branch can begin with given characters, and a sample string a pattern should match. Every
 * caller has the engine compile the pattern first and treats "unknown" (`null`, a group) as "could
 * be anything", so a shape this module does not resolve is never flagged. Samples are always
 * checked against the engine's matcher before they are used.
 */
import { type CharSet, has } from './charset.ts';
import { parsedRegex, type RegexNode } from './syntax.ts';

/** One item of a branch as far as lint's shape rules need it. */
export interface Atom {
  /**
   * `chars`: one character of `set`; `group`: a group, or anything else with inner structure
   * (could match anything); `anchor-start`, `anchor-end`: `^ \A`, `$ \z` (`line`: under `(?m)`);
   * `assert`: `\b \B`.
   */
  kind: 'chars' | 'group' | 'anchor-start' | 'anchor-end' | 'assert';
  set?: CharSet;
  /** For anchors: a line anchor (`(?m)^`, `(?m)$`), which also holds next to a newline. */
  line?: boolean;
  min: number;
  /** `Infinity` for unbounded. */
  max: number;
  /** The item as parsed (its repetition stripped). */
  node: RegexNode;
}

export interface Branch {
  text: string;
  /** Offset of the branch in the pattern. */
  start: number;
  /** The branch's items (flag groups such as `(?i)` are none). */
  atoms: readonly Atom[];
}

/** The pattern's `|`-separated branches outside any group, or `null` when it cannot be parsed. */
export function patternBranches(pattern: string): readonly Branch[] | null {
  const cached = branchCache.get(pattern);
  if (cached !== undefined) return cached;
  const root = parsedRegex(pattern);
  let out: readonly Branch[] | null = null;
  if (root !== null) {
    const branches = root.t === 'alt' ? root.subs : [root];
    out = Object.freeze(
      branches.map((b) =>
        Object.freeze({
          text: pattern.slice(b.start, b.end),
          start: b.start,
          atoms: Object.freeze((b.t === 'cat' ? b.subs : [b]).map(atomOf)),
        }),
      ),
    );
  }
  if (branchCache.size >= BRANCH_CACHE_LIMIT) branchCache.clear();
  branchCache.set(pattern, out);
  return out;
}

/** Branches of recently seen patterns: several rules read the same patterns of a file. */
const branchCache = new Map<string, readonly Branch[] | null>();
const BRANCH_CACHE_LIMIT = 2048;

function atomOf(item: RegexNode): Atom {
  let node = item;
  let min = 1;
  let max = 1;
  if (node.t === 'rep') {
    min = node.min;
    max = node.max < 0 ? Infinity : node.max;
    node = node.sub;
  }
  const atom = (kind: Atom['kind'], extra: Partial<Atom> = {}): Atom => Object.freeze({ kind, ...extra, min, max, node });
  switch (node.t) {
    case 'chars':
      return atom('chars', { set: node.set });
    case 'assert':
      if (node.kind === 'bot' || node.kind === 'bol') return atom('anchor-start', { line: node.kind === 'bol' });
      if (node.kind === 'eot' || node.kind === 'eol') return atom('anchor-end', { line: node.kind === 'eol' });
      return atom('assert');
    default:
      return atom('group');
  }
}

const WS = [' ', '\t', '\n', '\f', '\r'];

/** Whether `atom` can match the single character `c` (groups: yes). */
export function atomCanMatch(atom: Atom, c: string): boolean {
  if (atom.kind === 'chars') return has(atom.set as CharSet, c.codePointAt(0) as number);
  return atom.kind === 'group';
}

/**
 * Whether a branch's first consumed character can be one of `targets` (skipping optional atoms and,
 * when `skipWhitespace`, required whitespace). `true` when unsure.
 */
export function canBeginWith(list: readonly Atom[], targets: readonly string[], skipWhitespace: boolean): boolean {
  for (const a of list) {
    if (a.kind === 'anchor-start' || a.kind === 'anchor-end' || a.kind === 'assert') {
      if (a.kind === 'anchor-end') return true; // `^$`-like shapes are judged elsewhere
      continue;
    }
    if (a.max === 0) continue;
    if (targets.some((t) => atomCanMatch(a, t))) return true;
    if (a.min === 0) continue;
    if (skipWhitespace && WS.some((w) => atomCanMatch(a, w))) continue;
    return false;
  }
  return true;
}

/**
 * A string the pattern's first branch should match (anchors dropped, minimal repeats, or one more
 * where `extraRepeat` allows); `null` when unsure.
 */
export function sample(pattern: string, extraRepeat = false): string | null {
  const root = parsedRegex(pattern);
  if (root === null) return null;
  return sampleOf(pattern, root, extraRepeat);
}

const SAMPLE_CANDIDATES = ['a', 'x', '0', '/', ' ', '_', '-', '.', 'Z'];

function sampleOf(pattern: string, node: RegexNode, extraRepeat: boolean): string | null {
  if (node.t === 'alt') return sampleOf(pattern, node.subs[0] as RegexNode, extraRepeat);
  let out = '';
  for (const item of node.t === 'cat' ? node.subs : [node]) {
    const rep = item.t === 'rep';
    const min = rep ? item.min : 1;
    const times = extraRepeat && rep && min === 0 && item.max !== 0 ? 1 : min;
    if (times === 0) continue;
    const one = sampleAtom(pattern, rep ? item.sub : item, extraRepeat);
    if (one === null) return null;
    out += one.repeat(Math.min(times, 50));
  }
  return out;
}

function sampleAtom(pattern: string, node: RegexNode, extraRepeat: boolean): string | null {
  switch (node.t) {
    case 'chars': {
      if (node.form === 'literal') return String.fromCodePoint(node.lit as number);
      if (node.form === 'dot') return 'a';
      // A class: its first character as written when it is a member, else a readable member.
      const text = pattern.slice(node.start, node.end);
      const first = text.startsWith('[') && !text.startsWith('[^') ? text.codePointAt(1) : undefined;
      if (first !== undefined && first !== 0x5c && has(node.set, first)) return String.fromCodePoint(first);
      return SAMPLE_CANDIDATES.find((c) => has(node.set, c.codePointAt(0) as number)) ?? null;
    }
    case 'assert':
      return '';
    default:
      return sampleOf(pattern, node, extraRepeat);
  }
}
