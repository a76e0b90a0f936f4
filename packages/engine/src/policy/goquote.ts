/**
 * Go's two string quoting functions, so messages read byte for byte as the Go SDK prints them.
 *
 * JS strings are UTF-16; Go strings are bytes. A well-formed code point is taken as its UTF-8
 * encoding. A lone surrogate has no UTF-8 form: it is taken as the three bytes a WTF-8 encoder
 * writes, which Go decodes as three invalid bytes, so both quoters print it as `\xNN` three times.
 */

const LOWER_HEX = '0123456789abcdef';

function hexByte(b: number): string {
  return `\\x${LOWER_HEX[b >> 4]}${LOWER_HEX[b & 0xf]}`;
}

function isLoneSurrogate(cp: number): boolean {
  return cp >= 0xd800 && cp <= 0xdfff;
}

/** UTF-8 bytes of a code point (WTF-8 for a lone surrogate). */
function utf8Bytes(cp: number): number[] {
  if (cp < 0x80) return [cp];
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
}

/** Code points of `s`; a lone surrogate comes out as itself (`codePointAt` does that). */
function* codePoints(s: string): Generator<number> {
  for (const ch of s) yield ch.codePointAt(0) ?? 0;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isGoPrint(cp: number): boolean {
  if (cp === 0x20) return true;
  if (isLoneSurrogate(cp)) return false;
  return PRINTABLE.test(String.fromCodePoint(cp));
}

/** Go's `strconv.Quote` (what `%q` prints for a string). */
export function quoteGoString(s: string): string {
  let out = '"';
  for (const cp of codePoints(s)) {
    if (isLoneSurrogate(cp)) {
      out += utf8Bytes(cp).map(hexByte).join('');
      continue;
    }
    if (cp === 0x22 || cp === 0x5c) {
      out += `\\${String.fromCodePoint(cp)}`;
      continue;
    }
    if (isGoPrint(cp)) {
      out += String.fromCodePoint(cp);
      continue;
    }
    switch (cp) {
      case 0x07:
        out += '\\a';
        continue;
      case 0x08:
        out += '\\b';
        continue;
      case 0x0c:
        out += '\\f';
        continue;
      case 0x0a:
        out += '\\n';
        continue;
      case 0x0d:
        out += '\\r';
        continue;
      case 0x09:
        out += '\\t';
        continue;
      case 0x0b:
        out += '\\v';
        continue;
    }
    if (cp < 0x20 || cp === 0x7f) {
      out += hexByte(cp);
    } else if (cp < 0x10000) {
      out += `\\u${cp.toString(16).padStart(4, '0')}`;
    } else {
      out += `\\U${cp.toString(16).padStart(8, '0')}`;
    }
  }
  return `${out}"`;
}

/**
 * The `quote` of Go's `time` package (used in `time.ParseDuration` errors): `"` and `\` are
 * escaped, every byte of a non-ASCII or control character is printed as `\xNN`, the rest as is.
 */
export function quoteGoTime(s: string): string {
  let out = '"';
  for (const cp of codePoints(s)) {
    if (cp >= 0x80 || cp < 0x20) {
      out += utf8Bytes(cp).map(hexByte).join('');
    } else {
      if (cp === 0x22 || cp === 0x5c) out += '\\';
      out += String.fromCodePoint(cp);
    }
  }
  return `${out}"`;
}
