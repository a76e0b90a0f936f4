/**
 * Syntax error messages people can read: what was expected, after what, never token dumps.
 * Chevrotain asks for a string only; a "did you mean" for the offending token is kept aside in
 * `helpByToken` and picked up when the error becomes a Diagnostic.
 */
import type { IParserErrorMessageProvider, IToken, TokenType } from 'chevrotain';
import { chevrotain } from './chevrotain.ts';
import { didYouMeanHelp as didYouMean } from '../did-you-mean.ts';
import { verdictTokens } from './tokens.ts';

export const helpByToken = new WeakMap<IToken, string>();

const STATEMENTS = '`driver`, `policy`, `approver` or `test`';

function after(previous: IToken | undefined): string {
  const { EOF } = chevrotain();
  if (!previous || !previous.image || !Number.isFinite(previous.startOffset) || previous.tokenType === EOF) return '';
  const image = previous.image.length > 24 ? previous.image.slice(0, 21) + '...' : previous.image;
  return ` after \`${image.replace(/`/g, "'")}\``;
}

function describeRule(ruleName: string, previous: IToken | undefined): string | undefined {
  const prev = previous?.image ?? '';
  switch (ruleName) {
    case 'toolRef':
      return 'a tool name';
    case 'name':
      if (prev === 'allow' || prev === 'deny' || prev === 'ask') return 'a tool name';
      if (prev === 'field') return 'a field name';
      if (prev === 'driver') return 'a driver name';
      return 'a name';
    case 'word':
      return prev === 'default' ? '`allow` or `deny`' : prev === 'input' ? '`raw` or `canonical`' : 'a word or a string';
    case 'scalar':
      return 'a value';
    case 'policyEntry':
      return 'a value or `{`';
    case 'decision':
      return '`allow`, `deny` or `ask`';
    case 'jsonValue':
      return 'a JSON value';
    case 'ruleRef':
      return 'a rule such as `deny[0]`, `ask[0]`, `allow[1]` or `default`';
    case 'statement':
    case 'file':
      return STATEMENTS;
    case 'matchExpr':
      return 'a regex';
    default:
      return undefined;
  }
}

function describeToken(expected: TokenType, ruleName: string): string {
  const { EOF, tokenLabel } = chevrotain();
  const { LBrace, RBrace } = verdictTokens();
  if (expected === EOF) return STATEMENTS;
  if (expected === RBrace) {
    if (ruleName === 'approverBlock') return 'a rule (`allow …`, `deny …` or `ask …`) or `}`';
    if (ruleName === 'policyBlock') return 'a setting or `}`';
    if (ruleName === 'testStmt') return '`reason`, `rule` or `}`';
    if (ruleName === 'jsonObject') return '`,` or `}`';
  }
  if (expected === LBrace && ruleName === 'testStmt') return '`{`';
  return tokenLabel(expected);
}

function rememberHelp(actual: IToken | undefined, expected: readonly TokenType[]): void {
  const { tokenMatcher } = chevrotain();
  const { Identifier, keywordTokens } = verdictTokens();
  if (!actual || !tokenMatcher(actual, Identifier)) return;
  const words = [...keywordTokens.entries()].filter(([, t]) => expected.includes(t)).map(([w]) => w);
  const help = didYouMean(actual.image, words);
  if (help) helpByToken.set(actual, help);
}

export const errorMessageProvider: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual, previous, ruleName }) {
    rememberHelp(actual, [expected]);
    // After skipping tokens to resync a repetition, chevrotain's `previous` is the last skipped
    // token, not what the user wrote before the mistake: say nothing about it then.
    const { EOF } = chevrotain();
    const { RBrace } = verdictTokens();
    const resynced = expected === EOF || expected === RBrace;
    return `expected ${describeToken(expected, ruleName)}${resynced ? '' : after(previous)}`;
  },
  buildNotAllInputParsedMessage() {
    return `expected ${STATEMENTS}`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous, ruleName }) {
    const firsts = [...new Set(expectedPathsPerAlt.flatMap((alt) => alt.map((path) => path[0]).filter((t) => t !== undefined)))];
    rememberHelp(actual[0], firsts);
    const what = describeRule(ruleName, previous) ?? listTokens(firsts);
    return `expected ${what}${after(previous)}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, previous, ruleName }) {
    const firsts = [...new Set(expectedIterationPaths.map((p) => p[0]).filter((t) => t !== undefined))];
    rememberHelp(actual[0], firsts);
    return `expected ${describeRule(ruleName, previous) ?? listTokens(firsts)}${after(previous)}`;
  },
};

function listTokens(tokens: readonly TokenType[]): string {
  const { tokenLabel } = chevrotain();
  const labels = [...new Set(tokens.map((t) => tokenLabel(t)))];
  if (labels.length === 0) return 'something else';
  if (labels.length === 1) return labels[0]!;
  return `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
}
