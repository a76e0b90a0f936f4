/**
 * Go `regexp` syntax and results over re2js (semantics.md A3.1).
 *
 * re2js is a port of Go's RE2 parser and matcher, compiled here with no flags (Go's `syntax.Perl`
 * defaults; the non-Go `LOOKBEHINDS` flag stays off). Two things are adjusted to match Go exactly:
 * - Error text: Go always prints ``error parsing regexp: <code>: `<expr>` ``, even when the
 *   expression is empty (a trailing backslash) or the whole pattern (nesting depth, size); re2js drops
 *   the backtick part in those cases, so the message is rebuilt from the error code and expression.
 *   A pattern with a lone surrogate is rejected as Go rejects invalid UTF-8 in a pattern.
 * - Subjects: Go matches UTF-8 bytes, where an unpaired surrogate cannot exist. A JS string can hold
 *   one, so every subject is first made well-formed: each lone surrogate becomes U+FFFD, which is what
 *   the string's UTF-8 encoding holds and what Go sees for an invalid byte. The replacement keeps
 *   the string's length (one code unit for one), so offsets still index the original string.
 * - Group names: Go accepts a capture group name used twice (`(?P<c>ls)|(?P<c>pwd)`); re2js refuses
 *   it. Names never change what a pattern matches, so a pattern re2js refuses for that reason alone
 *   is compiled with its repeated names rewritten (`renameDuplicateGroups`).
 * - Size: re2js refuses programs over 1,398,101 instructions, Go's `regexp` over 3,355,443 (its
 *   `maxSize`, 128 MiB of 40-byte instructions; re2js counts 96-byte ones). Verdict keeps re2js's
 *   bound: re2js's instructions are JavaScript objects, and a program at its own bound already takes
 *   seconds and ~170 MB to compile (about 2.4 times that at Go's). The error says so (`TOO_LARGE_HELP`).
 */
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { codePointCount, excerpt } from '../diagnostics.ts';
import { FOLD_CASE, progOf, RUNE, RUNE1 } from './re2-program.ts';

/** A span of a match, as UTF-16 offsets into the subject string (`end` exclusive). */
export interface RegexMatch {
  start: number;
  end: number;
}

export interface CompiledRegex {
  /** The pattern as given. */
  readonly source: string;
  /** Whether the pattern matches anywhere in `subject` (unanchored search). */
  test(subject: string): boolean;
  /** Whether the pattern matches the whole of `subject` (`^(?:pattern)$` in Go terms). */
  testWhole(subject: string): boolean;
  /** The leftmost-first match, as UTF-16 offsets into `subject`, or `null`. */
  find(subject: string): RegexMatch | null;
  /** `test` for a subject already passed through `wellFormed` (skips the check: hot paths). */
  testWellFormed(subject: string): boolean;
  /** `testWhole` for a subject already passed through `wellFormed`. */
  testWholeWellFormed(subject: string): boolean;
  /** The re2js program, for the fast path's DFA, screens and sets (`approver/steps.ts`, `approver/fast-dfa.ts`). */
  readonly engine?: RE2JS;
}

export type CompileRegexResult = { ok: true; regex: CompiledRegex } | { ok: false; error: string };

const PREFIX = 'error parsing regexp: ';
const TRAILING_BACKSLASH = 'trailing backslash at end of expression';
const DUPLICATE_NAME = 'duplicate capture group name';
export const TOO_LARGE = 'expression too large';
/** The program size bounds (instructions) of re2js, which Verdict keeps, and of Go's `regexp`. */
export const MAX_PROGRAM_SIZE = 1_398_101;
export const GO_MAX_PROGRAM_SIZE = 3_355_443;
/** Why Verdict refuses a pattern that Go may compile: said wherever `expression too large` is shown. */
export const TOO_LARGE_HELP =
  'Verdict refuses regex programs over 1,398,101 instructions; Go\'s regexp allows up to 3,355,443, so Go may compile this pattern: split it into several rules or bound its repeats';

/**
 * The longest pattern compiled, in characters (code points). Go's `regexp/syntax` has no limit on
 * a pattern's length, only on what it parses to: 3,355,443 program instructions (`maxSize`, 128 MiB
 * of 40-byte instructions), 33,554,432 runes in literals and classes (`maxRunes`) and a nesting
 * depth of 1,000 (`maxHeight`). Go therefore accepts some longer patterns (a literal of up to 3.3
 * million characters, or `(?i)` repeated a million times); re2js needs seconds and over 1 GiB for
 * them (a million `(?:)` exhaust a 1 GiB heap). Verdict refuses them before parsing: such a rule
 * denies every call in `--compat` mode, and is an invalid pattern otherwise. At this length every
 * pattern compiles in well under a second and 200 MB; no policy comes near it.
 */
export const MAX_PATTERN_CHARS = 65_536;

/** Compiles `pattern` with Go `regexp.Compile` semantics; `error` is Go's exact error text. */
export function compileRegex(pattern: string): CompileRegexResult {
  if (pattern.length > MAX_PATTERN_CHARS) {
    const n = codePointCount(pattern);
    if (n > MAX_PATTERN_CHARS) {
      return { ok: false, error: `${PREFIX}pattern too long: ${n} characters, over Verdict's limit of ${MAX_PATTERN_CHARS}` };
    }
  }
  const bad = firstLoneSurrogate(pattern);
  if (bad >= 0) return { ok: false, error: goError('invalid UTF-8', pattern.slice(bad)) };
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, 0);
  } catch (e) {
    if (!(e instanceof RE2JSSyntaxException && e.error === DUPLICATE_NAME)) return { ok: false, error: describeCompileError(e, pattern) };
    const renamed = renameDuplicateGroups(pattern);
    try {
      re = RE2JS.compile(renamed, 0);
    } catch (e2) {
      return { ok: false, error: describeCompileError(e2, pattern, renamed) };
    }
  }
  return { ok: true, regex: wrap(pattern, re) };
}

/**
 * Go's error for `pattern`. `compiled` is the text re2js was given (`pattern` with renamed groups,
 * the same length): an expression quoted from it is quoted from `pattern` at the same place.
 */
function describeCompileError(e: unknown, pattern: string, compiled: string = pattern): string {
  if (e instanceof RE2JSSyntaxException) {
    const code = e.error;
    // Go reports an empty expression for a trailing backslash and the whole pattern for the
    // size and depth limits; re2js leaves the expression out in both cases.
    let expr = e.input ?? (code === TRAILING_BACKSLASH ? '' : pattern);
    if (compiled !== pattern && expr !== pattern) {
      const at = compiled.indexOf(expr);
      if (at >= 0 && compiled.length === pattern.length) expr = pattern.slice(at, at + expr.length);
    }
    return goError(code, expr);
  }
  // Anything else re2js throws is its own failure, reported as Go reports an internal error.
  return goError('regexp/syntax: internal error', pattern);
}

function goError(code: string, expr: string): string {
  return `${PREFIX}${code}: \`${expr}\``;
}

/**
 * A compiled pattern. A class rather than an object of closures: a policy of 10,000 rules makes
 * 10,000 of these, and methods on a prototype cost nothing per pattern.
 */
class Re2Regex implements CompiledRegex {
  constructor(
    readonly source: string,
    readonly engine: RE2JS,
  ) {}
  test(subject: string): boolean {
    return this.engine.test(wellFormed(subject));
  }
  testWhole(subject: string): boolean {
    return this.engine.testExact(wellFormed(subject));
  }
  find(subject: string): RegexMatch | null {
    const m = this.engine.matcher(wellFormed(subject));
    return m.find() ? { start: m.start(), end: m.end() } : null;
  }
  testWellFormed(subject: string): boolean {
    return this.engine.test(subject);
  }
  testWholeWellFormed(subject: string): boolean {
    return this.engine.testExact(subject);
  }
}

function wrap(source: string, re: RE2JS): CompiledRegex {
  return new Re2Regex(source, re);
}

interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/** `s` with each lone surrogate replaced by U+FFFD (same length), as its UTF-8 encoding reads. */
export function wellFormed(s: string): string {
  const w = s as unknown as WellFormedString;
  return w.isWellFormed() ? s : w.toWellFormed();
}

/** Index of the first unpaired surrogate code unit in `s`, or -1. */
export function firstLoneSurrogate(s: string): number {
  if ((s as unknown as WellFormedString).isWellFormed()) return -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

/**
 * A Go error text as a message shows it: the expression it quotes (between the last pair of
 * backticks, which Go puts at the end) shortened by `excerpt`. The text itself stays Go's exact
 * bytes where it is a decision's reason; only diagnostics show it shortened.
 */
export function shortRegexError(error: string): string {
  const open = error.indexOf(': `');
  if (open < 0 || !error.endsWith('`')) return error;
  const expr = error.slice(open + 3, -1);
  const short = excerpt(expr);
  return short === expr ? error : `${error.slice(0, open + 3)}${short}\``;
}

const NAME_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_';

function isGroupName(name: string): boolean {
  if (name === '') return false;
  for (let i = 0; i < name.length; i++) if (!NAME_CHARS.includes(name[i]!)) return false;
  return true;
}

/**
 * Where each capture group name of `pattern` is (`(?P<name>` and `(?<name>`), read as Go's parser
 * reads the pattern: not inside `\Q…\E`, a character class (`[…]`, with its `[:name:]` items and a
 * leading `]`) or an escape.
 */
export function groupNames(pattern: string): { start: number; name: string }[] {
  const out: { start: number; name: string }[] = [];
  const n = pattern.length;
  let i = 0;
  while (i < n) {
    const c = pattern[i]!;
    if (c === '\\') {
      if (pattern[i + 1] === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        i = end < 0 ? n : end + 2;
      } else {
        i += 2; // `\x{…}`, `\p{…}` hold no `(` or `[` that Go would read as syntax
      }
      continue;
    }
    if (c === '[') {
      i++;
      if (pattern[i] === '^') i++;
      let first = true;
      while (i < n && (pattern[i] !== ']' || first)) {
        first = false;
        if (pattern.startsWith('[:', i)) {
          const end = pattern.indexOf(':]', i + 2);
          if (end >= 0) {
            i = end + 2;
            continue;
          }
        }
        i += pattern[i] === '\\' ? 2 : 1;
      }
      i++;
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const open = pattern.startsWith('P<', i + 2) ? i + 4 : pattern[i + 2] === '<' ? i + 3 : -1;
      if (open >= 0) {
        const close = pattern.indexOf('>', open);
        if (close >= 0 && isGroupName(pattern.slice(open, close))) {
          out.push({ start: open, name: pattern.slice(open, close) });
          i = close + 1;
          continue;
        }
      }
    }
    i++;
  }
  return out;
}

/**
 * `pattern` with every repeated capture group name after its first use replaced by an unused name
 * of the same length (so errors quote the same places), or a longer one when none is left.
 */
export function renameDuplicateGroups(pattern: string): string {
  const groups = groupNames(pattern);
  const used = new Set(groups.map((g) => g.name));
  const seen = new Set<string>();
  const fresh = (length: number): string => {
    for (let len = length; ; len++) {
      const digits = new Array<number>(len).fill(0);
      for (;;) {
        const name = digits.map((d) => NAME_CHARS[d]).join('');
        if (!used.has(name)) {
          used.add(name);
          return name;
        }
        let k = len - 1;
        while (k >= 0 && digits[k] === NAME_CHARS.length - 1) digits[k--] = 0;
        if (k < 0) break;
        digits[k]!++;
      }
    }
  };
  let out = '';
  let last = 0;
  for (const g of groups) {
    if (!seen.has(g.name)) {
      seen.add(g.name);
      continue;
    }
    out += pattern.slice(last, g.start) + fresh(g.name.length);
    last = g.start + g.name.length;
  }
  return out + pattern.slice(last);
}

// --- Simple case folding and Unicode classes, read from re2js's own tables ---


/** Code points per probe: one pattern of this many one-character classes. */
const FOLD_BLOCK_BITS = 8;
/** Above this no code point folds (checked by a test against re2js's tables): no probe is needed. */
export const LAST_FOLDING_CODE_POINT = 0x1ffff;
const foldBlocks = new Map<number, Uint32Array>();

/**
 * The representatives of one block of code points, read from the program re2js compiles for
 * `(?i)[\x{c}][\x{c+1}]…`. Its parser (Go's) turns each `(?i)` class into the code point's fold orbit
 * and then, as Go's does, writes a one-member orbit as a plain literal and a two-member one as a
 * folded literal of its smaller member; a larger orbit stays a class, sorted. So the program holds,
 * in order, one rune instruction per code point whose first rune is the smallest member of its orbit.
 */
function probeFoldBlock(block: number): Uint32Array {
  const lo = block << FOLD_BLOCK_BITS;
  const size = 1 << FOLD_BLOCK_BITS;
  const reps = new Uint32Array(size);
  const cps: number[] = [];
  let pattern = '(?i)';
  for (let i = 0; i < size; i++) {
    const c = lo + i;
    reps[i] = c;
    if (c >= 0xd800 && c <= 0xdfff) continue;
    cps.push(c);
    pattern += `[\\x{${c.toString(16)}}]`;
  }
  const prog = progOf(RE2JS.compile(pattern, 0));
  const runeInsts = (prog?.inst ?? []).filter((inst) => inst.op === RUNE || inst.op === RUNE1);
  if (runeInsts.length !== cps.length) throw new Error(`case folding: re2js compiled ${runeInsts.length} rune instructions for ${cps.length} code points`);
  runeInsts.forEach((inst, k) => {
    const c = cps[k]!;
    const rep = inst.runes[0];
    const folded = inst.op === RUNE || (inst.arg & FOLD_CASE) !== 0;
    if (rep === undefined || rep > c || (!folded && rep !== c)) throw new Error(`case folding: unexpected instruction for U+${c.toString(16)}`);
    reps[c - lo] = rep;
  });
  return reps;
}

/**
 * The smallest member of the simple case-folding orbit of `cp` (`k`, `K` and U+212A KELVIN SIGN all
 * give `K`), from the tables re2js's `(?i)` uses: tool names and keys fold exactly as patterns do.
 * Lone surrogates and non-folding code points give themselves.
 */
export function foldRepresentative(cp: number): number {
  if (cp < 0x80) return cp >= 0x61 && cp <= 0x7a ? cp - 0x20 : cp;
  if (cp > LAST_FOLDING_CODE_POINT) return cp;
  const block = cp >>> FOLD_BLOCK_BITS;
  let reps = foldBlocks.get(block);
  if (reps === undefined) {
    reps = probeFoldBlock(block);
    foldBlocks.set(block, reps);
  }
  return reps[cp - (block << FOLD_BLOCK_BITS)]!;
}

const unicodeClasses = new Map<string, readonly number[] | null>();

/**
 * The code points of the Unicode class `\p{name}` (a general category such as `L` or `Lu`, a script
 * such as `Greek`, or `Any`) as flattened sorted ranges `[lo0, hi0, lo1, hi1, …]`, read from the
 * program re2js compiles for `\p{name}`: Go's tables, which the engine matches with. `null` when
 * Go knows no such class.
 */
export function unicodeClassRanges(name: string): readonly number[] | null {
  let ranges = unicodeClasses.get(name);
  if (ranges === undefined) {
    ranges = null;
    if (name === 'Any') ranges = [0, 0x10ffff]; // compiled as "any character", not a class
    else if (/^[A-Za-z_]+$/.test(name)) {
      try {
        const prog = progOf(RE2JS.compile(`\\p{${name}}`, 0));
        const runeInsts = (prog?.inst ?? []).filter((inst) => inst.op === RUNE || inst.op === RUNE1);
        if (runeInsts.length !== 1) throw new Error(`unicode class ${name}: re2js compiled ${runeInsts.length} rune instructions`);
        const inst = runeInsts[0]!;
        ranges = inst.op === RUNE1 ? [inst.runes[0]!, inst.runes[0]!] : Array.from(inst.runes);
      } catch (e) {
        if (!(e instanceof RE2JSSyntaxException)) throw e;
      }
    }
    unicodeClasses.set(name, ranges);
  }
  return ranges;
}
