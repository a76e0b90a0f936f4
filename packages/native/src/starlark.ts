/**
 * A lexer for the Starlark that Codex `.rules` files are written in, and a reader of the one part
 * of it that records rules without evaluation: top-level calls whose arguments are literals
 * (strings, lists of them, `None`, `True`, `False`, integers). Everything else (assignments,
 * `def`, `for`, `load`, names, operators, f-strings with fields, comprehensions) is reported where
 * it is written as needing evaluation, and never guessed.
 */
import { LineIndex, spanOf } from '@verdict/compiler';
import type { Diagnostic, Span } from '@verdict/engine';

export type TokenKind = 'name' | 'string' | 'int' | 'punct' | 'newline' | 'eof' | 'error';

export interface Token {
  kind: TokenKind;
  text: string;
  /** For a string: its value; `undefined` when it cannot be read statically (an f-string with fields, bytes). */
  value?: string;
  start: number;
  end: number;
  /** A string written as an f-string with fields, or as bytes. */
  notStatic?: string;
  /** Indentation (columns) of the line, for the first token of a line. */
  indent?: number;
}

const PUNCT = ['**=', '//=', '<<=', '>>=', '==', '!=', '<=', '>=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '//', '**', '->', '<<', '>>'];

/** Tokens of the text; an unterminated string or a stray character ends in an `error` token. */
export function lex(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let depth = 0;
  let lineStart = true;
  const n = text.length;
  while (i < n) {
    const c = text[i] as string;
    if (lineStart && depth === 0) {
      // Measure indentation; blank and comment-only lines carry none.
      let j = i;
      let col = 0;
      while (j < n && (text[j] === ' ' || text[j] === '\t')) {
        col += text[j] === '\t' ? 8 - (col % 8) : 1;
        j++;
      }
      if (j >= n || text[j] === '\n' || text[j] === '\r' || text[j] === '#') {
        i = j;
        while (i < n && text[i] !== '\n') i++;
        if (i < n) i++;
        continue;
      }
      i = j;
      lineStart = false;
      const t = next(j);
      if (t === undefined) break;
      t.indent = col;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\f') {
      i++;
      continue;
    }
    if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      i += text[i + 1] === '\n' ? 2 : 3;
      continue;
    }
    if (c === '#') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '\n' || c === '\r') {
      const s = i;
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      if (depth === 0) {
        out.push({ kind: 'newline', text: '\n', start: s, end: s + 1 });
        lineStart = true;
      }
      continue;
    }
    if (next(i) === undefined) break;
  }
  out.push({ kind: 'eof', text: '', start: n, end: n });
  return out;

  /** Lexes one token at `at`, pushes it and moves `i`; `undefined` after an error token. */
  function next(at: number): Token | undefined {
    const c = text[at] as string;
    const prefix = /^([rRbBfF]{1,2})?(['"])/.exec(text.slice(at, at + 4));
    if (prefix !== null && (prefix[1] === undefined || /^(r|b|f|rb|br|rf|fr)$/i.test(prefix[1]))) {
      const t = readString(at, (prefix[1] ?? '').toLowerCase(), prefix[1]?.length ?? 0);
      out.push(t);
      i = t.end;
      return t.kind === 'error' ? undefined : t;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = at + 1;
      while (j < n && /[A-Za-z0-9_]/.test(text[j] as string)) j++;
      const t: Token = { kind: 'name', text: text.slice(at, j), start: at, end: j };
      out.push(t);
      i = j;
      return t;
    }
    if (/[0-9]/.test(c)) {
      let j = at + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(text[j] as string)) j++;
      const t: Token = { kind: 'int', text: text.slice(at, j), start: at, end: j };
      out.push(t);
      i = j;
      return t;
    }
    const p = PUNCT.find((x) => text.startsWith(x, at)) ?? (/[()[\]{},:;=.+\-*/%<>|&^~!@]/.test(c) ? c : undefined);
    if (p !== undefined) {
      if (p === '(' || p === '[' || p === '{') depth++;
      else if ((p === ')' || p === ']' || p === '}') && depth > 0) depth--;
      const t: Token = { kind: 'punct', text: p, start: at, end: at + p.length };
      out.push(t);
      i = at + p.length;
      return t;
    }
    out.push({ kind: 'error', text: `unexpected character \`${c}\``, start: at, end: at + 1 });
    i = n;
    return undefined;
  }

  function readString(at: number, flags: string, flagLength: number): Token {
    const q = text[at + flagLength] as string;
    const triple = text.startsWith(q.repeat(3), at + flagLength);
    const open = at + flagLength + (triple ? 3 : 1);
    const raw = flags.includes('r');
    let j = open;
    let value = '';
    for (;;) {
      if (j >= n) return { kind: 'error', text: 'unterminated string', start: at, end: n };
      const ch = text[j] as string;
      if (triple ? text.startsWith(q.repeat(3), j) : ch === q) {
        j += triple ? 3 : 1;
        break;
      }
      if (!triple && (ch === '\n' || ch === '\r')) return { kind: 'error', text: 'unterminated string', start: at, end: j };
      if (ch === '\\') {
        const e = text[j + 1];
        if (e === undefined) return { kind: 'error', text: 'unterminated string', start: at, end: n };
        if (raw) {
          value += ch + e;
          j += 2;
          continue;
        }
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', f: '\f', v: '\v', '0': '\0' };
        if (e === '\n') {
          j += 2;
          continue;
        }
        if (e === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(j + 2, j + 4))) {
          value += String.fromCharCode(parseInt(text.slice(j + 2, j + 4), 16));
          j += 4;
          continue;
        }
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
          value += String.fromCharCode(parseInt(text.slice(j + 2, j + 6), 16));
          j += 6;
          continue;
        }
        if (e === 'U' && /^[0-9a-fA-F]{8}$/.test(text.slice(j + 2, j + 10))) {
          const cp = parseInt(text.slice(j + 2, j + 10), 16);
          if (cp > 0x10ffff) return { kind: 'error', text: 'invalid escape `\\U`', start: j, end: j + 10 };
          value += String.fromCodePoint(cp);
          j += 10;
          continue;
        }
        if (/[0-7]/.test(e) && e !== '0') {
          const m = /^[0-7]{1,3}/.exec(text.slice(j + 1, j + 4)) as RegExpExecArray;
          value += String.fromCharCode(parseInt(m[0], 8));
          j += 1 + m[0].length;
          continue;
        }
        const s = simple[e];
        if (s === undefined) return { kind: 'error', text: `invalid escape \`\\${e}\``, start: j, end: j + 2 };
        value += s;
        j += 2;
        continue;
      }
      value += ch;
      j++;
    }
    const t: Token = { kind: 'string', text: text.slice(at, j), start: at, end: j };
    if (flags.includes('b')) t.notStatic = 'a bytes literal';
    else if (flags.includes('f') && /[{}]/.test(value)) t.notStatic = 'an f-string with fields';
    else t.value = value;
    return t;
  }
}

/** A literal argument value, with its span; `notStatic` says why a value was not read. */
export type Literal =
  | { kind: 'string'; value: string; start: number; end: number }
  | { kind: 'list'; items: Literal[]; start: number; end: number }
  | { kind: 'none' | 'true' | 'false'; start: number; end: number }
  | { kind: 'int'; value: number; start: number; end: number }
  | { kind: 'not-static'; why: string; start: number; end: number };

export interface CallArgument {
  /** The keyword, or undefined for a positional argument. */
  name?: string;
  nameStart?: number;
  value: Literal;
}

export interface TopLevelCall {
  callee: string;
  start: number;
  end: number;
  calleeEnd: number;
  args: CallArgument[];
}

export interface StarlarkRead {
  calls: TopLevelCall[];
  /** Statements that need evaluation, and syntax errors. */
  diagnostics: Diagnostic[];
  /** A syntax error was found: the agent refuses the file. */
  syntaxError: boolean;
  /** Some statement or value needs evaluation. */
  notStatic: boolean;
  index: LineIndex;
}

/**
 * The top-level calls of a Starlark text whose callee is in `callees`, with literal arguments; every
 * other statement is a `native/not-static` diagnostic at its span, every syntax error `native/syntax`.
 */
export function readStarlark(file: string, text: string, callees: ReadonlySet<string>): StarlarkRead {
  const index = new LineIndex(text);
  const tokens = lex(text);
  const diagnostics: Diagnostic[] = [];
  const calls: TopLevelCall[] = [];
  let syntaxError = false;
  let notStatic = false;
  let p = 0;
  const span = (s: number, e: number): Span => spanOf(file, index, s, e);
  const peek = (k = 0): Token => tokens[Math.min(p + k, tokens.length - 1)] as Token;
  const err = tokens.find((t) => t.kind === 'error');
  if (err !== undefined) {
    diagnostics.push({ code: 'native/syntax', severity: 'error', message: `Starlark syntax: ${err.text}`, span: span(err.start, err.end), help: 'Codex refuses a rules file that does not parse, and then loads none of the rules files' });
    return { calls, diagnostics, syntaxError: true, notStatic, index };
  }

  const syntax = (t: Token, message: string): void => {
    syntaxError = true;
    diagnostics.push({ code: 'native/syntax', severity: 'error', message: `Starlark syntax: ${message}`, span: span(t.start, Math.max(t.end, t.start + 1)), help: 'Codex refuses a rules file that does not parse, and then loads none of the rules files' });
  };
  const needsEvaluation = (s: number, e: number, what: string): void => {
    notStatic = true;
    diagnostics.push({
      code: 'native/not-static',
      severity: 'warning',
      message: `cannot read statically: ${what}`,
      span: span(s, e),
      help: 'Verdict reads the rules a file records with literal values only; what needs evaluation is not read (write the rule as a literal `prefix_rule(...)` call)',
    });
  };

  /** Skips the tokens of one statement (a logical line, and the indented block a `:` opens). */
  const skipStatement = (): number => {
    let end = peek().end;
    let opensBlock = false;
    while (peek().kind !== 'newline' && peek().kind !== 'eof') {
      const t = peek();
      if (t.kind === 'punct' && t.text === ';') break;
      opensBlock = t.kind === 'punct' && t.text === ':';
      end = t.end;
      p++;
    }
    if (peek().kind === 'punct') p++;
    if (peek().kind === 'newline') p++;
    if (opensBlock) {
      while (peek().kind !== 'eof' && (peek().indent ?? 0) > 0) {
        while (peek().kind !== 'newline' && peek().kind !== 'eof') {
          end = peek().end;
          p++;
        }
        if (peek().kind === 'newline') p++;
      }
    }
    return end;
  };

  /** Skips one expression up to `,` or the closing bracket at depth 0. */
  const skipExpression = (): number => {
    let depth = 0;
    let end = peek().start;
    for (;;) {
      const t = peek();
      if (t.kind === 'eof' || (t.kind === 'newline' && depth === 0)) return end;
      if (t.kind === 'punct') {
        if (depth === 0 && (t.text === ',' || t.text === ')' || t.text === ']')) return end;
        if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
        if (t.text === ')' || t.text === ']' || t.text === '}') depth--;
      }
      end = t.end;
      p++;
    }
  };

  const isEnd = (t: Token): boolean => t.kind === 'punct' && (t.text === ',' || t.text === ')' || t.text === ']');

  /** Lists nested deeper than any rule needs are not read (and the reader's stack stays bounded). */
  const MAX_LIST_DEPTH = 32;
  const literal = (depth = 0): Literal => {
    const t = peek();
    const start = t.start;
    if (depth > MAX_LIST_DEPTH && t.kind === 'punct' && t.text === '[') {
      const e = skipToCloseFrom();
      return { kind: 'not-static', why: `lists nested more than ${MAX_LIST_DEPTH} deep`, start, end: e };
    }
    let value: Literal | undefined;
    if (t.kind === 'string') {
      p++;
      if (peek().kind === 'string') {
        // Adjacent literals: not a Starlark concatenation.
        const e = skipExpression();
        return { kind: 'not-static', why: 'adjacent string literals', start, end: e };
      }
      value = t.value === undefined ? { kind: 'not-static', why: t.notStatic ?? 'a string', start, end: t.end } : { kind: 'string', value: t.value, start, end: t.end };
    } else if (t.kind === 'int' && /^(0|[1-9][0-9]*)$/.test(t.text)) {
      p++;
      value = { kind: 'int', value: Number(t.text), start, end: t.end };
    } else if (t.kind === 'name' && (t.text === 'None' || t.text === 'True' || t.text === 'False')) {
      p++;
      value = { kind: t.text === 'None' ? 'none' : t.text === 'True' ? 'true' : 'false', start, end: t.end };
    } else if (t.kind === 'punct' && t.text === '[') {
      p++;
      const items: Literal[] = [];
      for (;;) {
        const u = peek();
        if (u.kind === 'punct' && u.text === ']') {
          p++;
          const inner = items.find((x) => x.kind === 'not-static');
          value = inner ?? { kind: 'list', items, start, end: u.end };
          break;
        }
        if (u.kind === 'eof') {
          syntax(u, 'a `[` is not closed');
          return { kind: 'not-static', why: 'unclosed list', start, end: u.end };
        }
        const item = literal(depth + 1);
        items.push(item);
        const v = peek();
        if (v.kind === 'punct' && v.text === ',') p++;
        else if (!(v.kind === 'punct' && v.text === ']')) {
          // `[x for x in y]`, `["a"] + b`…: the whole list needs evaluation.
          const e = skipToClose(']');
          return { kind: 'not-static', why: 'a list that needs evaluation', start, end: e };
        }
      }
    }
    if (value !== undefined) {
      if (isEnd(peek())) return value;
      const e = skipExpression();
      return { kind: 'not-static', why: 'an expression', start, end: e };
    }
    const e = skipExpression();
    return { kind: 'not-static', why: t.kind === 'name' ? `\`${t.text}\`` : 'an expression', start, end: Math.max(e, t.end) };
  };

  /** Skips a bracketed literal from its `[` (iteratively). */
  const skipToCloseFrom = (): number => {
    p++;
    return skipToClose(']');
  };

  const skipToClose = (close: string): number => {
    let depth = 0;
    for (;;) {
      const t = peek();
      if (t.kind === 'eof') return t.end;
      p++;
      if (t.kind === 'punct') {
        if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
        else if (t.text === ')' || t.text === ']' || t.text === '}') {
          if (depth === 0 && t.text === close) return t.end;
          depth--;
        }
      }
    }
  };

  while (peek().kind !== 'eof') {
    const t = peek();
    if (t.kind === 'newline' || (t.kind === 'punct' && t.text === ';')) {
      p++;
      continue;
    }
    if ((t.indent ?? 0) > 0) {
      syntax(t, 'unexpected indentation');
      skipStatement();
      continue;
    }
    if (t.kind === 'string' && (peek(1).kind === 'newline' || peek(1).kind === 'eof')) {
      // A docstring: evaluates to nothing.
      p += 1;
      continue;
    }
    if (t.kind === 'name' && callees.has(t.text) && peek(1).kind === 'punct' && peek(1).text === '(') {
      const callee = t.text;
      p += 2;
      const args: CallArgument[] = [];
      let closed = false;
      let end = t.end;
      while (peek().kind !== 'eof') {
        const u = peek();
        if (u.kind === 'punct' && u.text === ')') {
          p++;
          end = u.end;
          closed = true;
          break;
        }
        if (u.kind === 'name' && peek(1).kind === 'punct' && peek(1).text === '=') {
          p += 2;
          args.push({ name: u.text, nameStart: u.start, value: literal() });
        } else if (u.kind === 'punct' && (u.text === '*' || u.text === '**')) {
          const s = u.start;
          p++;
          const e = skipExpression();
          args.push({ value: { kind: 'not-static', why: 'unpacked arguments', start: s, end: e } });
        } else {
          args.push({ value: literal() });
        }
        const v = peek();
        if (v.kind === 'punct' && v.text === ',') p++;
        else if (!(v.kind === 'punct' && v.text === ')')) {
          syntax(v, `expected \`,\` or \`)\` in the call of \`${callee}\``);
          skipStatement();
          break;
        }
      }
      if (!closed) {
        if (!syntaxError) syntax(peek(), `the call of \`${callee}\` is not closed`);
        continue;
      }
      const after = peek();
      if (!(after.kind === 'newline' || after.kind === 'eof' || (after.kind === 'punct' && after.text === ';'))) {
        const s = t.start;
        const e = skipStatement();
        needsEvaluation(s, e, `the result of \`${callee}(...)\` is used in an expression`);
        continue;
      }
      calls.push({ callee, start: t.start, end, calleeEnd: t.end, args });
      continue;
    }
    const s = t.start;
    const e = skipStatement();
    const what =
      t.kind === 'name' && ['def', 'for', 'if', 'while', 'load', 'return'].includes(t.text)
        ? `a \`${t.text}\` statement`
        : t.kind === 'name' && tokens[tokens.indexOf(t) + 1]?.text === '='
          ? `an assignment to \`${t.text}\``
          : t.kind === 'name' && tokens[tokens.indexOf(t) + 1]?.text === '('
            ? `a call of \`${t.text}\`, which records no rule Verdict knows`
            : 'a statement that needs evaluation';
    needsEvaluation(s, e, what);
  }
  return { calls, diagnostics, syntaxError, notStatic, index };
}
