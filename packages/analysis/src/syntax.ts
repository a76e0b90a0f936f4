/**
 * The one parser of Go's regexp syntax (RE2, `syntax.Perl` flags) in Verdict: a tree with source
 * offsets, from which the analysis builds automata, lint reads a pattern's shape and the testing
 * package generates strings.
 *
 * It follows Go's `regexp/syntax` parser closely enough to give every valid pattern its exact
 * language: flags `i m s U` (`U` does not change the language), groups `(?:…)` `(?P<n>…)`
 * `(?<n>…)`, classes with ranges, POSIX `[[:alpha:]]`, Perl `\d\s\w`, Unicode `\pL` `\p{Greek}`,
 * escapes (`\x{…}`, octal, `\Q…\E`), anchors and repetition. Callers compile the pattern with the
 * engine first: this parser is not the judge of validity, and throws `UnsupportedPattern` for
 * anything it cannot give an exact language to (the analysis then says "unknown").
 *
 * Shape: every `|`-separated branch is a `cat` node whose `subs` are its items as written (a
 * group is one item: its own `cat` or `alt`; a flag group such as `(?i)` is no item), and every
 * node carries `start` and `end`, UTF-16 offsets into the pattern (a branch's span includes its
 * flag groups; a group's span its parentheses and quantifier-free text).
 */
import {
  ANY,
  type CharSet,
  codePointsToString,
  EMPTY,
  fromRanges,
  negate,
  single,
  union,
} from './charset.ts';
import { foldSet, orbit, PERL_CLASSES, POSIX_CLASSES, unicodeClass } from './unicode.ts';

export type AssertKind = 'bot' | 'eot' | 'bol' | 'eol' | 'wb' | 'nwb';

/** Where a node is written: UTF-16 offsets into the pattern, `end` exclusive. */
export interface SourceSpan {
  start: number;
  end: number;
}

export type RegexNode = SourceSpan &
  (
    | {
        t: 'chars';
        set: CharSet;
        /** How it is written: one literal character (`lit`: its code point, before folding), `.`, or a class or class escape. */
        form: 'literal' | 'dot' | 'class';
        lit?: number;
      }
    | { t: 'cat'; subs: RegexNode[] }
    | { t: 'alt'; subs: RegexNode[] }
    /** `max` is -1 for no upper bound. */
    | { t: 'rep'; sub: RegexNode; min: number; max: number }
    | { t: 'assert'; kind: AssertKind }
  );

export class UnsupportedPattern extends Error {}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
}

const NL_FREE = negate(single(0x0a));

export function parseRegex(pattern: string): RegexNode {
  return new Parser(pattern).parse();
}

const parsed = new Map<string, RegexNode | UnsupportedPattern>();
const PARSED_MAX = 4_096;

/**
 * `parseRegex` for callers that read trees and never change them (lint's pattern rules, the
 * generators): one parse per pattern, shared, bounded; `null` when the pattern cannot be modelled.
 */
export function parsedRegex(pattern: string): RegexNode | null {
  let r = parsed.get(pattern);
  if (r === undefined) {
    try {
      r = parseRegex(pattern);
    } catch (e) {
      if (!(e instanceof UnsupportedPattern)) throw e;
      r = e;
    }
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(pattern, r);
  }
  return r instanceof UnsupportedPattern ? null : r;
}

class Parser {
  private readonly cps: number[];
  /** UTF-16 offset of each code point, and of the end. */
  private readonly offs: number[];
  private pos = 0;
  private flags: Flags = { i: false, m: false, s: false };

  constructor(pattern: string) {
    this.cps = Array.from(pattern, (c) => c.codePointAt(0) as number);
    this.offs = new Array<number>(this.cps.length + 1);
    let o = 0;
    for (let k = 0; k < this.cps.length; k++) {
      this.offs[k] = o;
      o += (this.cps[k] as number) > 0xffff ? 2 : 1;
    }
    this.offs[this.cps.length] = o;
  }

  parse(): RegexNode {
    const node = this.alternation();
    if (this.pos < this.cps.length) this.fail('unexpected `)`');
    return node;
  }

  private fail(msg: string): never {
    throw new UnsupportedPattern(msg);
  }

  private peek(k = 0): number | undefined {
    return this.cps[this.pos + k];
  }

  private eat(ch: string): boolean {
    if (this.peek() === ch.codePointAt(0)) {
      this.pos++;
      return true;
    }
    return false;
  }

  /** The source span from code point index `from` to the current position. */
  private span(from: number): SourceSpan {
    return { start: this.offs[from] as number, end: this.offs[this.pos] as number };
  }

  private chars(from: number, set: CharSet, form: 'literal' | 'dot' | 'class', lit?: number): RegexNode {
    return lit === undefined ? { t: 'chars', set, form, ...this.span(from) } : { t: 'chars', set, form, lit, ...this.span(from) };
  }

  private alternation(): RegexNode {
    const from = this.pos;
    const alts: RegexNode[] = [this.concatenation()];
    while (this.eat('|')) alts.push(this.concatenation());
    return alts.length === 1 ? (alts[0] as RegexNode) : { t: 'alt', subs: alts, ...this.span(from) };
  }

  private concatenation(): RegexNode {
    const from = this.pos;
    const items: RegexNode[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === 0x7c /* | */ || c === 0x29 /* ) */) break;
      // \Q…\E: each character a literal of its own. A flag group such as `(?i)`: no item.
      const atoms = c === 0x5c && this.peek(1) === 0x51 ? this.quoted() : [this.atom()].filter((a) => a !== null);
      // As in Go, a repetition takes the last item pushed: the last quoted character, or the item
      // before a flag group or an empty `\Q\E` (`a(?i)*` is `a*`).
      const last = atoms.pop() ?? items.pop();
      items.push(...atoms);
      if (last !== undefined) items.push(this.repetitions(last));
      else if (this.atRepetition()) this.fail('missing argument to repetition operator');
    }
    return { t: 'cat', subs: items, ...this.span(from) };
  }

  private repetitions(atom: RegexNode): RegexNode {
    let node = atom;
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === 0x2a) [min, max] = [0, -1];
      else if (c === 0x2b) [min, max] = [1, -1];
      else if (c === 0x3f) [min, max] = [0, 1];
      else if (c === 0x7b) {
        const r = this.braces();
        if (r === null) return node;
        [min, max] = r;
        this.pos--; // `braces` consumed through `}`; the shared `pos++` below is for one char
      } else return node;
      this.pos++;
      this.eat('?'); // non-greedy: same language
      node = { t: 'rep', sub: node, min, max, start: node.start, end: this.offs[this.pos] as number };
    }
  }

  /** Whether a repetition operator starts at `pos` (nothing consumed). */
  private atRepetition(): boolean {
    const c = this.peek();
    if (c === 0x2a || c === 0x2b || c === 0x3f) return true;
    if (c !== 0x7b) return false;
    const at = this.pos;
    const r = this.braces();
    this.pos = at;
    return r !== null;
  }

  /** Parses `{n}`, `{n,}`, `{n,m}` at `pos`; `null` (nothing consumed) when it is a literal `{`. */
  private braces(): [number, number] | null {
    const start = this.pos;
    this.pos++;
    const lo = this.number();
    if (lo === null) {
      this.pos = start;
      return null;
    }
    let hi = lo;
    if (this.eat(',')) {
      hi = this.peek() === 0x7d ? -1 : (this.number() ?? -2);
      if (hi === -2) {
        this.pos = start;
        return null;
      }
    }
    if (!this.eat('}')) {
      this.pos = start;
      return null;
    }
    if (lo > 1000 || hi > 1000 || (hi >= 0 && hi < lo)) this.fail('invalid repeat count');
    return [lo, hi];
  }

  private number(): number | null {
    const start = this.pos;
    while (this.peek() !== undefined && (this.peek() as number) >= 0x30 && (this.peek() as number) <= 0x39) this.pos++;
    const text = codePointsToString(this.cps.slice(start, this.pos));
    if (text === '' || (text.length >= 2 && text[0] === '0')) return null;
    return text.length > 8 ? 100_000_000 : Number(text);
  }

  /** The literal `cp`, written from `from` to here (its fold orbit under `(?i)`). */
  private literal(from: number, cp: number): RegexNode {
    const set = this.flags.i ? fromRanges(orbit(cp).map((c) => [c, c] as [number, number])) : single(cp);
    return this.chars(from, set, 'literal', cp);
  }

  /** One atom, or `null` for a flag-only group. */
  private atom(): RegexNode | null {
    const from = this.pos;
    const c = this.peek() as number;
    switch (c) {
      case 0x28: // (
        return this.paren();
      case 0x5b: // [
        return this.charClass();
      case 0x2e: // .
        this.pos++;
        return this.chars(from, this.flags.s ? ANY : NL_FREE, 'dot');
      case 0x5e: // ^
        this.pos++;
        return { t: 'assert', kind: this.flags.m ? 'bol' : 'bot', ...this.span(from) };
      case 0x24: // $
        this.pos++;
        return { t: 'assert', kind: this.flags.m ? 'eol' : 'eot', ...this.span(from) };
      case 0x2a:
      case 0x2b:
      case 0x3f:
        return this.fail('missing argument to repetition operator');
      case 0x5c: // \
        return this.escapeAtom();
      default:
        this.pos++;
        return this.literal(from, c);
    }
  }

  private paren(): RegexNode | null {
    const from = this.pos;
    this.pos++;
    const saved = { ...this.flags };
    if (this.eat('?')) {
      if (this.peek() === 0x50 /* P */ && this.peek(1) === 0x3c /* < */) this.pos++;
      if (this.eat('<')) {
        while (this.peek() !== undefined && this.peek() !== 0x3e) this.pos++;
        if (!this.eat('>')) this.fail('invalid named capture');
      } else {
        // Flags: `(?i)`, `(?i-s:…)`.
        let negative = false;
        const next = { ...this.flags };
        for (;;) {
          const f = this.peek();
          this.pos++;
          if (f === 0x69) next.i = !negative;
          else if (f === 0x6d) next.m = !negative;
          else if (f === 0x73) next.s = !negative;
          else if (f === 0x55) {
            /* non-greedy by default: same language */
          } else if (f === 0x2d && !negative) negative = true;
          else if (f === 0x29) {
            this.flags = next;
            return null;
          } else if (f === 0x3a) {
            this.flags = next;
            break;
          } else this.fail('invalid or unsupported Perl syntax');
        }
      }
    }
    const inner = this.alternation();
    if (!this.eat(')')) this.fail('missing closing )');
    this.flags = saved;
    // The group is its inner node (a `cat` or an `alt`), spanning the parentheses.
    return { ...inner, ...this.span(from) };
  }

  /** `\Q…\E` at `pos`: its literals, consumed (through `\E`, or the end of the pattern). */
  private quoted(): RegexNode[] {
    this.pos += 2;
    const lits: RegexNode[] = [];
    while (this.pos < this.cps.length) {
      if (this.peek() === 0x5c && this.peek(1) === 0x45) {
        this.pos += 2;
        break;
      }
      const from = this.pos;
      this.pos++;
      lits.push(this.literal(from, this.cps[from] as number));
    }
    return lits;
  }

  private escapeAtom(): RegexNode {
    const from = this.pos;
    const c = this.peek(1);
    const assert = (kind: AssertKind): RegexNode => {
      this.pos += 2;
      return { t: 'assert', kind, ...this.span(from) };
    };
    switch (c) {
      case 0x41: // \A
        return assert('bot');
      case 0x7a: // \z
        return assert('eot');
      case 0x62: // \b
        return assert('wb');
      case 0x42: // \B
        return assert('nwb');
      default: {
        const cls = this.classEscape();
        if (cls !== null) return this.chars(from, cls, 'class');
        const cp = this.escapeChar();
        return this.literal(from, cp);
      }
    }
  }

  /** `\d \D \s \S \w \W \pX \p{X} \PX \P{^X}` at `pos`, or `null` (nothing consumed). */
  private classEscape(): CharSet | null {
    const c = this.peek(1);
    if (c === undefined) return null;
    const letter = String.fromCodePoint(c);
    const perl = PERL_CLASSES[letter.toLowerCase()];
    if (perl !== undefined && 'dDsSwW'.includes(letter)) {
      this.pos += 2;
      const base = this.flags.i ? foldSet(perl) : perl;
      return letter === letter.toLowerCase() ? base : negate(base);
    }
    if (letter === 'p' || letter === 'P') {
      this.pos += 2;
      let positive = letter === 'p';
      let name: string;
      if (this.eat('{')) {
        const start = this.pos;
        while (this.peek() !== undefined && this.peek() !== 0x7d) this.pos++;
        name = codePointsToString(this.cps.slice(start, this.pos));
        if (!this.eat('}')) this.fail('invalid character class range');
      } else {
        const n = this.peek();
        if (n === undefined) this.fail('invalid character class range');
        this.pos++;
        name = String.fromCodePoint(n);
      }
      if (name.startsWith('^')) {
        positive = !positive;
        name = name.slice(1);
      }
      const set = unicodeClass(name);
      if (set === null) this.fail(`unknown unicode class \`${name}\``);
      // Go folds before negating: `(?i)\PL` excludes every letter and its case variants.
      const base = this.flags.i ? foldSet(set) : set;
      return positive ? base : negate(base);
    }
    return null;
  }

  /** A single-character escape at `pos` (`\n`, `\x41`, `\x{263a}`, `\101`, `\.`), consumed. */
  private escapeChar(): number {
    const c = this.peek(1);
    if (c === undefined) this.fail('trailing backslash at end of expression');
    this.pos += 2;
    if (c >= 0x31 && c <= 0x37) {
      const n = this.peek();
      if (n === undefined || n < 0x30 || n > 0x37) this.fail('invalid escape sequence');
    }
    if (c >= 0x30 && c <= 0x37) {
      let r = c - 0x30;
      for (let k = 1; k < 3; k++) {
        const n = this.peek();
        if (n === undefined || n < 0x30 || n > 0x37) break;
        r = r * 8 + (n - 0x30);
        this.pos++;
      }
      return r;
    }
    switch (c) {
      case 0x78: {
        // \x
        if (this.eat('{')) {
          const start = this.pos;
          while (this.peek() !== undefined && this.peek() !== 0x7d) this.pos++;
          const hex = codePointsToString(this.cps.slice(start, this.pos));
          if (!this.eat('}') || !/^[0-9A-Fa-f]+$/.test(hex)) this.fail('invalid escape sequence');
          const v = parseInt(hex, 16);
          if (v > 0x10ffff) this.fail('invalid escape sequence');
          return v;
        }
        const hex = codePointsToString(this.cps.slice(this.pos, this.pos + 2));
        if (!/^[0-9A-Fa-f]{2}$/.test(hex)) this.fail('invalid escape sequence');
        this.pos += 2;
        return parseInt(hex, 16);
      }
      case 0x61:
        return 7;
      case 0x66:
        return 12;
      case 0x6e:
        return 10;
      case 0x72:
        return 13;
      case 0x74:
        return 9;
      case 0x76:
        return 11;
      default:
        if (c < 0x80 && !isAlnum(c)) return c;
        return this.fail('invalid escape sequence');
    }
  }

  private charClass(): RegexNode {
    const from = this.pos;
    this.pos++; // [
    const negated = this.eat('^');
    let set: CharSet = EMPTY;
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.fail('missing closing ]');
      if (c === 0x5d && !first) break;
      first = false;
      // POSIX [:name:] / [:^name:]
      if (c === 0x5b && this.peek(1) === 0x3a) {
        const posix = this.posixClass();
        if (posix !== null) {
          set = union(set, posix);
          continue;
        }
      }
      if (c === 0x5c) {
        const cls = this.classEscape();
        if (cls !== null) {
          set = union(set, cls);
          continue;
        }
      }
      const lo = this.classChar();
      let hi = lo;
      if (this.peek() === 0x2d && this.peek(1) !== undefined && this.peek(1) !== 0x5d) {
        this.pos++;
        hi = this.classChar();
        if (hi < lo) this.fail('invalid character class range');
      }
      set = union(set, fromRanges([[lo, hi]]));
    }
    this.pos++; // ]
    // Go folds every item of a class under (?i), then negates the whole class. Negated items are
    // already closed under folding, so folding the union again changes only the plain ranges.
    if (this.flags.i) set = foldSet(set);
    return this.chars(from, negated ? negate(set) : set, 'class');
  }

  private classChar(): number {
    const c = this.peek() as number;
    if (c === 0x5c) return this.escapeChar();
    this.pos++;
    return c;
  }

  private posixClass(): CharSet | null {
    const text = codePointsToString(this.cps.slice(this.pos, this.pos + 16));
    const m = /^\[:(\^?)([a-z]*):\]/.exec(text);
    const end = text.indexOf(':]', 2);
    if (m === null) {
      if (end < 0) return null; // a literal `[`
      this.fail('invalid character class range');
    }
    const base = POSIX_CLASSES[m[2] as string];
    if (base === undefined) this.fail('invalid character class range');
    this.pos += m[0].length;
    const folded = this.flags.i ? foldSet(base) : base;
    return m[1] === '^' ? negate(folded) : folded;
  }
}

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
