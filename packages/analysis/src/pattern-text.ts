/**
 * A small reader of RE2 pattern text, enough for the lint rules that look at a pattern's shape:
 * top-level branches, leading flags, the atoms at each end of a branch and a sample string a
 * pattern should match. It never decides whether a pattern is valid (the engine does) and every
 * caller treats "unknown" as "could be anything", so a shape it does not understand is never
 * flagged. Samples are always checked against the engine's matcher before they are used.
 */

export interface Branch {
  text: string;
  /** Offset of the branch in the pattern. */
  start: number;
}

/** The pattern's `|`-separated branches outside any group or class. */
export function topLevelBranches(pattern: string): Branch[] {
  const branches: Branch[] = [];
  let depth = 0;
  let start = 0;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      i = skipEscape(pattern, i);
      continue;
    }
    if (c === '[') {
      i = skipClass(pattern, i);
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === '|' && depth === 0) {
      branches.push({ text: pattern.slice(start, i), start });
      start = i + 1;
    }
    i++;
  }
  branches.push({ text: pattern.slice(start), start });
  return branches;
}

/** Index just past the escape starting at `i` (`\Q…\E`, `\x{…}`, `\p{…}` included). */
function skipEscape(p: string, i: number): number {
  const n = p[i + 1];
  if (n === undefined) return i + 1;
  if (n === 'Q') {
    const e = p.indexOf('\\E', i + 2);
    return e < 0 ? p.length : e + 2;
  }
  if ((n === 'x' || n === 'p' || n === 'P') && p[i + 2] === '{') {
    const e = p.indexOf('}', i + 3);
    return e < 0 ? p.length : e + 1;
  }
  if (n === 'x') return Math.min(p.length, i + 4);
  if (n === 'p' || n === 'P') return Math.min(p.length, i + 3);
  return i + 2;
}

/** Index just past the character class starting at `i`. */
function skipClass(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  while (j < p.length) {
    const c = p[j];
    if (c === '\\') {
      j = skipEscape(p, j);
      continue;
    }
    if (c === '[' && p[j + 1] === ':') {
      const e = p.indexOf(':]', j + 2);
      if (e >= 0) {
        j = e + 2;
        continue;
      }
    }
    if (c === ']') return j + 1;
    j++;
  }
  return p.length;
}

/** Flags set by `(?flags)` groups at the very start of the pattern (`(?i)`, `(?ms)`). */
export function leadingFlags(pattern: string): { flags: string; length: number } {
  let flags = '';
  let i = 0;
  for (;;) {
    const m = /^\(\?([imsU-]+)\)/.exec(pattern.slice(i));
    if (m === null) break;
    const f = m[1] ?? '';
    const minus = f.indexOf('-');
    flags += minus < 0 ? f : f.slice(0, minus);
    i += m[0].length;
  }
  return { flags, length: i };
}

/** Whether the pattern turns on `flag` anywhere (`(?m)`, `(?m:…)`, `(?im)`). */
export function setsFlag(pattern: string, flag: string): boolean {
  const re = /\(\?([imsU]*)(?:-[imsU]*)?[):]/g;
  for (let m = re.exec(pattern); m !== null; m = re.exec(pattern)) {
    if ((m[1] ?? '').includes(flag)) return true;
  }
  return false;
}

/** What one atom can match, as far as this reader can tell. */
export interface Atom {
  kind: 'char' | 'class' | 'any' | 'group' | 'anchor-start' | 'anchor-end' | 'assert' | 'flags';
  /** The atom's text, quantifier excluded. */
  text: string;
  /** For `char`: the character. */
  char?: string;
  /** For `class`: membership, or undefined when not understood (then: anything). */
  test?: (c: string) => boolean;
  min: number;
  /** `Infinity` for unbounded. */
  max: number;
  /** Offset in the branch. */
  start: number;
}

const WS = new Set([' ', '\t', '\n', '\f', '\r']);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isWord = (c: string): boolean => /^[A-Za-z0-9_]$/.test(c);

const PERL_CLASSES: Record<string, (c: string) => boolean> = {
  s: (c) => WS.has(c),
  S: (c) => !WS.has(c),
  d: isDigit,
  D: (c) => !isDigit(c),
  w: isWord,
  W: (c) => !isWord(c),
};

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07' };

const QUANTIFIER = /^(?:\*|\+|\?|\{(\d+)(,(\d*))?\})/;

/**
 * Atoms of recently seen branches: the witness search and several rules read the same branches of
 * a file. Bounded (cleared when full); the lists are frozen, as they are shared.
 */
const atomCache = new Map<string, Atom[] | null>();
const ATOM_CACHE_LIMIT = 2048;

/** Splits a branch into atoms with their quantifiers; `null` when the text is not understood. */
export function atoms(branch: string): Atom[] | null {
  const cached = atomCache.get(branch);
  if (cached !== undefined) return cached;
  const list = parseAtoms(branch);
  if (list !== null) {
    for (const a of list) Object.freeze(a);
    Object.freeze(list);
  }
  if (atomCache.size >= ATOM_CACHE_LIMIT) atomCache.clear();
  atomCache.set(branch, list);
  return list;
}

function parseAtoms(branch: string): Atom[] | null {
  const out: Atom[] = [];
  let i = 0;
  while (i < branch.length) {
    const start = i;
    const c = branch[i] as string;
    let atom: Omit<Atom, 'min' | 'max' | 'start'>;
    if (c === '\\') {
      const end = skipEscape(branch, i);
      const body = branch.slice(i, end);
      i = end;
      const n = body[1] ?? '';
      if (n === 'Q') {
        // each quoted character is its own literal atom
        const lit = body.slice(2, body.endsWith('\\E') ? -2 : undefined);
        for (const ch of lit) out.push({ kind: 'char', text: ch, char: ch, min: 1, max: 1, start });
        continue;
      }
      if (n === 'A') atom = { kind: 'anchor-start', text: body };
      else if (n === 'z') atom = { kind: 'anchor-end', text: body };
      else if (n === 'b' || n === 'B') atom = { kind: 'assert', text: body };
      else if (PERL_CLASSES[n] !== undefined) atom = { kind: 'class', text: body, test: PERL_CLASSES[n] };
      else if (SIMPLE_ESCAPES[n] !== undefined) atom = { kind: 'char', text: body, char: SIMPLE_ESCAPES[n] };
      else if (n === 'x') {
        const hex = body.startsWith('\\x{') ? body.slice(3, -1) : body.slice(2);
        const cp = Number.parseInt(hex, 16);
        if (!Number.isFinite(cp) || cp > 0x10ffff) return null;
        atom = { kind: 'char', text: body, char: String.fromCodePoint(cp) };
      } else if (n === 'p' || n === 'P') atom = { kind: 'class', text: body };
      else if (/^[0-7]$/.test(n)) return null;
      else if (/[A-Za-z]/.test(n)) return null;
      else atom = { kind: 'char', text: body, char: n };
    } else if (c === '[') {
      const end = skipClass(branch, i);
      const body = branch.slice(i, end);
      i = end;
      const test = classTest(body);
      atom = test === undefined ? { kind: 'class', text: body } : { kind: 'class', text: body, test };
    } else if (c === '(') {
      const end = groupEnd(branch, i);
      if (end < 0) return null;
      const body = branch.slice(i, end);
      i = end;
      if (/^\(\?[imsU-]*\)$/.test(body)) atom = { kind: 'flags', text: body };
      else atom = { kind: 'group', text: body };
    } else if (c === '.') {
      atom = { kind: 'any', text: c };
      i++;
    } else if (c === '^') {
      atom = { kind: 'anchor-start', text: c };
      i++;
    } else if (c === '$') {
      atom = { kind: 'anchor-end', text: c };
      i++;
    } else if (c === '*' || c === '+' || c === '?' || c === ')' || c === '|') {
      return null;
    } else {
      const cp = branch.codePointAt(i) ?? 0;
      const ch = String.fromCodePoint(cp);
      atom = { kind: 'char', text: ch, char: ch };
      i += ch.length;
    }
    // quantifier
    let min = 1;
    let max = 1;
    const qc = branch[i];
    const q = qc === '*' || qc === '+' || qc === '?' || qc === '{' ? QUANTIFIER.exec(branch.slice(i)) : null;
    if (q !== null) {
      const t = q[0];
      if (t === '*') [min, max] = [0, Infinity];
      else if (t === '+') [min, max] = [1, Infinity];
      else if (t === '?') [min, max] = [0, 1];
      else {
        min = Number(q[1]);
        max = q[2] === undefined ? min : q[3] === '' || q[3] === undefined ? Infinity : Number(q[3]);
      }
      i += t.length;
      if (branch[i] === '?') i++;
    }
    // Same keys, same order as a spread of `atom`, without the copy.
    const full = atom as Atom;
    full.min = min;
    full.max = max;
    full.start = start;
    out.push(full);
  }
  return out;
}

/** Index just past the group starting at `i`, or -1 when it does not close. */
function groupEnd(p: string, i: number): number {
  let depth = 0;
  let j = i;
  while (j < p.length) {
    const c = p[j];
    if (c === '\\') {
      j = skipEscape(p, j);
      continue;
    }
    if (c === '[') {
      j = skipClass(p, j);
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  return -1;
}

/** Membership of a simple bracket class (`[abc]`, `[^"]`, `[a-z0-9_]`, `[\s\d]`); undefined otherwise. */
export function classTest(body: string): ((c: string) => boolean) | undefined {
  let inner = body.slice(1, -1);
  let negated = false;
  if (inner.startsWith('^')) {
    negated = true;
    inner = inner.slice(1);
  }
  const parts: ((c: string) => boolean)[] = [];
  let i = 0;
  const readChar = (): string | undefined => {
    const c = inner[i];
    if (c === undefined) return undefined;
    if (c === '\\') {
      const n = inner[i + 1];
      if (n === undefined) return undefined;
      if (/[A-Za-z0-9]/.test(n) && SIMPLE_ESCAPES[n] === undefined) return undefined;
      i += 2;
      return SIMPLE_ESCAPES[n] ?? n;
    }
    const cp = inner.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    return ch;
  };
  while (i < inner.length) {
    if (inner[i] === '[') return undefined; // [:alpha:] and friends: not modelled
    if (inner[i] === '\\' && PERL_CLASSES[inner[i + 1] ?? ''] !== undefined) {
      parts.push(PERL_CLASSES[inner[i + 1] as string] as (c: string) => boolean);
      i += 2;
      continue;
    }
    const lo = readChar();
    if (lo === undefined) return undefined;
    if (inner[i] === '-' && i + 1 < inner.length) {
      i++;
      const hi = readChar();
      if (hi === undefined) return undefined;
      const a = lo.codePointAt(0) ?? 0;
      const b = hi.codePointAt(0) ?? 0;
      parts.push((c) => {
        const x = c.codePointAt(0) ?? -1;
        return x >= a && x <= b;
      });
    } else {
      parts.push((c) => c === lo);
    }
  }
  return (c) => parts.some((f) => f(c)) !== negated;
}

/** Whether `atom` can match the single character `c` (unknown shapes: yes). */
export function atomCanMatch(atom: Atom, c: string, caseInsensitive: boolean): boolean {
  switch (atom.kind) {
    case 'char':
      return caseInsensitive ? atom.char?.toLowerCase() === c.toLowerCase() : atom.char === c;
    case 'class':
      return atom.test === undefined ? true : atom.test(c);
    case 'any':
      return c !== '\n';
    case 'group':
      return true;
    default:
      return false;
  }
}

/**
 * Whether a branch's first consumed character can be one of `targets` (skipping optional atoms and,
 * when `skipWhitespace`, required whitespace). `true` when unsure.
 */
export function canBeginWith(
  list: readonly Atom[],
  targets: readonly string[],
  skipWhitespace: boolean,
  caseInsensitive: boolean,
): boolean {
  for (const a of list) {
    if (a.kind === 'anchor-start' || a.kind === 'anchor-end' || a.kind === 'assert' || a.kind === 'flags') {
      if (a.kind === 'anchor-end') return true; // `^$`-like shapes are judged elsewhere
      continue;
    }
    if (a.max === 0) continue;
    if (targets.some((t) => atomCanMatch(a, t, caseInsensitive))) return true;
    if (a.min === 0) continue;
    const wsOnly = [...WS].some((w) => atomCanMatch(a, w, caseInsensitive));
    if (skipWhitespace && wsOnly) continue;
    return false;
  }
  return true;
}

/** A string the branch should match (anchors dropped, minimal repeats); null when unsure. */
export function sample(pattern: string, extraRepeat = false): string | null {
  const first = topLevelBranches(pattern)[0];
  if (first === undefined) return '';
  const list = atoms(first.text);
  if (list === null) return null;
  let out = '';
  for (const a of list) {
    const times = extraRepeat ? Math.max(a.min, Math.min(a.max, 1)) : a.min;
    if (times === 0) continue;
    const one = sampleAtom(a, extraRepeat);
    if (one === null) return null;
    out += one.repeat(Math.min(times, 50));
  }
  return out;
}

const SAMPLE_CANDIDATES = ['a', 'x', '0', '/', ' ', '_', '-', '.', 'Z'];

function sampleAtom(a: Atom, extraRepeat: boolean): string | null {
  switch (a.kind) {
    case 'char':
      return a.char ?? null;
    case 'any':
      return 'a';
    case 'class': {
      if (a.test === undefined) return /^\\p/.test(a.text) ? 'a' : null;
      const literal = a.text.startsWith('[') && !a.text.startsWith('[^') ? a.text[1] : undefined;
      if (literal !== undefined && literal !== '\\' && a.test(literal)) return literal;
      return SAMPLE_CANDIDATES.find((c) => a.test?.(c) === true) ?? null;
    }
    case 'group': {
      const m = /^\((?:\?P?<[^>]+>|\?[imsU-]*:|)/.exec(a.text);
      const inner = a.text.slice(m?.[0].length ?? 1, -1);
      return sample(inner, extraRepeat);
    }
    default:
      return '';
  }
}
