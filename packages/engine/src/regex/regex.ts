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
 */
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { codePointCount, excerpt } from '../diagnostics.ts';

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
  /** The re2js program, for the fast path's screens and sets (`approver/fast.ts`). */
  readonly engine?: RE2JS;
}

export type CompileRegexResult = { ok: true; regex: CompiledRegex } | { ok: false; error: string };

const PREFIX = 'error parsing regexp: ';
const TRAILING_BACKSLASH = 'trailing backslash at end of expression';

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
    return { ok: false, error: describeCompileError(e, pattern) };
  }
  return { ok: true, regex: wrap(pattern, re) };
}

function describeCompileError(e: unknown, pattern: string): string {
  if (e instanceof RE2JSSyntaxException) {
    const code = e.error;
    // Go reports an empty expression for a trailing backslash and the whole pattern for the
    // size and depth limits; re2js leaves the expression out in both cases.
    const expr = e.input ?? (code === TRAILING_BACKSLASH ? '' : pattern);
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
