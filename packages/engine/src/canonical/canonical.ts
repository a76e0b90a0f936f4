/**
 * Canonical tool input (semantics.md A4.1, A4.2): Go `encoding/json` decoding (numbers kept as
 * written, as with `UseNumber`) and re-encoding (map keys sorted, no HTML escaping), plus the
 * hardening rules: a key repeated under Unicode simple case folding, at any depth, rejects the input.
 *
 * The parser is hand-written and iterative (no recursion, no `JSON.parse`): numbers must stay
 * verbatim, duplicate keys must be seen, `__proto__` is an ordinary key, and a million `[` must be a
 * rejection, not a stack overflow. Like Go's scanner it refuses more than 10000 nesting levels.
 * Time and memory are linear in the input.
 */
import { firstLoneSurrogate, wellFormed } from '../regex/regex.ts';
import { caseFold } from './casefold.ts';

/** The reason given to the model when canonical mode rejects an input. */
export const CANONICAL_REJECT_REASON = 'tool input is not valid JSON or repeats a key';

/** Go's `encoding/json` scanner nesting limit. */
export const MAX_JSON_DEPTH = 10000;

export interface JsonObject {
  kind: 'object';
  /** Decoded keys, in source order (well-formed UTF-16: lone surrogates became U+FFFD). */
  keys: string[];
  /** `caseFold` of each key; unique within the object. */
  foldedKeys: string[];
  values: JsonValue[];
}
export interface JsonArray {
  kind: 'array';
  items: JsonValue[];
}
export type JsonValue =
  | JsonObject
  | JsonArray
  | { kind: 'string'; value: string }
  | { kind: 'number'; text: string }
  | { kind: 'literal'; text: 'true' | 'false' | 'null' };

export type ParseJsonResult = { ok: true; value: JsonValue } | { ok: false };
export type CanonicalizeResult = { ok: true; text: string } | { ok: false };
export type ParseCanonicalResult = { ok: true; text: string; value: JsonValue } | { ok: false };

const FAIL = { ok: false } as const;

/** Parses `input` with the canonical-mode rules; empty or JSON-whitespace-only input is `{}`. */
export function parseStrictJson(input: string): ParseJsonResult {
  const value = new Parser(input).parseDocument();
  return value === undefined ? FAIL : { ok: true, value };
}

/** The canonical text of `input`, or `{ok: false}` when canonical mode rejects it. */
export function canonicalize(input: string): CanonicalizeResult {
  const parsed = parseStrictJson(input);
  return parsed.ok ? { ok: true, text: serialize(parsed.value) } : FAIL;
}

/** Both the canonical text and the decoded value (for `field` rules). */
export function parseCanonical(input: string): ParseCanonicalResult {
  const parsed = parseStrictJson(input);
  return parsed.ok ? { ok: true, text: serialize(parsed.value), value: parsed.value } : FAIL;
}

/**
 * The top-level member of `value` whose key equals `foldedKey` (already `caseFold`ed) under case
 * folding; `undefined` when `value` is not an object or has no such key.
 */
export function topLevelMember(value: JsonValue, foldedKey: string): JsonValue | undefined {
  if (value.kind !== 'object') return undefined;
  const i = value.foldedKeys.indexOf(foldedKey);
  return i < 0 ? undefined : value.values[i];
}

/** One member of a JSON object scanned by {@link scanObjectMembers}. */
export interface JsonMemberSpan {
  /** The decoded key (lone surrogate escapes and lone surrogates read as U+FFFD, as Go decodes them). */
  key: string;
  /** The value's text is `text.slice(start, end)`, exactly as written (no surrounding white space). */
  start: number;
  end: number;
  /** The decoded value when it is a string, else `undefined`. */
  string: string | undefined;
}

export type ScanObjectResult =
  | { kind: 'object'; members: JsonMemberSpan[] }
  /** Valid JSON, but not an object. */
  | { kind: 'other' }
  /** Not valid JSON to Go's `encoding/json`; `tooDeep` when the first error is nesting past {@link MAX_JSON_DEPTH}. */
  | { kind: 'invalid'; tooDeep: boolean };

/**
 * The members of the JSON object `text`, with the span each value is written at, for readers that
 * need a value as the caller wrote it (a request line's `input`, whose numbers, white space and
 * repeated keys must reach the approver untouched). The whole text is checked as Go's
 * `encoding/json` checks a document before decoding it (one value, white space around it, at most
 * {@link MAX_JSON_DEPTH} levels counting the object itself), with the same string and number rules
 * as {@link parseStrictJson}; unlike it, this applies no repeated-key rule (that is the caller's) and
 * builds nothing below the top level. Empty text is invalid here (there is no request to read).
 */
export function scanObjectMembers(text: string): ScanObjectResult {
  return new Parser(text).scanObject();
}

interface Frame {
  node: JsonObject | JsonArray;
  /** Folded keys seen so far (objects only). */
  seen: Set<string> | undefined;
  pendingKey: string;
  pendingFolded: string;
}

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  parseDocument(): JsonValue | undefined {
    this.skipWs();
    if (this.i === this.s.length) return { kind: 'object', keys: [], foldedKeys: [], values: [] };
    const value = this.parseValueTree();
    if (value === undefined) return undefined;
    this.skipWs();
    return this.i === this.s.length ? value : undefined;
  }

  /** See {@link scanObjectMembers}. */
  scanObject(): ScanObjectResult {
    const s = this.s;
    const invalid = (): ScanObjectResult => ({ kind: 'invalid', tooDeep: this.tooDeep });
    this.skipWs();
    if (s.charCodeAt(this.i) !== 0x7b /* { */) {
      if (!this.skipValue(0)) return invalid();
      this.skipWs();
      return this.i === s.length ? { kind: 'other' } : invalid();
    }
    this.i++;
    this.skipWs();
    const members: JsonMemberSpan[] = [];
    if (s.charCodeAt(this.i) === 0x7d /* } */) this.i++;
    else {
      for (;;) {
        if (s.charCodeAt(this.i) !== 0x22) return invalid();
        const key = this.parseString();
        if (key === undefined) return invalid();
        this.skipWs();
        if (s.charCodeAt(this.i) !== 0x3a /* : */) return invalid();
        this.i++;
        this.skipWs();
        const start = this.i;
        let string: string | undefined;
        if (s.charCodeAt(start) === 0x22) {
          string = this.parseString();
          if (string === undefined) return invalid();
        } else if (!this.skipValue(1)) return invalid();
        members.push({ key, start, end: this.i, string });
        this.skipWs();
        const d = s.charCodeAt(this.i);
        this.i++;
        if (d === 0x7d) break;
        if (d !== 0x2c /* , */) return invalid();
        this.skipWs();
      }
    }
    this.skipWs();
    return this.i === s.length ? { kind: 'object', members } : invalid();
  }

  /** Set when a scan failed on nesting deeper than {@link MAX_JSON_DEPTH}. */
  private tooDeep = false;

  /**
   * Checks the value at `this.i` (inside `outer` open containers) and steps past it, building
   * nothing. Iterative: the closer each open container waits for is kept on a stack.
   */
  private skipValue(outer: number): boolean {
    const s = this.s;
    const closers: number[] = [];
    for (;;) {
      this.skipWs();
      const c = s.charCodeAt(this.i);
      if (c === 0x7b || c === 0x5b) {
        if (outer + closers.length + 1 > MAX_JSON_DEPTH) {
          this.tooDeep = true;
          return false;
        }
        this.i++;
        this.skipWs();
        const closer = c + 2; // } or ]
        if (s.charCodeAt(this.i) === closer) this.i++;
        else {
          closers.push(closer);
          if (closer === 0x7d && !this.skipKey()) return false;
          continue;
        }
      } else if (c === 0x22) {
        if (this.parseString() === undefined) return false;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        if (this.parseNumber() === undefined) return false;
      } else if (s.startsWith('true', this.i) || s.startsWith('null', this.i)) {
        this.i += 4;
      } else if (s.startsWith('false', this.i)) {
        this.i += 5;
      } else {
        return false;
      }
      // The value is complete: close every container that ends here.
      for (;;) {
        const closer = closers[closers.length - 1];
        if (closer === undefined) return true;
        this.skipWs();
        const d = s.charCodeAt(this.i);
        if (d === 0x2c) {
          this.i++;
          if (closer === 0x7d) {
            this.skipWs();
            if (!this.skipKey()) return false;
          }
          break;
        }
        if (d !== closer) return false;
        this.i++;
        closers.pop();
      }
    }
  }

  /** Steps past `"key" :` (white space before it already skipped). */
  private skipKey(): boolean {
    if (this.s.charCodeAt(this.i) !== 0x22 || this.parseString() === undefined) return false;
    this.skipWs();
    if (this.s.charCodeAt(this.i) !== 0x3a) return false;
    this.i++;
    return true;
  }

  private skipWs(): void {
    const s = this.s;
    let i = this.i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.i = i;
  }

  private parseValueTree(): JsonValue | undefined {
    const s = this.s;
    const stack: Frame[] = [];
    for (;;) {
      // Parse one value at this.i; containers open a frame and loop back here for their first member.
      this.skipWs();
      const c = s.charCodeAt(this.i);
      let value: JsonValue | undefined;
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (stack.length + 1 > MAX_JSON_DEPTH) return undefined;
        this.i++;
        this.skipWs();
        if (c === 0x7b) {
          const node: JsonObject = { kind: 'object', keys: [], foldedKeys: [], values: [] };
          if (s.charCodeAt(this.i) === 0x7d) {
            this.i++;
            value = node;
          } else {
            const frame: Frame = { node, seen: new Set(), pendingKey: '', pendingFolded: '' };
            if (!this.readKey(frame)) return undefined;
            stack.push(frame);
            continue;
          }
        } else {
          const node: JsonArray = { kind: 'array', items: [] };
          if (s.charCodeAt(this.i) === 0x5d) {
            this.i++;
            value = node;
          } else {
            stack.push({ node, seen: undefined, pendingKey: '', pendingFolded: '' });
            continue;
          }
        }
      } else if (c === 0x22) {
        const str = this.parseString();
        if (str === undefined) return undefined;
        value = { kind: 'string', value: str };
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        const text = this.parseNumber();
        if (text === undefined) return undefined;
        value = { kind: 'number', text };
      } else if (s.startsWith('true', this.i)) {
        this.i += 4;
        value = { kind: 'literal', text: 'true' };
      } else if (s.startsWith('false', this.i)) {
        this.i += 5;
        value = { kind: 'literal', text: 'false' };
      } else if (s.startsWith('null', this.i)) {
        this.i += 4;
        value = { kind: 'literal', text: 'null' };
      } else {
        return undefined;
      }

      // Attach the finished value to its parents, closing every container that ends here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return value;
        const node = top.node;
        if (node.kind === 'object') {
          node.keys.push(top.pendingKey);
          node.foldedKeys.push(top.pendingFolded);
          node.values.push(value);
        } else {
          node.items.push(value);
        }
        this.skipWs();
        const d = s.charCodeAt(this.i);
        if (d === 0x2c /* , */) {
          this.i++;
          if (node.kind === 'object') {
            this.skipWs();
            if (!this.readKey(top)) return undefined;
          }
          break; // parse the next member's value
        }
        if ((node.kind === 'object' && d === 0x7d) || (node.kind === 'array' && d === 0x5d)) {
          this.i++;
          stack.pop();
          value = node;
          continue;
        }
        return undefined;
      }
    }
  }

  /** Reads `"key" :` into the frame; rejects a key repeated under case folding. */
  private readKey(frame: Frame): boolean {
    if (this.s.charCodeAt(this.i) !== 0x22) return false;
    const key = this.parseString();
    if (key === undefined) return false;
    const folded = caseFold(key);
    if (frame.seen === undefined || frame.seen.has(folded)) return false;
    frame.seen.add(folded);
    frame.pendingKey = key;
    frame.pendingFolded = folded;
    this.skipWs();
    if (this.s.charCodeAt(this.i) !== 0x3a /* : */) return false;
    this.i++;
    return true;
  }

  /**
   * Parses the string literal at `this.i` (which is `"`), decoding escapes as Go does. Text without
   * a lone surrogate of its own is decoded natively: `JSON.parse` reads a string literal by the
   * same grammar as Go (the same escapes, no control characters), and differs only in keeping a
   * lone surrogate escape, which Go reads as U+FFFD, as `wellFormed` then makes it (a pair of
   * escapes is one character to both). Text with a lone surrogate of its own, which could pair
   * with an escape, takes the loop.
   */
  private parseString(): string | undefined {
    const s = this.s;
    const start = this.i;
    // The closing quote: the first `"` after an even number of backslashes.
    let q = s.indexOf('"', start + 1);
    for (;;) {
      if (q < 0) return undefined;
      let b = q - 1;
      while (s.charCodeAt(b) === 0x5c) b--;
      if (((q - 1 - b) & 1) === 0) break;
      q = s.indexOf('"', q + 1);
    }
    const escaped = s.indexOf('\\', start + 1);
    if (escaped < 0 || escaped > q) {
      // No escapes: the text itself, if it holds no control character and no lone surrogate.
      let surrogates = false;
      for (let i = start + 1; i < q; i++) {
        const c = s.charCodeAt(i);
        if (c < 0x20) return undefined;
        if (c >= 0xd800 && c <= 0xdfff) surrogates = true;
      }
      const text = s.slice(start + 1, q);
      if (!surrogates || firstLoneSurrogate(text) < 0) {
        this.i = q + 1;
        return text;
      }
    } else {
      const literal = s.slice(start, q + 1);
      if (firstLoneSurrogate(literal) < 0) {
        let value: string;
        try {
          value = JSON.parse(literal) as string;
        } catch {
          return undefined;
        }
        this.i = q + 1;
        return wellFormed(value);
      }
    }
    return this.parseStringLoop();
  }

  /** {@link parseString} one code unit at a time. */
  private parseStringLoop(): string | undefined {
    const s = this.s;
    let i = this.i + 1;
    let out = '';
    let runStart = i;
    for (;;) {
      if (i >= s.length) return undefined;
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        out += s.slice(runStart, i);
        this.i = i + 1;
        return out;
      }
      if (c < 0x20) return undefined;
      if (c === 0x5c /* \ */) {
        out += s.slice(runStart, i);
        const e = s.charCodeAt(i + 1);
        i += 2;
        switch (e) {
          case 0x22: out += '"'; break;
          case 0x5c: out += '\\'; break;
          case 0x2f: out += '/'; break;
          case 0x62: out += '\b'; break;
          case 0x66: out += '\f'; break;
          case 0x6e: out += '\n'; break;
          case 0x72: out += '\r'; break;
          case 0x74: out += '\t'; break;
          case 0x75: {
            const u = hex4(s, i);
            if (u < 0) return undefined;
            i += 4;
            if (u >= 0xd800 && u <= 0xdfff) {
              // Go: a high surrogate followed by an escaped low surrogate is one character;
              // anything else is U+FFFD and the next escape is read on its own.
              if (u <= 0xdbff && s.charCodeAt(i) === 0x5c && s.charCodeAt(i + 1) === 0x75) {
                const v = hex4(s, i + 2);
                if (v >= 0xdc00 && v <= 0xdfff) {
                  out += String.fromCharCode(u, v);
                  i += 6;
                  break;
                }
              }
              out += '\ufffd';
            } else {
              out += String.fromCharCode(u);
            }
            break;
          }
          default:
            return undefined;
        }
        runStart = i;
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = s.charCodeAt(i + 1);
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          i += 2;
          continue;
        }
        // A lone surrogate is what invalid UTF-8 is in a JS string: U+FFFD, as Go decodes it.
        out += s.slice(runStart, i) + '\ufffd';
        i++;
        runStart = i;
        continue;
      }
      i++;
    }
  }

  /** Parses a JSON number at `this.i` and returns its text verbatim. */
  private parseNumber(): string | undefined {
    const s = this.s;
    const start = this.i;
    let i = start;
    if (s.charCodeAt(i) === 0x2d) i++;
    const first = s.charCodeAt(i);
    if (first === 0x30) i++;
    else if (first >= 0x31 && first <= 0x39) while (isDigit(s.charCodeAt(i))) i++;
    else return undefined;
    if (s.charCodeAt(i) === 0x2e) {
      i++;
      if (!isDigit(s.charCodeAt(i))) return undefined;
      while (isDigit(s.charCodeAt(i))) i++;
    }
    const e = s.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = s.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(s.charCodeAt(i))) return undefined;
      while (isDigit(s.charCodeAt(i))) i++;
    }
    this.i = i;
    return s.slice(start, i);
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hex4(s: string, i: number): number {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const c = s.charCodeAt(i + k);
    let d: number;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
    else return -1;
    v = v * 16 + d;
  }
  return v;
}

/** Compares well-formed strings by code point, which is UTF-8 byte order (Go's string order). */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

/** Surrogates (astral characters) sort after U+E000..U+FFFF in code point order. */
function utf8Rank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

// Characters Go's encoder writes as escapes (with SetEscapeHTML(false)).
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u2028\u2029]/;

/** Go `encoding/json` string encoding (Go 1.22+: `\b` and `\f` short forms; no HTML escaping). */
export function quoteJsonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = '\\\\';
    else if (c < 0x20) {
      if (c === 0x0a) esc = '\\n';
      else if (c === 0x0d) esc = '\\r';
      else if (c === 0x09) esc = '\\t';
      else if (c === 0x08) esc = '\\b';
      else if (c === 0x0c) esc = '\\f';
      else esc = '\\u00' + (c < 0x10 ? '0' : '') + c.toString(16);
    } else if (c === 0x2028) esc = '\\u2028';
    else if (c === 0x2029) esc = '\\u2029';
    if (esc !== undefined) {
      out += s.slice(runStart, i) + esc;
      runStart = i + 1;
    }
  }
  return out + s.slice(runStart) + '"';
}

/** The canonical text of a parsed value (iterative: nesting depth costs no stack). */
export function serialize(root: JsonValue): string {
  const out: string[] = [];
  // Work items: a value to write, or a literal piece of punctuation.
  const work: (JsonValue | string)[] = [root];
  while (work.length > 0) {
    const item = work.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    switch (item.kind) {
      case 'string':
        out.push(quoteJsonString(item.value));
        break;
      case 'number':
      case 'literal':
        out.push(item.text);
        break;
      case 'array': {
        out.push('[');
        work.push(']');
        for (let k = item.items.length - 1; k >= 0; k--) {
          work.push(item.items[k]!);
          if (k > 0) work.push(',');
        }
        break;
      }
      case 'object': {
        out.push('{');
        work.push('}');
        const order = item.keys.map((_, k) => k).sort((x, y) => compareUtf8(item.keys[x]!, item.keys[y]!));
        for (let k = order.length - 1; k >= 0; k--) {
          const idx = order[k]!;
          work.push(item.values[idx]!);
          work.push(quoteJsonString(item.keys[idx]!) + ':');
          if (k > 0) work.push(',');
        }
        break;
      }
    }
  }
  return out.join('');
}
