/**
 * TOML with positions: smol-toml reads the values (and refuses what is not TOML, with its line and
 * column), and a scanner of the same text finds where each table, key, array item and inline table
 * is written. The two are joined by path, so every value the readers use has its span.
 */
import { LineIndex, spanOf } from '@verdict/compiler';
import type { Diagnostic, Span } from '@verdict/engine';
import { parse, TomlError } from 'smol-toml';

/** Where a TOML value is written; tables and arrays hold their members' places. */
export interface TomlPlace {
  span: Span;
  /** The key (or the `[table]` header) that names it. */
  keySpan?: Span;
  entries?: Map<string, TomlPlace>;
  items?: TomlPlace[];
}

export interface LocatedToml {
  /** The document, as smol-toml reads it; absent when the text is not TOML. */
  value?: Record<string, unknown>;
  root: TomlPlace;
  index: LineIndex;
}

/** The place at a path of keys and array indices, or the nearest place above it. */
export function placeAt(root: TomlPlace, path: readonly (string | number)[]): TomlPlace {
  let node = root;
  for (const step of path) {
    const next = typeof step === 'number' ? node.items?.[step] : node.entries?.get(step);
    if (next === undefined) return node;
    node = next;
  }
  return node;
}

export function readToml(file: string, text: string, diagnostics: Diagnostic[]): LocatedToml {
  const index = new LineIndex(text);
  const root = locate(file, text, index);
  try {
    const value = parse(text) as Record<string, unknown>;
    return { value, root, index };
  } catch (e) {
    if (e instanceof TomlError) {
      const line = (e as TomlError & { line?: number }).line ?? 1;
      const column = (e as TomlError & { column?: number }).column ?? 1;
      const offset = index.offsetAt(line, column);
      const first = String(e.message).split('\n')[0] ?? 'invalid TOML';
      diagnostics.push({ code: 'native/syntax', severity: 'error', message: `invalid TOML: ${first.replace(/^Invalid TOML document: /, '').replace(/\.$/, '')}`, span: spanOf(file, index, offset, Math.min(offset + 1, text.length)) });
    } else {
      diagnostics.push({ code: 'native/syntax', severity: 'error', message: `invalid TOML: ${String(e)}`, span: spanOf(file, index, 0, 0) });
    }
    return { root, index };
  }
}

/** The scanner: never throws; on text it does not follow it stops, leaving the places found so far. */
function locate(file: string, text: string, index: LineIndex): TomlPlace {
  const n = text.length;
  const sp = (s: number, e: number): Span => spanOf(file, index, s, e);
  const root: TomlPlace = { span: sp(0, n), entries: new Map() };
  let i = 0;
  let table = root;

  const skipSpace = (newlines: boolean): void => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t') i++;
      else if (newlines && (c === '\n' || c === '\r')) i++;
      else if (c === '#') while (i < n && text[i] !== '\n') i++;
      else return;
    }
  };
  const readString = (): string | undefined => {
    const q = text[i] as string;
    const triple = text.startsWith(q.repeat(3), i);
    let j = i + (triple ? 3 : 1);
    let value = '';
    while (j < n) {
      if (triple ? text.startsWith(q.repeat(3), j) : text[j] === q) {
        // A closing triple quote may be followed by one or two more quotes that belong to the string.
        let end = j + (triple ? 3 : 1);
        if (triple) while (text[end] === q && end - j < 5) end++;
        i = end;
        return value;
      }
      if (!triple && (text[j] === '\n' || text[j] === '\r')) return undefined;
      if (q === '"' && text[j] === '\\') {
        value += text[j + 1] ?? '';
        j += 2;
        continue;
      }
      value += text[j];
      j++;
    }
    return undefined;
  };
  /** A dotted key: its parts and spans. */
  const readKey = (): { parts: string[]; start: number; end: number } | undefined => {
    const parts: string[] = [];
    const start = i;
    let end = i;
    for (;;) {
      skipSpace(false);
      const c = text[i];
      if (c === '"' || c === "'") {
        const v = readString();
        if (v === undefined) return undefined;
        parts.push(q(v, c));
      } else {
        const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i, i + 256));
        if (m === null) return undefined;
        parts.push(m[0]);
        i += m[0].length;
      }
      end = i;
      skipSpace(false);
      if (text[i] === '.') {
        i++;
        continue;
      }
      return { parts, start, end };
    }
  };
  // Quoted keys: the scanner keeps the raw content; escapes in keys are rare and only affect the lookup.
  const q = (v: string, _c: string): string => v;

  const child = (t: TomlPlace, k: string, place: TomlPlace): TomlPlace => {
    t.entries ??= new Map();
    const have = t.entries.get(k);
    if (have !== undefined) return have;
    t.entries.set(k, place);
    return place;
  };

  /** Scans one value at `i`, returning its place. */
  const value = (depth: number): TomlPlace | undefined => {
    if (depth > 64) return undefined;
    const start = i;
    const c = text[i];
    if (c === '"' || c === "'") {
      if (readString() === undefined) return undefined;
      return { span: sp(start, i) };
    }
    if (c === '[') {
      i++;
      const items: TomlPlace[] = [];
      for (;;) {
        skipSpace(true);
        if (text[i] === ']') {
          i++;
          return { span: sp(start, i), items };
        }
        const v = value(depth + 1);
        if (v === undefined) return undefined;
        items.push(v);
        skipSpace(true);
        if (text[i] === ',') i++;
        else if (text[i] !== ']') return undefined;
      }
    }
    if (c === '{') {
      i++;
      const place: TomlPlace = { span: sp(start, start), entries: new Map() };
      for (;;) {
        skipSpace(true);
        if (text[i] === '}') {
          i++;
          place.span = sp(start, i);
          return place;
        }
        if (!keyValue(place, depth + 1)) return undefined;
        skipSpace(true);
        if (text[i] === ',') i++;
        else if (text[i] !== '}') return undefined;
      }
    }
    const m = /^[^\s,\]}#]+/.exec(text.slice(i, i + 1024));
    if (m === null) return undefined;
    i += m[0].length;
    // A date-time may hold one space: `1979-05-27 07:32:00`.
    const dt = /^ [0-9]{2}:[0-9]{2}[^\s,\]}#]*/.exec(text.slice(i, i + 64));
    if (/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(m[0]) && dt !== null) i += dt[0].length;
    return { span: sp(start, i) };
  };

  const keyValue = (t: TomlPlace, depth: number): boolean => {
    const key = readKey();
    if (key === undefined) return false;
    skipSpace(false);
    if (text[i] !== '=') return false;
    i++;
    skipSpace(false);
    const v = value(depth);
    if (v === undefined) return false;
    let at = t;
    for (const part of key.parts.slice(0, -1)) at = child(at, part, { span: sp(key.start, key.end), entries: new Map() });
    v.keySpan = sp(key.start, key.end);
    at.entries ??= new Map();
    at.entries.set(key.parts[key.parts.length - 1] as string, v);
    return true;
  };

  while (i < n) {
    skipSpace(true);
    if (i >= n) break;
    if (text[i] === '[') {
      const start = i;
      const array = text[i + 1] === '[';
      i += array ? 2 : 1;
      const key = readKey();
      if (key === undefined) break;
      skipSpace(false);
      if (!text.startsWith(array ? ']]' : ']', i)) break;
      i += array ? 2 : 1;
      const header = sp(start, i);
      let at = root;
      for (const part of key.parts.slice(0, -1)) {
        const next = child(at, part, { span: header, entries: new Map() });
        at = next.items !== undefined ? (next.items[next.items.length - 1] ?? next) : next;
      }
      const last = key.parts[key.parts.length - 1] as string;
      if (array) {
        const arr = child(at, last, { span: header, keySpan: header, items: [] });
        arr.items ??= [];
        const place: TomlPlace = { span: header, keySpan: header, entries: new Map() };
        arr.items.push(place);
        table = place;
      } else {
        table = child(at, last, { span: header, keySpan: header, entries: new Map() });
      }
      continue;
    }
    if (!keyValue(table, 0)) break;
  }
  return root;
}
