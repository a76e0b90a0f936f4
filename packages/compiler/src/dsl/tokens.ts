/**
 * Tokens of the `.verdict` DSL. Keywords are lowercase words with `longer_alt: Identifier`, so
 * `allowed`, `denylist`, `testing` and `policyx` stay one identifier.
 *
 * The token types and the lexer are made on first use (`verdictTokens()`), not when the compiler
 * is imported: they need chevrotain, which YAML and JSON policies never load (see chevrotain.ts).
 */
import type { ILexingResult, Lexer, TokenType } from 'chevrotain';
import { chevrotain } from './chevrotain.ts';

/** The keywords, in the order the lexer tries them. */
export const KEYWORDS = ['driver', 'policy', 'approver', 'test', 'allow', 'deny', 'default', 'reason', 'input', 'field', 'match', 'rule'] as const;
export type Keyword = (typeof KEYWORDS)[number];

export type VerdictTokens = ReturnType<typeof defineTokens>;

let built: VerdictTokens | undefined;

/** Every token type and the lexer, made once, on the first call. */
export function verdictTokens(): VerdictTokens {
  if (!built) {
    built = defineTokens();
    Identifier = built.Identifier;
  }
  return built;
}

function defineTokens() {
  const { Lexer, createToken } = chevrotain();

  const WhiteSpace = createToken({
    name: 'WhiteSpace',
    pattern: /[ \t\r\n\uFEFF]+/,
    group: Lexer.SKIPPED,
    line_breaks: true,
  });

  /** `#` to the end of the line; kept in a group so the formatter can put comments back. */
  const Comment = createToken({ name: 'Comment', pattern: /#[^\n\r]*/, group: 'comments' });

  /** Names: tool names, field names, modes, values. `-` and `.` allowed after the first character. */
  const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_][A-Za-z0-9_.-]*/ });

  /** Every keyword, by its word. */
  const keywordTokens: ReadonlyMap<string, TokenType> = new Map(
    KEYWORDS.map((word) => [
      word,
      createToken({ name: word[0]!.toUpperCase() + word.slice(1), pattern: word, longer_alt: Identifier, label: `\`${word}\`` }),
    ]),
  );
  const kw = (word: Keyword): TokenType => keywordTokens.get(word)!;

  /** Categories: a terminated and an unterminated literal are both accepted by the grammar; lowering reports the latter. */
  const Regex = createToken({ name: 'Regex', pattern: Lexer.NA, label: 'a regex' });
  const StringLit = createToken({ name: 'StringLit', pattern: Lexer.NA, label: 'a string' });

  /** `/pattern/`: everything verbatim; a backslash pairs with the next character, so `\/` does not end it. */
  const RegexLiteral = createToken({
    name: 'RegexLiteral',
    pattern: /\/(?:[^/\\\n\r]|\\[^\n\r])*\//,
    categories: [Regex],
    label: 'a regex',
  });
  const UnterminatedRegex = createToken({
    name: 'UnterminatedRegex',
    pattern: /\/(?:[^/\\\n\r]|\\[^\n\r])*\\?/,
    categories: [Regex],
    label: 'a regex',
  });

  /** A JSON string; escapes are checked when it is lowered (JSON.parse), so a bad escape is one clear message. */
  const StringLiteral = createToken({
    name: 'StringLiteral',
    pattern: /"(?:[^"\\\n\r]|\\[^\n\r])*"/,
    categories: [StringLit],
    label: 'a string',
  });
  const UnterminatedString = createToken({
    name: 'UnterminatedString',
    pattern: /"(?:[^"\\\n\r]|\\[^\n\r])*\\?/,
    categories: [StringLit],
    label: 'a string',
  });

  /** A Go duration with a unit (`30s`, `1h30m`, `-5s`, `1.5h`); a bare `0` is a Number. */
  const Duration = createToken({
    name: 'Duration',
    pattern: new RegExp(`[-+]?${DURATION_BODY}`),
    label: 'a duration',
  });

  /** A JSON number. */
  const NumberLit = createToken({
    name: 'NumberLit',
    pattern: /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/,
    label: 'a number',
  });

  const LBrace = createToken({ name: 'LBrace', pattern: '{', label: '`{`' });
  const RBrace = createToken({ name: 'RBrace', pattern: '}', label: '`}`' });
  const LBracket = createToken({ name: 'LBracket', pattern: '[', label: '`[`' });
  const RBracket = createToken({ name: 'RBracket', pattern: ']', label: '`]`' });
  const Colon = createToken({ name: 'Colon', pattern: ':', label: '`:`' });
  const Comma = createToken({ name: 'Comma', pattern: ',', label: '`,`' });
  const Star = createToken({ name: 'Star', pattern: '*', label: '`*`' });

  /** The literals and punctuation, in the order the lexer tries them (after white space and comments). */
  const literals = {
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
  };

  const allTokens: TokenType[] = [
    WhiteSpace,
    Comment,
    ...Object.values(literals),
    ...keywordTokens.values(),
    Identifier,
    Regex,
    StringLit,
  ];

  const lexer: Lexer = new Lexer(allTokens, {
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

  return {
    WhiteSpace,
    Comment,
    Identifier,
    keywordTokens,
    Driver: kw('driver'),
    Policy: kw('policy'),
    Approver: kw('approver'),
    Test: kw('test'),
    Allow: kw('allow'),
    Deny: kw('deny'),
    Default: kw('default'),
    Reason: kw('reason'),
    Input: kw('input'),
    Field: kw('field'),
    Match: kw('match'),
    Rule: kw('rule'),
    Regex,
    StringLit,
    ...literals,
    allTokens,
    lexer,
  };
}

function describeChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return '`' + c + '`';
}

const UNIT = '(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h)';
const DURATION_BODY = `(?:(?:\\d+(?:\\.\\d*)?|\\.\\d+)${UNIT})+`;
export const DURATION_RE = new RegExp(`^[-+]?${DURATION_BODY}$`);
export const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A word the printer may write without quotes in a value position. */
export const BARE_WORD_RE = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * The keyword token types by word. `has` and `size` answer from the word list without making the
 * token types (the printer asks them for YAML files too); everything else makes them.
 */
class KeywordTokens implements ReadonlyMap<string, TokenType> {
  private readonly words: ReadonlySet<string> = new Set(KEYWORDS);
  get size(): number {
    return this.words.size;
  }
  has(word: string): boolean {
    return this.words.has(word);
  }
  get(word: string): TokenType | undefined {
    return verdictTokens().keywordTokens.get(word);
  }
  forEach(callback: (value: TokenType, key: string, map: ReadonlyMap<string, TokenType>) => void, thisArg?: unknown): void {
    verdictTokens().keywordTokens.forEach((v, k) => callback.call(thisArg, v, k, this));
  }
  keys(): MapIterator<string> {
    return verdictTokens().keywordTokens.keys();
  }
  values(): MapIterator<TokenType> {
    return verdictTokens().keywordTokens.values();
  }
  entries(): MapIterator<[string, TokenType]> {
    return verdictTokens().keywordTokens.entries();
  }
  [Symbol.iterator](): MapIterator<[string, TokenType]> {
    return this.entries();
  }
}

/** Every keyword, by its word. */
export const keywordTokens: ReadonlyMap<string, TokenType> = new KeywordTokens();

/** The lexer; the first call makes it. */
export const verdictLexer: Pick<Lexer, 'tokenize'> = {
  tokenize: (text: string, initialMode?: string): ILexingResult => verdictTokens().lexer.tokenize(text, initialMode),
};

/**
 * The identifier token type, for tests that compare token types; set by the first `verdictTokens()`
 * call (which every use of the lexer makes). Code here reads `verdictTokens().Identifier`.
 */
export let Identifier: TokenType;
