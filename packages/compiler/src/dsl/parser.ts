/**
 * The grammar of `.verdict` files, and nothing else: no semantics here (see lower.ts).
 * One instance, built on the first parse (`verdictParser()`) and reused for every file; importing
 * this module loads no chevrotain (see chevrotain.ts).
 *
 * Near misses of keywords (`alow`, `Approver`, `reasn`) are accepted where only that keyword could
 * stand, through gates; lowering reports them with a "did you mean". That keeps one typo from
 * swallowing the whole statement around it during error recovery.
 */
import type { CstNode, CstParser, IToken, TokenType } from 'chevrotain';
import { chevrotain } from './chevrotain.ts';
import { errorMessageProvider } from './messages.ts';
import { isNearMiss as isNear } from '../did-you-mean.ts';
import { verdictTokens } from './tokens.ts';

/** The parser: `file()` parses the tokens in `input`. */
export type VerdictParser = CstParser & { file(): CstNode };

let parser: VerdictParser | undefined;

/** The one parser instance, built (and self-analysed) on the first call. */
export function verdictParser(): VerdictParser {
  parser ??= defineParser();
  return parser;
}

function defineParser(): VerdictParser {
  const { CstParser, tokenMatcher } = chevrotain();
  const {
    Allow,
    Approver,
    Colon,
    Comma,
    Default,
    Deny,
    Driver,
    Duration,
    Field,
    Identifier,
    Input,
    LBrace,
    LBracket,
    Match,
    NumberLit,
    Policy,
    RBrace,
    RBracket,
    Reason,
    Regex,
    Rule,
    Star,
    StringLit,
    Test,
    allTokens,
  } = verdictTokens();

  const CLAUSE_WORDS = ['default', 'reason', 'input', 'unknown', 'environment', 'shells'];
  const JSON_WORDS = new Set(['true', 'false', 'null']);

  class VerdictGrammar extends CstParser {
    constructor() {
      super(allTokens, { recoveryEnabled: true, nodeLocationTracking: 'full', errorMessageProvider, maxLookahead: 2 });
      this.performSelfAnalysis();
    }

    /** The next token is `tok`, or an identifier that is a near miss of its word. */
    private isKw(tok: TokenType, word: string): boolean {
      const t = this.LA(1);
      if (tokenMatcher(t, tok)) return true;
      return tokenMatcher(t, Identifier) && isNear(t.image, word);
    }

    /**
     * `ask` is a word, not a keyword: `permission ask`, a tool or field named `ask` stay names. It
     * starts a rule, and is a test's expectation or a rule list, only where a decision stands.
     */
    private isAsk(): boolean {
      const t = this.LA(1);
      return tokenMatcher(t, Identifier) && t.image.toLowerCase() === 'ask';
    }

    private isDecision(): boolean {
      return this.isKw(Allow, 'allow') || this.isKw(Deny, 'deny') || this.isAsk();
    }

    private startsStatement(): boolean {
      return (
        this.isKw(Driver, 'driver') || this.isKw(Policy, 'policy') || this.isKw(Approver, 'approver') || this.isKw(Test, 'test')
      );
    }

    private isClause(): boolean {
      return this.isKw(Default, 'default') || this.isKw(Reason, 'reason') || this.isKw(Input, 'input') || this.isWord('unknown') || this.isWord('environment') || this.isWord('shells');
    }

    /** The next token is the identifier `word` exactly (words of command rules, which are no keywords). */
    private isWord(word: string): boolean {
      const t = this.LA(1);
      return tokenMatcher(t, Identifier) && t.image === word;
    }

    private nextIsNearClause(): boolean {
      const t = this.LA(1);
      return tokenMatcher(t, Identifier) && CLAUSE_WORDS.some((w) => isNear(t.image, w));
    }

    private startsJson(): boolean {
      const t = this.LA(1);
      if (tokenMatcher(t, Identifier)) return JSON_WORDS.has(t.image);
      return tokenMatcher(t, LBrace) || tokenMatcher(t, LBracket) || tokenMatcher(t, StringLit) || tokenMatcher(t, NumberLit);
    }

    file = this.RULE('file', () => {
      this.MANY({ GATE: () => this.startsStatement(), DEF: () => this.SUBRULE(this.statement) });
    });

    statement = this.RULE('statement', () => {
      this.OR({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          { GATE: () => this.isKw(Driver, 'driver'), ALT: () => this.SUBRULE(this.driverStmt) },
          { GATE: () => this.isKw(Policy, 'policy'), ALT: () => this.SUBRULE(this.policyStmt) },
          { GATE: () => this.isKw(Approver, 'approver'), ALT: () => this.SUBRULE(this.approverStmt) },
          { GATE: () => this.isKw(Test, 'test'), ALT: () => this.SUBRULE(this.testStmt) },
        ],
      });
    });

    // driver claude | driver "./drivers/mine.json"
    driverStmt = this.RULE('driverStmt', () => {
      this.OR([{ ALT: () => this.CONSUME(Driver, { LABEL: 'kw' }) }, { ALT: () => this.CONSUME(Identifier, { LABEL: 'kw' }) }]);
      this.SUBRULE(this.name);
    });

    // policy { sandbox workspace_write  approvals { permission ask } }
    policyStmt = this.RULE('policyStmt', () => {
      this.OR([{ ALT: () => this.CONSUME(Policy, { LABEL: 'kw' }) }, { ALT: () => this.CONSUME(Identifier, { LABEL: 'kw' }) }]);
      this.SUBRULE(this.policyBlock);
    });

    policyBlock = this.RULE('policyBlock', () => {
      this.CONSUME(LBrace);
      this.MANY(() => this.SUBRULE(this.policyEntry));
      this.CONSUME(RBrace);
    });

    policyEntry = this.RULE('policyEntry', () => {
      this.CONSUME(Identifier, { LABEL: 'key' });
      // `sandbox: read_only` out of YAML habit: accepted here so lowering can say it once, clearly.
      this.OPTION(() => this.CONSUME(Colon, { LABEL: 'colon' }));
      this.OR([{ ALT: () => this.SUBRULE(this.policyBlock) }, { ALT: () => this.SUBRULE(this.scalar) }]);
    });

    // approver pattern default deny reason "…" input canonical { allow bash field command /git status/  ask bash /git push/ }
    approverStmt = this.RULE('approverStmt', () => {
      this.OR([{ ALT: () => this.CONSUME(Approver, { LABEL: 'kw' }) }, { ALT: () => this.CONSUME(Identifier, { LABEL: 'kw' }) }]);
      this.OPTION({ GATE: () => !this.nextIsNearClause(), DEF: () => this.SUBRULE(this.word, { LABEL: 'mode' }) });
      this.MANY({ GATE: () => this.isClause(), DEF: () => this.SUBRULE(this.approverClause) });
      this.OPTION2(() => this.SUBRULE(this.approverBlock));
    });

    approverClause = this.RULE('approverClause', () => {
      this.OR({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          {
            GATE: () => this.isKw(Default, 'default'),
            ALT: () => {
              this.OR1([{ ALT: () => this.CONSUME(Default, { LABEL: 'defaultKw' }) }, { ALT: () => this.CONSUME1(Identifier, { LABEL: 'defaultKw' }) }]);
              this.SUBRULE(this.word, { LABEL: 'defaultValue' });
            },
          },
          {
            GATE: () => this.isKw(Reason, 'reason'),
            ALT: () => {
              this.OR2([{ ALT: () => this.CONSUME(Reason, { LABEL: 'reasonKw' }) }, { ALT: () => this.CONSUME2(Identifier, { LABEL: 'reasonKw' }) }]);
              this.CONSUME(StringLit, { LABEL: 'reasonValue' });
            },
          },
          {
            GATE: () => this.isKw(Input, 'input'),
            ALT: () => {
              this.OR3([{ ALT: () => this.CONSUME(Input, { LABEL: 'inputKw' }) }, { ALT: () => this.CONSUME3(Identifier, { LABEL: 'inputKw' }) }]);
              this.SUBRULE1(this.word, { LABEL: 'inputValue' });
            },
          },
          {
            // unknown ask | unknown deny: the decision for shell text command rules cannot model
            GATE: () => this.isWord('unknown'),
            ALT: () => {
              this.CONSUME4(Identifier, { LABEL: 'unknownKw' });
              this.SUBRULE2(this.word, { LABEL: 'unknownValue' });
            },
          },
          {
            // environment ["FOO_LEVEL"]: variables a command may be run with besides the harmless ones
            GATE: () => this.isWord('environment'),
            ALT: () => {
              this.CONSUME5(Identifier, { LABEL: 'environmentKw' });
              this.SUBRULE(this.jsonValue, { LABEL: 'environmentValue' });
            },
          },
          {
            // shells ["bash"]: the shells that may run the text (`bash`, `zsh`, `sh`, `any`)
            GATE: () => this.isWord('shells'),
            ALT: () => {
              this.CONSUME6(Identifier, { LABEL: 'shellsKw' });
              this.SUBRULE1(this.jsonValue, { LABEL: 'shellsValue' });
            },
          },
        ],
      });
    });

    approverBlock = this.RULE('approverBlock', () => {
      this.CONSUME(LBrace);
      this.MANY({ GATE: () => this.isDecision(), DEF: () => this.SUBRULE(this.ruleStmt) });
      this.CONSUME(RBrace);
    });

    ruleStmt = this.RULE('ruleStmt', () => {
      this.SUBRULE(this.decision);
      this.SUBRULE(this.toolRef);
      this.OPTION({
        GATE: () => this.isKw(Field, 'field'),
        DEF: () => {
          this.OR([{ ALT: () => this.CONSUME(Field, { LABEL: 'fieldKw' }) }, { ALT: () => this.CONSUME(Identifier, { LABEL: 'fieldKw' }) }]);
          this.SUBRULE(this.name, { LABEL: 'fieldName' });
        },
      });
      // A command rule: allow bash command ["git", ["status", "diff"]] args "(--[a-z-]+ ?)*" redirect "/tmp/.*"
      this.OPTION3({
        GATE: () => this.isWord('command'),
        DEF: () => {
          this.CONSUME1(Identifier, { LABEL: 'commandKw' });
          this.SUBRULE(this.jsonValue, { LABEL: 'commandValue' });
        },
      });
      this.OPTION4({
        GATE: () => this.isWord('args'),
        DEF: () => {
          this.CONSUME2(Identifier, { LABEL: 'argsKw' });
          this.CONSUME(StringLit, { LABEL: 'argsValue' });
        },
      });
      this.OPTION5({
        GATE: () => this.isWord('redirect'),
        DEF: () => {
          this.CONSUME3(Identifier, { LABEL: 'redirectKw' });
          this.CONSUME1(StringLit, { LABEL: 'redirectValue' });
        },
      });
      this.OPTION2({
        GATE: () => tokenMatcher(this.LA(1), Regex) || this.isKw(Match, 'match'),
        DEF: () => this.SUBRULE(this.matchExpr),
      });
    });

    matchExpr = this.RULE('matchExpr', () => {
      this.OR({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          { ALT: () => this.CONSUME(Regex) },
          {
            ALT: () => {
              this.OR1([{ ALT: () => this.CONSUME(Match, { LABEL: 'matchKw' }) }, { ALT: () => this.CONSUME(Identifier, { LABEL: 'matchKw' }) }]);
              this.CONSUME(StringLit);
            },
          },
        ],
      });
    });

    // test "rm is denied" { deny bash {"command":"rm -rf /"} reason "…" rule deny[0] }   (or `allow`, `ask`)
    testStmt = this.RULE('testStmt', () => {
      this.OR([{ ALT: () => this.CONSUME(Test, { LABEL: 'kw' }) }, { ALT: () => this.CONSUME(Identifier, { LABEL: 'kw' }) }]);
      this.OPTION(() => this.CONSUME(StringLit, { LABEL: 'testName' }));
      this.CONSUME(LBrace);
      this.SUBRULE(this.decision);
      this.SUBRULE(this.name, { LABEL: 'tool' });
      this.OPTION2({ GATE: () => this.startsJson(), DEF: () => this.SUBRULE(this.jsonValue) });
      this.MANY({ GATE: () => this.isKw(Reason, 'reason') || this.isKw(Rule, 'rule'), DEF: () => this.SUBRULE(this.testClause) });
      this.CONSUME(RBrace);
    });

    testClause = this.RULE('testClause', () => {
      this.OR({
        IGNORE_AMBIGUITIES: true,
        DEF: [
          {
            GATE: () => this.isKw(Reason, 'reason'),
            ALT: () => {
              this.OR1([{ ALT: () => this.CONSUME(Reason, { LABEL: 'reasonKw' }) }, { ALT: () => this.CONSUME1(Identifier, { LABEL: 'reasonKw' }) }]);
              this.CONSUME(StringLit, { LABEL: 'reasonValue' });
            },
          },
          {
            GATE: () => this.isKw(Rule, 'rule'),
            ALT: () => {
              this.OR2([{ ALT: () => this.CONSUME(Rule, { LABEL: 'ruleKw' }) }, { ALT: () => this.CONSUME2(Identifier, { LABEL: 'ruleKw' }) }]);
              this.SUBRULE(this.ruleRef);
            },
          },
        ],
      });
    });

    // deny[0] | ask[1] | allow[2] | default | "anything else, as written"
    ruleRef = this.RULE('ruleRef', () => {
      this.OR([
        {
          ALT: () => {
            this.OR1([
              { ALT: () => this.CONSUME(Allow, { LABEL: 'list' }) },
              { ALT: () => this.CONSUME(Deny, { LABEL: 'list' }) },
              // `ask` (lowering reports any other word)
              { ALT: () => this.CONSUME(Identifier, { LABEL: 'list' }) },
            ]);
            this.CONSUME(LBracket);
            this.CONSUME(NumberLit, { LABEL: 'index' });
            this.CONSUME(RBracket);
          },
        },
        { ALT: () => this.CONSUME(Default) },
        { ALT: () => this.CONSUME(StringLit) },
      ]);
    });

    decision = this.RULE('decision', () => {
      this.OR([
        { ALT: () => this.CONSUME(Allow, { LABEL: 'kw' }) },
        { ALT: () => this.CONSUME(Deny, { LABEL: 'kw' }) },
        { ALT: () => this.CONSUME(Identifier, { LABEL: 'kw' }) },
      ]);
    });

    /** A tool in a rule: a name, a string, or `*` for every tool. */
    toolRef = this.RULE('toolRef', () => {
      this.OR([
        { ALT: () => this.CONSUME(Identifier, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(StringLit, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(Star, { LABEL: 'value' }) },
      ]);
    });

    /** A name or a string. */
    name = this.RULE('name', () => {
      this.OR([{ ALT: () => this.CONSUME(Identifier, { LABEL: 'value' }) }, { ALT: () => this.CONSUME(StringLit, { LABEL: 'value' }) }]);
    });

    /** A name, `allow`/`deny` (modes and defaults are often these words), or a string. */
    word = this.RULE('word', () => {
      this.OR([
        { ALT: () => this.CONSUME(Identifier, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(Allow, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(Deny, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(StringLit, { LABEL: 'value' }) },
      ]);
    });

    /** A policy value: a word, a string, a duration or a number. */
    scalar = this.RULE('scalar', () => {
      this.OR([
        { ALT: () => this.CONSUME(Identifier, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(Allow, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(Deny, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(StringLit, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(Duration, { LABEL: 'value' }) },
        { ALT: () => this.CONSUME(NumberLit, { LABEL: 'value' }) },
      ]);
    });

    jsonValue = this.RULE('jsonValue', () => {
      this.OR([
        { ALT: () => this.SUBRULE(this.jsonObject) },
        { ALT: () => this.SUBRULE(this.jsonArray) },
        { ALT: () => this.CONSUME(StringLit, { LABEL: 'atom' }) },
        { ALT: () => this.CONSUME(NumberLit, { LABEL: 'atom' }) },
        { ALT: () => this.CONSUME(Identifier, { LABEL: 'atom' }) },
      ]);
    });

    jsonObject = this.RULE('jsonObject', () => {
      this.CONSUME(LBrace);
      this.MANY_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.jsonMember) });
      this.CONSUME(RBrace);
    });

    jsonMember = this.RULE('jsonMember', () => {
      this.CONSUME(StringLit, { LABEL: 'key' });
      this.CONSUME(Colon);
      this.SUBRULE(this.jsonValue);
    });

    jsonArray = this.RULE('jsonArray', () => {
      this.CONSUME(LBracket);
      this.MANY_SEP({ SEP: Comma, DEF: () => this.SUBRULE(this.jsonValue) });
      this.CONSUME(RBracket);
    });
  }

  return new VerdictGrammar();
}

export type { CstNode, IToken };
