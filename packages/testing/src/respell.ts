/**
 * Re-spellings of one JSON value: the same value, written differently. What stays the same is the
 * decoded value under Go's `encoding/json` (so key order, whitespace and escapes may change; an
 * object that repeats a key keeps its order, because there the order decides which value wins).
 */
import fc from 'fast-check';
import { compact, type Json } from './json.ts';

export interface Spelling {
  /** How members are ordered in each object without repeated keys. */
  order: 'source' | 'reversed' | 'rotated' | 'sorted';
  /** Whitespace put around structural characters (`""`: none). */
  space: '' | ' ' | '\n' | '\t' | '\r\n  ';
  /** The places (counted from the start, around structural characters) that take the whitespace. */
  spaces: number[];
  /** The characters of strings (counted across the document, keys included) written as `\uXXXX`. */
  escapes: number[];
  /** Upper-case hex digits in `\u` escapes. */
  upperHex: boolean;
  /** Write `/` as `\/`. */
  slash: boolean;
}

export const PLAIN_SPELLING: Spelling = { order: 'source', space: '', spaces: [], escapes: [], upperHex: false, slash: false };

/**
 * Spellings, shrinking towards the plain compact one: the whitespace places and escaped characters
 * are sets of positions, so a failure shrinks to the one escape or space that changes the decision.
 */
export function spelling(): fc.Arbitrary<Spelling> {
  return fc.record({
    order: fc.constantFrom('source', 'reversed', 'rotated', 'sorted'),
    space: fc.constantFrom('', ' ', '\n', '\t', '\r\n  '),
    spaces: fc.uniqueArray(fc.nat({ max: 127 }), { maxLength: 48 }),
    escapes: fc.uniqueArray(fc.nat({ max: 255 }), { maxLength: 96 }),
    upperHex: fc.boolean(),
    slash: fc.boolean(),
  });
}

function hex4(code: number, upper: boolean): string {
  const h = code.toString(16).padStart(4, '0');
  return `\\u${upper ? h.toUpperCase() : h}`;
}

/** `value` written with `s`; `respell(v, PLAIN_SPELLING)` is `compact(v)`. */
export function respell(value: Json, s: Spelling): string {
  let place = 0;
  let char = 0;
  const spaces = new Set(s.spaces);
  const escapes = new Set(s.escapes);
  const ws = (): string => (spaces.has(place++) ? s.space : '');
  const str = (text: string): string => {
    let out = '"';
    for (const ch of text) {
      const n = char++;
      const cp = ch.codePointAt(0)!;
      const escape = escapes.has(n);
      if (escape) {
        if (cp > 0xffff) out += hex4(ch.charCodeAt(0), s.upperHex) + hex4(ch.charCodeAt(1), s.upperHex);
        else out += hex4(cp, s.upperHex);
      } else if (ch === '/' && s.slash) out += '\\/';
      else out += JSON.stringify(ch).slice(1, -1);
    }
    return `${out}"`;
  };
  const ordered = (members: [string, Json][]): [string, Json][] => {
    if (new Set(members.map(([k]) => k)).size !== members.length) return members;
    switch (s.order) {
      case 'reversed':
        return [...members].reverse();
      case 'rotated':
        return members.length < 2 ? members : [...members.slice(1), members[0]!];
      case 'sorted':
        return [...members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      default:
        return members;
    }
  };
  const write = (v: Json): string => {
    switch (v.kind) {
      case 'object': {
        const parts = ordered(v.members).map(([k, x]) => `${ws()}${str(k)}${ws()}:${ws()}${write(x)}${ws()}`);
        return parts.length ? `{${parts.join(',')}}` : `{${ws()}}`;
      }
      case 'array': {
        const parts = v.items.map((x) => `${ws()}${write(x)}${ws()}`);
        return parts.length ? `[${parts.join(',')}]` : `[${ws()}]`;
      }
      case 'string':
        return str(v.value);
      default:
        return v.text;
    }
  };
  const body = write(value);
  return `${ws()}${body}${ws()}`;
}

export { compact };
