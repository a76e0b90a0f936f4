/**
 * A plain reference for reading a request line, written from Go's rules and nothing of Verdict's:
 * bytes decoded rune by rune as `utf8.DecodeRune` does, a JSON reader with the grammar of
 * `encoding/json` (its 10000-level nesting limit, its string escapes, lone surrogate
 * escapes as U+FFFD), and the envelope rules of `verdict eval` (fields matched under Go's
 * `foldName`, a key repeated under it a bad line, a non-string input as its text in the line).
 * Slow and simple on purpose: the tests hold the real reader to it.
 */
import { type ApprovalRequest, foldCodePoint } from '@verdict/engine';

/** Go's `utf8.DecodeRune`: the rune at `i` and its width; `(U+FFFD, 1)` for an invalid encoding. */
function decodeRune(b: Uint8Array, i: number): [number, number] {
  const b0 = b[i]!;
  if (b0 < 0x80) return [b0, 1];
  const forms: [n: number, leadMask: number, leadBits: number, min: number][] = [
    [2, 0xe0, 0xc0, 0x80],
    [3, 0xf0, 0xe0, 0x800],
    [4, 0xf8, 0xf0, 0x10000],
  ];
  for (const [n, leadMask, leadBits, min] of forms) {
    if ((b0 & leadMask) !== leadBits) continue;
    if (i + n > b.length) return [0xfffd, 1];
    let cp = b0 & (0xff >> (n + 1));
    for (let k = 1; k < n; k++) {
      const c = b[i + k]!;
      if ((c & 0xc0) !== 0x80) return [0xfffd, 1];
      cp = (cp << 6) | (c & 0x3f);
    }
    // Invalid: not the shortest form, a surrogate, or past U+10FFFF.
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return [0xfffd, 1];
    return [cp, n];
  }
  return [0xfffd, 1];
}

/** Bytes to text, rune by rune, as Go reads them. */
export function goDecodeUtf8(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const [cp, n] = decodeRune(bytes, i);
    out += String.fromCodePoint(cp);
    i += n;
  }
  return out;
}

/**
 * Go's `foldName` (current `encoding/json/fold.go`): ASCII letters upper-cased, any other rune the
 * smallest of its `unicode.SimpleFold` orbit. Written out for the runes the generated keys hold:
 * the orbits {K k U+212A}, {S s U+017F}, {ß U+1E9E}, {Σ σ ς}, {É é}; İ (U+0130) and ı (U+0131)
 * fold only under Turkic rules, so each is alone in its orbit. A rune an edit made up (a deleted
 * hex digit of an escape) takes the engine's orbit table, which its own tests hold to Go's.
 */
const FOLD = new Map<string, string>([
  ['\u212a', 'K'],
  ['\u017f', 'S'],
  ['\u1e9e', '\u00df'],
  ['\u03c3', '\u03a3'],
  ['\u03c2', '\u03a3'],
  ['\u00e9', '\u00c9'],
  ['\u0130', '\u0130'],
  ['\u0131', '\u0131'],
]);

export function goFoldName(key: string): string {
  let out = '';
  for (const ch of key) {
    if (ch.charCodeAt(0) < 0x80) out += ch >= 'a' && ch <= 'z' ? ch.toUpperCase() : ch;
    else out += FOLD.get(ch) ?? String.fromCodePoint(foldCodePoint(ch.codePointAt(0)!));
  }
  return out;
}

interface Value {
  kind: 'object' | 'array' | 'string' | 'number' | 'literal';
  start: number;
  end: number;
  str?: string;
  members?: { key: string; value: Value }[];
}

class Reader {
  i = 0;
  tooDeep = false;
  constructor(readonly s: string) {}

  ws(): void {
    while (this.i < this.s.length && ' \t\n\r'.includes(this.s[this.i]!)) this.i++;
  }

  /** The value at `this.i`. Containers are kept on an explicit stack (10000 levels would overflow a recursive reader). */
  value(): Value | undefined {
    const stack: { v: Value; close: string; key: string }[] = [];
    for (;;) {
      this.ws();
      const start = this.i;
      const c = this.s[this.i];
      let done: Value | undefined;
      if (c === '{' || c === '[') {
        if (stack.length + 1 > 10000) {
          this.tooDeep = true;
          return undefined;
        }
        this.i++;
        const v: Value = { kind: c === '{' ? 'object' : 'array', start, end: start, members: [] };
        const close = c === '{' ? '}' : ']';
        this.ws();
        if (this.s[this.i] === close) {
          this.i++;
          v.end = this.i;
          done = v;
        } else {
          stack.push({ v, close, key: '' });
          if (c === '{' && !this.key(stack[stack.length - 1]!)) return undefined;
          continue;
        }
      } else if (c === '"') {
        const str = this.string();
        if (str === undefined) return undefined;
        done = { kind: 'string', start, end: this.i, str };
      } else {
        const num = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
        num.lastIndex = this.i;
        const lit = ['true', 'false', 'null'].find((l) => this.s.startsWith(l, this.i));
        if (num.test(this.s)) this.i = num.lastIndex;
        else if (lit !== undefined) this.i += lit.length;
        else return undefined;
        done = { kind: lit === undefined ? 'number' : 'literal', start, end: this.i };
      }
      // Hand the finished value to its container; close every container that ends here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return done;
        top.v.members!.push({ key: top.key, value: done });
        this.ws();
        const d = this.s[this.i++];
        if (d === ',') {
          if (top.close === '}' && !this.key(top)) return undefined;
          break;
        }
        if (d !== top.close) return undefined;
        stack.pop();
        top.v.end = this.i;
        done = top.v;
      }
    }
  }

  /** `"key" :` into the frame. */
  key(frame: { key: string }): boolean {
    this.ws();
    if (this.s[this.i] !== '"') return false;
    const k = this.string();
    if (k === undefined) return false;
    frame.key = k;
    this.ws();
    return this.s[this.i++] === ':';
  }

  /** A string literal at `this.i` (a `"`), decoded as Go's `unquote` does. */
  string(): string | undefined {
    this.i++;
    let out = '';
    for (;;) {
      if (this.i >= this.s.length) return undefined;
      const c = this.s.charCodeAt(this.i);
      if (c === 0x22) {
        this.i++;
        return out;
      }
      if (c < 0x20) return undefined;
      if (c !== 0x5c) {
        out += this.s[this.i++];
        continue;
      }
      const e = this.s[this.i + 1];
      const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      if (e !== undefined && e in simple) {
        out += simple[e];
        this.i += 2;
        continue;
      }
      if (e !== 'u') return undefined;
      const u = this.hex4(this.i + 2);
      if (u === undefined) return undefined;
      this.i += 6;
      if (u < 0xd800 || u > 0xdfff) {
        out += String.fromCharCode(u);
        continue;
      }
      // utf16.DecodeRune(u, next escape): a high surrogate then a low one is one rune; else U+FFFD.
      const v = this.s.startsWith('\\u', this.i) ? this.hex4(this.i + 2) : undefined;
      if (u < 0xdc00 && v !== undefined && v >= 0xdc00 && v <= 0xdfff) {
        out += String.fromCharCode(u, v);
        this.i += 6;
      } else out += '\ufffd';
    }
  }

  hex4(at: number): number | undefined {
    const h = this.s.slice(at, at + 4);
    return /^[0-9a-fA-F]{4}$/.test(h) ? parseInt(h, 16) : undefined;
  }
}

function shown(key: string): string {
  const chars = [...key];
  return chars.length > 64 ? `${chars.slice(0, 64).join('')}…` : key;
}

/** The request a line of bytes holds, or why it is none, by the rules above. */
export function goReadRequest(bytes: Uint8Array): ApprovalRequest | string {
  const text = goDecodeUtf8(bytes);
  const r = new Reader(text);
  const v = r.value();
  if (v === undefined) return r.tooDeep ? 'request line nests deeper than 10000 levels' : 'request line is not valid JSON';
  r.ws();
  if (r.i !== text.length) return 'request line is not valid JSON';
  if (v.kind !== 'object') return 'request line is not a JSON object';
  const fields: Record<string, Value | undefined> = {};
  const seen: { fold: string; key: string }[] = [];
  for (const { key, value } of v.members!) {
    const fold = goFoldName(key);
    const prior = seen.find((s) => s.fold === fold);
    if (prior) return prior.key === key ? `request line repeats the key \`${shown(key)}\`` : `request line repeats the key \`${shown(prior.key)}\` as \`${shown(key)}\``;
    seen.push({ fold, key });
    for (const name of ['toolName', 'input', 'sessionId']) if (fold === goFoldName(name)) fields[name] = value;
  }
  const tool = fields['toolName'];
  if (tool?.kind !== 'string') return 'request has no string `toolName`';
  const input = fields['input'];
  const request: ApprovalRequest = {
    toolName: tool.str!,
    input: input === undefined ? '' : input.kind === 'string' ? input.str! : text.slice(input.start, input.end),
  };
  const session = fields['sessionId'];
  if (session?.kind === 'string') request.sessionId = session.str!;
  return request;
}
