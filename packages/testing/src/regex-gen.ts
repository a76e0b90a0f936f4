/**
 * Strings from a rule's regex: a small parser for the common part of RE2 syntax builds a tree, and
 * the tree becomes a fast-check arbitrary. The generator only proposes: every "matching" sample is
 * checked with the engine's own matcher and dropped when it does not match, so an unsupported or
 * approximated construct (anchors in odd places, `\b`, Unicode classes) can cost samples, never
 * correctness.
 */
import fc from 'fast-check';

export type RegexNode =
  | { kind: 'empty' }
  | { kind: 'lit'; ch: string; fold: boolean }
  | { kind: 'set'; ranges: [number, number][]; negated: boolean; fold: boolean }
  | { kind: 'any'; newline: boolean }
  | { kind: 'assert' }
  | { kind: 'cat'; items: RegexNode[] }
  | { kind: 'alt'; items: RegexNode[] }
  | { kind: 'rep'; node: RegexNode; min: number; max: number };

const DIGIT: [number, number][] = [[0x30, 0x39]];
const WORD: [number, number][] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const SPACE: [number, number][] = [[0x09, 0x0a], [0x0c, 0x0d], [0x20, 0x20]];
const POSIX: Record<string, [number, number][]> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
  blank: [[0x09, 0x09], [0x20, 0x20]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: DIGIT,
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  word: WORD,
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
};
/** Unicode classes, approximated by a few of their members (samples are checked anyway). */
const UNICODE: [number, number][] = [[0x41, 0x5a], [0x61, 0x7a], [0xe0, 0xf6], [0x3b1, 0x3c9]];
const REPEAT_CAP = 4;

class Unsupported extends Error {}

/** The tree of `pattern`, or `undefined` for syntax this generator does not know. */
export function parseRegex(pattern: string): RegexNode | undefined {
  try {
    return new RegexParser(pattern).parse();
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

class RegexParser {
  private i = 0;
  private fold = false;
  private dotNl = false;
  constructor(private readonly src: string) {}

  parse(): RegexNode {
    const node = this.alt();
    if (this.i < this.src.length) throw new Unsupported();
    return node;
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  private alt(): RegexNode {
    const items = [this.cat()];
    while (this.peek() === '|') {
      this.i++;
      items.push(this.cat());
    }
    return items.length === 1 ? items[0]! : { kind: 'alt', items };
  }

  private cat(): RegexNode {
    const items: RegexNode[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      const atom = this.atom();
      if (atom) items.push(this.quantified(atom));
    }
    return items.length === 1 ? items[0]! : items.length === 0 ? { kind: 'empty' } : { kind: 'cat', items };
  }

  private quantified(atom: RegexNode): RegexNode {
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === '*') (min = 0), (max = REPEAT_CAP), this.i++;
      else if (c === '+') (min = 1), (max = REPEAT_CAP), this.i++;
      else if (c === '?') (min = 0), (max = 1), this.i++;
      else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
        if (!m) return atom; // a literal `{`, as Go reads it
        this.i += m[0].length;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? min + REPEAT_CAP : Number(m[3]);
      } else return atom;
      if (this.peek() === '?') this.i++; // lazy: same strings
      atom = { kind: 'rep', node: atom, min, max: Math.min(max, min + REPEAT_CAP) };
    }
  }

  private atom(): RegexNode | undefined {
    const c = this.src[this.i++]!;
    switch (c) {
      case '(':
        return this.group();
      case '[':
        return this.set();
      case '.':
        return { kind: 'any', newline: this.dotNl };
      case '^':
      case '$':
        return { kind: 'assert' };
      case '\\':
        return this.escape(false);
      default:
        return this.lit(c);
    }
  }

  private lit(ch: string): RegexNode {
    // a surrogate pair is one character
    if (/[\ud800-\udbff]/.test(ch) && /[\udc00-\udfff]/.test(this.peek() ?? '')) ch += this.src[this.i++];
    return { kind: 'lit', ch, fold: this.fold };
  }

  private group(): RegexNode | undefined {
    const saved = { fold: this.fold, dotNl: this.dotNl };
    if (this.peek() === '?') {
      const flags = /^\?([imsU]*)(?:-([imsU]*))?([:)])/.exec(this.src.slice(this.i));
      const named = /^\?P?<[A-Za-z0-9_]+>/.exec(this.src.slice(this.i));
      if (flags) {
        this.i += flags[0].length;
        const on = flags[1] ?? '';
        const off = flags[2] ?? '';
        if (on.includes('i')) this.fold = true;
        if (off.includes('i')) this.fold = false;
        if (on.includes('s')) this.dotNl = true;
        if (off.includes('s')) this.dotNl = false;
        // `(?i)` changes the flags for the rest of the enclosing group
        if (flags[3] === ')') return undefined;
      } else if (named) this.i += named[0].length;
      else throw new Unsupported();
    }
    const node = this.alt();
    if (this.src[this.i++] !== ')') throw new Unsupported();
    this.fold = saved.fold;
    this.dotNl = saved.dotNl;
    return node;
  }

  private escape(inSet: boolean): RegexNode {
    const c = this.src[this.i++];
    if (c === undefined) throw new Unsupported();
    const fold = this.fold;
    switch (c) {
      case 'd':
      case 'D':
        return { kind: 'set', ranges: DIGIT, negated: c === 'D', fold: false };
      case 'w':
      case 'W':
        return { kind: 'set', ranges: WORD, negated: c === 'W', fold: false };
      case 's':
      case 'S':
        return { kind: 'set', ranges: SPACE, negated: c === 'S', fold: false };
      case 'p':
      case 'P': {
        if (this.peek() === '{') {
          const end = this.src.indexOf('}', this.i);
          if (end < 0) throw new Unsupported();
          this.i = end + 1;
        } else this.i++;
        return { kind: 'set', ranges: UNICODE, negated: c === 'P', fold: false };
      }
      case 'b':
      case 'B':
      case 'A':
      case 'z':
        if (inSet) throw new Unsupported();
        return { kind: 'assert' };
      case 'Q': {
        const end = this.src.indexOf('\\E', this.i);
        const text = end < 0 ? this.src.slice(this.i) : this.src.slice(this.i, end);
        this.i = end < 0 ? this.src.length : end + 2;
        return { kind: 'cat', items: [...text].map((ch) => ({ kind: 'lit', ch, fold }) as RegexNode) };
      }
      case 'x': {
        const m = /^(?:\{([0-9A-Fa-f]+)\}|([0-9A-Fa-f]{2}))/.exec(this.src.slice(this.i));
        if (!m) throw new Unsupported();
        this.i += m[0].length;
        return { kind: 'lit', ch: String.fromCodePoint(parseInt(m[1] ?? m[2]!, 16)), fold };
      }
      case 'n':
        return { kind: 'lit', ch: '\n', fold: false };
      case 't':
        return { kind: 'lit', ch: '\t', fold: false };
      case 'r':
        return { kind: 'lit', ch: '\r', fold: false };
      case 'f':
        return { kind: 'lit', ch: '\f', fold: false };
      case 'v':
        return { kind: 'lit', ch: '\v', fold: false };
      case 'a':
        return { kind: 'lit', ch: '\x07', fold: false };
      default:
        if (/[0-7]/.test(c)) {
          const m = /^[0-7]{0,2}/.exec(this.src.slice(this.i))!;
          this.i += m[0].length;
          return { kind: 'lit', ch: String.fromCharCode(parseInt(c + m[0], 8)), fold: false };
        }
        if (/[A-Za-z0-9]/.test(c)) throw new Unsupported();
        return { kind: 'lit', ch: c, fold };
    }
  }

  private set(): RegexNode {
    let negated = false;
    if (this.peek() === '^') (negated = true), this.i++;
    const ranges: [number, number][] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw new Unsupported();
      if (c === ']' && !first) break;
      first = false;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.src.slice(this.i));
      if (posix) {
        const r = POSIX[posix[2]!];
        if (!r || posix[1]) throw new Unsupported();
        ranges.push(...r);
        this.i += posix[0].length;
        continue;
      }
      const lo = this.setChar();
      if (typeof lo !== 'number') {
        if (lo.kind !== 'set' || lo.negated) throw new Unsupported();
        ranges.push(...lo.ranges);
        continue;
      }
      if (this.peek() === '-' && this.src[this.i + 1] !== ']') {
        this.i++;
        const hi = this.setChar();
        if (typeof hi !== 'number') throw new Unsupported();
        ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    this.i++;
    return { kind: 'set', ranges, negated, fold: this.fold };
  }

  private setChar(): number | RegexNode {
    const c = this.src[this.i++]!;
    if (c !== '\\') {
      const cp = this.src.codePointAt(this.i - 1)!;
      if (cp > 0xffff) this.i++;
      return cp;
    }
    const e = this.escape(true);
    if (e.kind === 'lit') return e.ch.codePointAt(0)!;
    return e;
  }
}

const PRINTABLE: [number, number][] = [[0x20, 0x7e]];

function charIn(ranges: [number, number][]): fc.Arbitrary<string> {
  // Prefer small, printable members: a range like [^a] would otherwise draw mostly rare characters.
  const picks = ranges.map(([lo, hi]) => fc.integer({ min: lo, max: Math.min(hi, lo + 200) }).map((n) => String.fromCodePoint(n)));
  return picks.length === 1 ? picks[0]! : fc.oneof(...picks);
}

function complement(ranges: [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  let next = 0x20; // printable ASCII and above
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= 0x7e) out.push([next, 0x7e]);
  if (out.length === 0) out.push([0xe9, 0xe9]);
  return out;
}

function withCase(ch: fc.Arbitrary<string>, fold: boolean): fc.Arbitrary<string> {
  if (!fold) return ch;
  return fc.tuple(ch, fc.boolean()).map(([c, up]) => (up ? c.toUpperCase() : c.toLowerCase()));
}

/** An arbitrary of strings proposed by the tree (not yet checked against the engine). */
export function proposals(node: RegexNode): fc.Arbitrary<string> {
  switch (node.kind) {
    case 'empty':
    case 'assert':
      return fc.constant('');
    case 'lit':
      return node.fold && node.ch.toLowerCase() !== node.ch.toUpperCase()
        ? fc.constantFrom(node.ch, node.ch.toLowerCase(), node.ch.toUpperCase())
        : fc.constant(node.ch);
    case 'any':
      return charIn(PRINTABLE);
    case 'set':
      return withCase(charIn(node.negated ? complement(node.ranges) : node.ranges), node.fold);
    case 'cat':
      return fc.tuple(...node.items.map(proposals)).map((parts) => parts.join(''));
    case 'alt':
      return fc.oneof(...node.items.map(proposals));
    case 'rep':
      return fc.array(proposals(node.node), { minLength: node.min, maxLength: node.max }).map((parts) => parts.join(''));
  }
}

/** One-edit mutations of `s`: delete, insert, replace or re-case one character. */
export function mutations(s: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const ch = fc.constantFrom(' ', '-', '/', 'x', '0', '\\', '"', ';', 'é', '\t');
  return fc.tuple(s, fc.nat(), fc.constantFrom('delete', 'insert', 'replace', 'case', 'double'), ch).map(([text, at, op, c]) => {
    const chars = [...text];
    const i = chars.length === 0 ? 0 : at % (op === 'insert' ? chars.length + 1 : chars.length);
    switch (op) {
      case 'delete':
        chars.splice(i, 1);
        break;
      case 'insert':
        chars.splice(i, 0, c);
        break;
      case 'replace':
        if (chars.length) chars[i] = chars[i] === c ? 'y' : c;
        else chars.push(c);
        break;
      case 'case': {
        const x = chars[i] ?? '';
        chars[i] = x === x.toUpperCase() ? x.toLowerCase() : x.toUpperCase();
        break;
      }
      default:
        if (chars.length) chars.splice(i, 0, chars[i]!);
    }
    return chars.join('');
  });
}
