/**
 * Tokens of the `.verdict` DSL. Keywords are lowercase words with `longer_alt: Identifier`, so
 * `allowed`, `denylist`, `testing` and `policyx` stay one identifier.
 */
import { Lexer, createToken, type TokenType } from 'chevrotain';

export const WhiteSpace = createToken({
  name: 'WhiteSpace',
  pattern: /[ \t\r\n\uFEFF]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});

/** `#` to the end of the line; kept in a group so the formatter can put comments back. */
export const Comment = createToken({ name: 'Comment', pattern: /#[^\n\r]*/, group: 'comments' });

/** Names: tool names, field names, modes, values. `-` and `.` allowed after the first character. */
export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_.-]*/ });

function keyword(word: string): TokenType {
  return createToken({ name: word[0]!.toUpperCase() + word.slice(1), pattern: word, longer_alt: Identifier, label: `\`${word}\`` });
}

export const Driver = keyword('driver');
export const Policy = keyword('policy');
export const Approver = keyword('approver');
export const Test = keyword('test');
export const Allow = keyword('allow');
export const Deny = keyword('deny');
export const Default = keyword('default');
export const Reason = keyword('reason');
export const Input = keyword('input');
export const Field = keyword('field');
export const Match = keyword('match');
export const Rule = keyword('rule');

/** Every keyword, by its word. */
export const keywordTokens: ReadonlyMap<string, TokenType> = new Map(
  [Driver, Policy, Approver, Test, Allow, Deny, Default, Reason, Input, Field, Match, Rule].map((t) => [
    t.name.toLowerCase(),
    t,
  ]),
);

/** Categories: a terminated and an unterminated literal are both accepted by the grammar; lowering reports the latter. */
export const Regex = createToken({ name: 'Regex', pattern: Lexer.NA, label: 'a regex' });
export const StringLit = createToken({ name: 'StringLit', pattern: Lexer.NA, label: 'a string' });

/** `/pattern/`: everything verbatim; a backslash pairs with the next character, so `\/` does not end it. */
export const RegexLiteral = createToken({
  name: 'RegexLiteral',
  pattern: /\/(?:[^/\\\n\r]|\\[^\n\r])*\//,
  categories: [Regex],
  label: 'a regex',
});
export const UnterminatedRegex = createToken({
  name: 'UnterminatedRegex',
  pattern: /\/(?:[^/\\\n\r]|\\[^\n\r])*\\?/,
  categories: [Regex],
  label: 'a regex',
});

/** A JSON string; escapes are checked when it is lowered (JSON.parse), so a bad escape is one clear message. */
export const StringLiteral = createToken({
  name: 'StringLiteral',
  pattern: /"(?:[^"\\\n\r]|\\[^\n\r])*"/,
  categories: [StringLit],
  label: 'a string',
});
export const UnterminatedString = createToken({
  name: 'UnterminatedString',
  pattern: /"(?:[^"\\\n\r]|\\[^\n\r])*\\?/,
  categories: [StringLit],
  label: 'a string',
});

const UNIT = '(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h)';
const DURATION_BODY = `(?:(?:\\d+(?:\\.\\d*)?|\\.\\d+)${UNIT})+`;
/** A Go duration with a unit (`30s`, `1h30m`, `-5s`, `1.5h`); a bare `0` is a Number. */
export const Duration = createToken({
  name: 'Duration',
  pattern: new RegExp(`[-+]?${DURATION_BODY}`),
  label: 'a duration',
});
export const DURATION_RE = new RegExp(`^[-+]?${DURATION_BODY}$`);

/** A JSON number. */
export const NumberLit = createToken({
  name: 'NumberLit',
  pattern: /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/,
  label: 'a number',
});
export const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export const LBrace = createToken({ name: 'LBrace', pattern: '{', label: '`{`' });
export const RBrace = createToken({ name: 'RBrace', pattern: '}', label: '`}`' });
export const LBracket = createToken({ name: 'LBracket', pattern: '[', label: '`[`' });
export const RBracket = createToken({ name: 'RBracket', pattern: ']', label: '`]`' });
export const Colon = createToken({ name: 'Colon', pattern: ':', label: '`:`' });
export const Comma = createToken({ name: 'Comma', pattern: ',', label: '`,`' });
export const Star = createToken({ name: 'Star', pattern: '*', label: '`*`' });

export const allTokens: TokenType[] = [
  WhiteSpace,
  Comment,
  RegexLiteral,
  UnterminatedRegex,
  StringLiteral,
  UnterminatedString,
  Duration,
  NumberLit,
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  Colon,
  Comma,
  Star,
  ...keywordTokens.values(),
  Identifier,
  Regex,
  StringLit,
];

export const verdictLexer = new Lexer(allTokens, {
  positionTracking: 'full',
  ensureOptimizations: false,
  errorMessageProvider: {
    buildUnexpectedCharactersMessage: (text, offset, length) => {
      const shown = text.slice(offset, offset + Math.min(length, 1));
      return `unexpected character ${describeChar(shown)}`;
    },
    buildUnableToPopLexerModeMessage: () => 'internal lexer error',
  },
});

function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return '`' + c + '`';
}

/** A word the printer may write without quotes in a value position. */
export const BARE_WORD_RE = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
