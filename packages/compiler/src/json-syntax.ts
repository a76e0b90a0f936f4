/**
 * Strict JSON syntax check (RFC 8259) for `.json` policy files, which are otherwise read by the yaml
 * parser (JSON is YAML, but YAML accepts much that JSON does not: `{"a": }`, comments, bare words).
 * Returns the first error with its offset.
 */
import { MAX_DEPTH } from './tree.ts';

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

class Fail extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

export function checkJsonSyntax(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const n = text.length;

  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const show = (at: number): string => {
    if (at >= n) return 'end of input';
    const cp = text.codePointAt(at) ?? 0;
    if (cp < 0x20) return `character U+${cp.toString(16).padStart(4, '0').toUpperCase()}`;
    return `\`${String.fromCodePoint(cp)}\``;
  };
  const unexpected = (what: string): never => {
    throw new Fail(i, `unexpected ${show(i)}, expected ${what}`);
  };

  const str = (): void => {
    // at the opening quote
    i++;
    for (;;) {
      if (i >= n) throw new Fail(i, 'unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) throw new Fail(i, `${show(i)} must be escaped inside a string`);
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === undefined) throw new Fail(i, 'unterminated string');
        if ('"\\/bfnrt'.includes(e)) {
          i += 2;
        } else if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Fail(i, 'invalid `\\u` escape: four hex digits expected');
          i += 6;
        } else {
          throw new Fail(i, `invalid escape \`\\${e}\``);
        }
        continue;
      }
      i++;
    }
  };

  // Sticky, over the whole text: a number literal may be any length (JSON sets no limit, and the approver
  // sees literals as written).
  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  const num = (): void => {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m || m[0] === '' || m[0] === '-') unexpected('a value');
    i += (m as RegExpExecArray)[0].length;
    const c = text[i];
    if (c !== undefined && /[0-9A-Za-z.+-]/.test(c)) throw new Fail(i, `invalid number near ${show(i)}`);
  };

  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) throw new Fail(i, `the document nests deeper than ${MAX_DEPTH} levels`);
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') unexpected('a string key');
        str();
        ws();
        if (text[i] !== ':') unexpected('`:`');
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        unexpected('`,` or `}`');
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        unexpected('`,` or `]`');
      }
    }
    if (c === '"') return str();
    if (c === 't' && text.startsWith('true', i)) {
      i += 4;
      return;
    }
    if (c === 'f' && text.startsWith('false', i)) {
      i += 5;
      return;
    }
    if (c === 'n' && text.startsWith('null', i)) {
      i += 4;
      return;
    }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return num();
    unexpected('a value');
  };

  try {
    value(0);
    ws();
    if (i < n) unexpected('end of input');
    return undefined;
  } catch (e) {
    if (e instanceof Fail) return { offset: e.offset, message: e.message };
    throw e;
  }
}
