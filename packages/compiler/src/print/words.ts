/**
 * How values are written in `.verdict` text: bare where the grammar reads the word back as the
 * same value, a JSON string everywhere else. Each function is the inverse of one lowering rule.
 */
import { BARE_WORD_RE, DURATION_RE, NUMBER_RE, keywordTokens } from '../dsl/tokens.ts';
import { isNearMiss as isNear } from '../did-you-mean.ts';
import { MAX_NESTING } from '../dsl/limits.ts';

/** Characters never written raw into a `.verdict` file: controls, line and paragraph separators, the BOM. */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
// eslint-disable-next-line no-control-regex
const INVISIBLE_ALL = /[\u007f-\u009f\u2028\u2029\ufeff]/g;

/** A JSON string literal, with every invisible character escaped (JSON.stringify leaves DEL, C1 and U+2028 raw). */
const quote = (s: string): string =>
  JSON.stringify(s).replace(INVISIBLE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function isKeyword(s: string): boolean {
  return keywordTokens.has(s);
}

/** Tool, field, driver and test-tool names: an identifier that is not a keyword. */
export function nameText(s: string): string {
  return BARE_WORD_RE.test(s) && !isKeyword(s) ? s : quote(s);
}

/** A rule's tool: `*` for every tool. */
export function toolText(s: string): string {
  return s === '' ? '*' : nameText(s);
}

/** Words where `allow` and `deny` may stand bare (default values, policy values). */
export function wordText(s: string): string {
  return BARE_WORD_RE.test(s) && (!isKeyword(s) || s === 'allow' || s === 'deny') ? s : quote(s);
}

/** An approver mode: like a word, but not a near miss of a header keyword (the parser would read it as that). */
export function modeText(s: string): string {
  if (['default', 'reason', 'input'].some((w) => isNear(s, w))) return quote(s);
  return wordText(s);
}

/** A policy value: words, and durations and numbers as written. */
export function scalarText(s: string): string {
  if (DURATION_RE.test(s) || NUMBER_RE.test(s)) return s;
  return wordText(s);
}

export function stringText(s: string): string {
  return quote(s);
}

/** `/pattern/` when the pattern can be written as a literal; otherwise `match "…"`. */
export function matchText(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    // A regex literal holds its characters raw: one that holds an invisible character is written as a string.
    if (INVISIBLE.test(c)) return `match ${quote(pattern)}`;
    if (c === '\\') {
      const n = pattern[i + 1];
      // `\/` would read back as `/`; a final lone backslash would escape the closing slash.
      if (n === undefined || n === '/' || n === '\n' || n === '\r') return `match ${quote(pattern)}`;
      out += c + n;
      i++;
    } else if (c === '/') {
      out += '\\/';
    } else {
      out += c;
    }
  }
  return `/${out}/`;
}

/** `deny[0]`, `allow[2]`, `default`: the only rule references a test may name. */
export function ruleRefText(s: string): string {
  return s;
}

/**
 * A test input: JSON other than a string is written as it is (the lowering takes its text
 * verbatim); anything else (plain text, a JSON string, text with surrounding space or several
 * lines) is written as a string literal, whose value is the raw text.
 */
export function inputText(input: string): string {
  return isVerbatimJson(input) ? input : quote(input);
}

export function isVerbatimJson(s: string): boolean {
  if (s === '' || INVISIBLE.test(s) || s.trim() !== s) return false;
  const c = s[0]!;
  if (c === '"') return false;
  let value: unknown;
  try {
    value = JSON.parse(s);
  } catch {
    return false;
  }
  if (typeof value === 'string') return false;
  // The lexer must read it back token for token: no byte-order marks or other odd space.
  if (/[^\x20-\x7e]/.test(s.replace(/"(?:[^"\\]|\\.)*"/g, '""'))) return false;
  return nestingDepth(s) <= MAX_NESTING;
}

function nestingDepth(s: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') max = Math.max(max, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return max;
}
