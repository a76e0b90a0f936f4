/**
 * The one diagnostic vocabulary shared by every package.
 * Positions: `offset` is 0-based (UTF-16 code units of the source text, as JS strings index it),
 * `line` and `column` are 1-based; `end` is exclusive.
 */
export interface Position {
  offset: number;
  line: number;
  column: number;
}

export interface Span {
  file: string;
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info';

export interface RelatedInformation {
  message: string;
  span?: Span;
}

export interface Diagnostic {
  /** Stable machine code, e.g. `approver/unknown-mode`, `schema/type`, `regex/invalid`. */
  code: string;
  severity: Severity;
  /** One lowercase sentence, no final period, user text in backticks. */
  message: string;
  /** Advice, shown apart from the message ("did you mean …"). */
  help?: string;
  span?: Span;
  /** JSON path of the offending node, e.g. `["approver","allow",0,"match"]`. */
  path?: (string | number)[];
  related?: RelatedInformation[];
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Sort by file, then offset, then code: the order every tool prints in. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => {
    const fa = a.span?.file ?? '';
    const fb = b.span?.file ?? '';
    if (fa !== fb) return fa < fb ? -1 : 1;
    const oa = a.span?.start.offset ?? -1;
    const ob = b.span?.start.offset ?? -1;
    if (oa !== ob) return oa - ob;
    return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
  });
}

/** Characters of user text a message quotes whole; longer text is shortened by {@link excerpt}. */
export const EXCERPT_CHARS = 80;

/**
 * User text as a message quotes it: whole when short, else its first and last characters around
 * `…`, with the full length in characters (code points) so the reader knows what was left out.
 * Every message that quotes a pattern, a key or a value goes through this, so no input can make a
 * diagnostic as long as itself. Never splits a surrogate pair.
 */
export function excerpt(text: string, max: number = EXCERPT_CHARS): string {
  if (text.length <= max) return text;
  const head = Math.ceil(max * 0.6);
  const tail = max - head;
  let a = head;
  if (isHigh(text.charCodeAt(a - 1))) a--;
  let b = text.length - tail;
  if (isLow(text.charCodeAt(b))) b++;
  return `${text.slice(0, a)}…${text.slice(b)} (${codePointCount(text)} characters)`;
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** The number of code points of `s` (a surrogate pair counts once). */
export function codePointCount(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if (isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1))) {
      n--;
      i++;
    }
  }
  return n;
}

/**
 * C0 and C1 controls, DEL, line and paragraph separators and the bidirectional controls: characters
 * that move the cursor, recolour or reorder a terminal when printed raw.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` (a file name, as a rule) safe to print on a terminal: each control character becomes an
 * escape (`\n`, `\t`, `\x1b`, `\u202e`). Text without one is returned as it is.
 */
export function printable(text: string): string {
  UNPRINTABLE.lastIndex = 0;
  if (!UNPRINTABLE.test(text)) return text;
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
