/**
 * Lowering: the CST of a `.verdict` file becomes the same PolicyFileIR as a YAML file, with spans.
 * Semantic mistakes (misspelt keywords, unknown settings, duplicates, bad strings, bad JSON) are
 * reported here as diagnostics; syntax errors were already reported by the parser. Recovered
 * nodes and tokens inserted by recovery are skipped quietly: their error is already on record.
 */
import type { CstElement, CstNode, IToken } from 'chevrotain';
import { PRESET_NAMES, getPreset, policyFieldsIn } from '@verdict/engine';
import { presetIR } from '../lower.ts';
import type {
  ApprovalsIR,
  ApproverIR,
  Diagnostic,
  DriverRefIR,
  InputMode,
  Located,
  PolicyFileIR,
  PolicyIR,
  RuleIR,
  RuleList,
  RuledDecision,
  Span,
  TestCaseIR,
} from '@verdict/engine';
import { type LineIndex, spanFromChevrotain, spanOf } from '../positions.ts';
import { chevrotain } from './chevrotain.ts';
import { verdictParser } from './parser.ts';
import { didYouMeanHelp as didYouMean } from '../did-you-mean.ts';
import { verdictTokens } from './tokens.ts';

type Ctx = Record<string, CstElement[] | undefined>;

const POLICY_KEYS = ['preset', ...policyFieldsIn('policy').map((f) => f.name), 'approvals'] as const;
const APPROVALS_KEYS = policyFieldsIn('approvals').map((f) => f.name);

function isToken(e: CstElement | undefined): e is IToken {
  return e !== undefined && 'image' in e;
}

function isNode(e: CstElement | undefined): e is CstNode {
  return e !== undefined && 'children' in e;
}

function tok(ctx: Ctx, key: string, i = 0): IToken | undefined {
  const e = ctx[key]?.[i];
  return isToken(e) && !e.isInsertedInRecovery && Number.isFinite(e.startOffset) ? e : undefined;
}

function node(ctx: Ctx, key: string, i = 0): CstNode | undefined {
  const e = ctx[key]?.[i];
  return isNode(e) ? e : undefined;
}

function nodes(ctx: Ctx, key: string): CstNode[] {
  return (ctx[key] ?? []).filter(isNode);
}

interface Statements {
  driver?: DriverRefIR;
  policy?: PolicyIR;
  approver?: ApproverIR;
  tests: TestCaseIR[];
}

/** What lowering gives: the IR (meaningful only when there are no errors) and the diagnostics of lowering. */
export interface Lowered {
  ir: PolicyFileIR;
  diagnostics: Diagnostic[];
}

let LoweringClass: ReturnType<typeof defineLowering> | undefined;

/**
 * Lowers the CST of a file to its IR. `hadSyntaxErrors` says the parser reported errors, whose
 * recovered nodes are skipped quietly. The visitor class is built on the first call.
 */
export function lowerCst(
  cst: CstNode,
  file: string,
  index: LineIndex,
  text: string,
  comments: readonly IToken[],
  hadSyntaxErrors: boolean,
): Lowered {
  LoweringClass ??= defineLowering();
  const lowering = new LoweringClass(file, index, text, comments, hadSyntaxErrors);
  const ir = lowering.lowerFile(cst);
  return { ir, diagnostics: lowering.diagnostics };
}

function defineLowering() {
  const { tokenMatcher } = chevrotain();
  const { Default, Duration, Identifier, NumberLit, Star, StringLit, UnterminatedRegex, UnterminatedString } = verdictTokens();
  const BaseVisitor = verdictParser().getBaseCstVisitorConstructorWithDefaults<void, unknown>();

  class Lowering extends BaseVisitor {
    readonly diagnostics: Diagnostic[] = [];
    private readonly first = new Map<string, Span>();
    private readonly result: Statements = { tests: [] };

    constructor(
      private readonly file: string,
      private readonly index: LineIndex,
      private readonly text: string,
      /** Comment tokens, to refuse comments inside a JSON test input (they would change the input). */
      private readonly comments: readonly IToken[],
      private readonly hadSyntaxErrors = false,
    ) {
      super();
    }

    lowerFile(cst: CstNode): PolicyFileIR {
      for (const st of nodes(cst.children, 'statement')) this.visit(st);
      const ir: PolicyFileIR = { file: this.file, tests: this.result.tests };
      if (this.result.driver) ir.driver = this.result.driver;
      if (this.result.policy) ir.policy = this.result.policy;
      if (this.result.approver) {
        ir.approver = this.result.approver;
        ir.approverPlacement = 'approver';
      }
      return ir;
    }

    // ---- helpers -------------------------------------------------------------------------------

    private error(code: string, message: string, span: Span | undefined, help?: string, related?: Span): void {
      const d: Diagnostic = { code, severity: 'error', message };
      if (help !== undefined) d.help = help;
      if (span) d.span = span;
      if (related) d.related = [{ message: 'first given here', span: related }];
      this.diagnostics.push(d);
    }

    private spanOfToken(t: IToken): Span {
      return spanFromChevrotain(this.file, this.index, t);
    }

    private spanOfNode(n: CstNode): Span | undefined {
      const loc = n.location;
      if (!loc || !Number.isFinite(loc.startOffset)) return undefined;
      return spanFromChevrotain(this.file, this.index, loc);
    }

    /** Reports a second occurrence of a once-only element; true when this is the first. */
    private once(key: string, what: string, span: Span | undefined): boolean {
      const prev = this.first.get(key);
      if (prev) {
        this.error('dsl/duplicate', `duplicate ${what}`, span, 'give it once', prev);
        return false;
      }
      if (span) this.first.set(key, span);
      else this.first.set(key, { file: this.file, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } });
      return true;
    }

    /** A keyword slot holding an identifier is a near miss (the parser only lets those in). */
    private checkKeyword(t: IToken | undefined, words: readonly string[]): void {
      if (!t || !tokenMatcher(t, Identifier)) return;
      const help = didYouMean(t.image, words);
      // Without a near keyword, the identifier came in through error recovery, whose error is on record.
      if (help === undefined && this.hadSyntaxErrors) return;
      this.error('dsl/unknown-keyword', `unknown keyword \`${t.image}\``, this.spanOfToken(t), help ?? `expected ${words.map((w) => `\`${w}\``).join(' or ')}`);
    }

    /** The text of a JSON string token, or undefined (reported) when it is unterminated or invalid. */
    private stringValue(t: IToken): string | undefined {
      if (tokenMatcher(t, UnterminatedString)) {
        this.error('dsl/unterminated-string', 'unterminated string', this.spanOfToken(t), 'a string ends with `"` on the same line');
        return undefined;
      }
      try {
        const v: unknown = JSON.parse(t.image);
        if (typeof v === 'string') return v;
      } catch {
        // located below
      }
      this.reportBadString(t);
      return undefined;
    }

    private reportBadString(t: IToken): void {
      const s = t.image;
      for (let i = 1; i < s.length - 1; i++) {
        const c = s.charCodeAt(i);
        const at = (len: number) => spanOf(this.file, this.index, t.startOffset + i, t.startOffset + i + len);
        if (c === 92) {
          const n = s[i + 1] ?? '';
          if ('"\\/bfnrt'.includes(n) && n !== '') {
            i++;
            continue;
          }
          if (n === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
            i += 5;
            continue;
          }
          this.error(
            'dsl/invalid-string',
            `invalid escape \`\\${n}\` in a string`,
            at(2),
            'strings use JSON escapes: `\\"`, `\\\\`, `\\n`, `\\t`, `\\uXXXX`; regexes go in `/…/` literals',
          );
          return;
        }
        if (c < 0x20) {
          const hex = c.toString(16).toUpperCase().padStart(4, '0');
          const short: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };
          this.error('dsl/invalid-string', `control character U+${hex} in a string`, at(1), `write it as \`${short[c] ?? `\\u${hex.toLowerCase()}`}\``);
          return;
        }
      }
      this.error('dsl/invalid-string', 'invalid string', this.spanOfToken(t));
    }

    /** A name or string token's text. */
    private nameValue(n: CstNode | undefined): { value: string; token: IToken } | undefined {
      if (!n) return undefined;
      const t = tok(n.children, 'value');
      if (!t) return undefined;
      if (tokenMatcher(t, StringLit)) {
        const v = this.stringValue(t);
        return v === undefined ? undefined : { value: v, token: t };
      }
      if (tokenMatcher(t, Star)) return { value: '', token: t };
      return { value: t.image, token: t };
    }

    private located<T>(value: T, t: IToken): Located<T> {
      return { value, span: this.spanOfToken(t) };
    }

    // ---- statements ------------------------------------------------------------------------------

    statement(ctx: Ctx): void {
      for (const key of ['driverStmt', 'policyStmt', 'approverStmt', 'testStmt']) {
        const n = node(ctx, key);
        if (n) this.visit(n);
      }
    }

    driverStmt(ctx: Ctx): void {
      const kw = tok(ctx, 'kw');
      this.checkKeyword(kw, ['driver']);
      const v = this.nameValue(node(ctx, 'name'));
      if (!v) return;
      const span = this.spanOfToken(v.token);
      if (!this.once('driver', '`driver` statement', span)) return;
      this.result.driver = { ref: v.value, span };
    }

    policyStmt(ctx: Ctx): void {
      this.checkKeyword(tok(ctx, 'kw'), ['policy']);
      const kw = tok(ctx, 'kw');
      const block = node(ctx, 'policyBlock');
      const policy: PolicyIR = {};
      const stmtSpan = kw ? this.stmtSpan(kw, block) : undefined;
      if (stmtSpan) policy.span = stmtSpan;
      if (!this.once('policy', '`policy` block', kw ? this.spanOfToken(kw) : undefined)) return;
      if (block) this.policyEntries(block, policy);
      this.result.policy = policy;
    }

    private stmtSpan(first: IToken, last: CstNode | IToken | undefined): Span {
      let end = first.endOffset ?? first.startOffset;
      if (last) {
        const e = 'children' in last ? last.location?.endOffset : last.endOffset;
        if (e !== undefined && Number.isFinite(e)) end = Math.max(end, e);
      }
      return spanFromChevrotain(this.file, this.index, { startOffset: first.startOffset, endOffset: end });
    }

    private reportColon(entry: CstNode, key: IToken): void {
      const colon = tok(entry.children, 'colon');
      if (!colon) return;
      this.error('dsl/colon', 'a `.verdict` setting takes no `:`', this.spanOfToken(colon), `write \`${key.image} value\``);
    }

    private policyEntries(block: CstNode, policy: PolicyIR): void {
      // A preset is a starting point wherever it is written: the settings beside it replace its values.
      for (const entry of nodes(block.children, 'policyEntry')) {
        const key = tok(entry.children, 'key');
        if (key?.image === 'preset') this.applyPreset(entry, key, policy);
      }
      for (const entry of nodes(block.children, 'policyEntry')) {
        const key = tok(entry.children, 'key');
        if (!key) continue;
        this.reportColon(entry, key);
        const keySpan = this.spanOfToken(key);
        const sub = node(entry.children, 'policyBlock');
        const scalar = node(entry.children, 'scalar');
        if (!(POLICY_KEYS as readonly string[]).includes(key.image)) {
          const inside = (APPROVALS_KEYS as readonly string[]).includes(key.image);
          this.error(
            'dsl/unknown-setting',
            `unknown policy setting \`${key.image}\``,
            keySpan,
            inside ? `\`${key.image}\` belongs inside \`approvals { … }\`` : didYouMean(key.image, [...POLICY_KEYS]) ?? `the settings are ${POLICY_KEYS.map((k) => `\`${k}\``).join(', ')}`,
          );
          continue;
        }
        if (key.image === 'preset') continue;
        if (!this.once(`policy.${key.image}`, `setting \`${key.image}\``, keySpan)) continue;
        if (key.image === 'approvals') {
          if (!sub) {
            this.error('dsl/expected-block', '`approvals` takes a block', keySpan, 'write `approvals { permission ask … }`');
            continue;
          }
          const approvals: ApprovalsIR = { ...(policy.approvals ?? {}) };
          const span = this.spanOfNode(entry);
          if (span) approvals.span = span;
          this.approvalsEntries(sub, approvals);
          policy.approvals = approvals;
          continue;
        }
        const field = policyFieldsIn('policy').find((f) => f.name === key.image);
        const v = this.scalarValue(scalar, key, sub);
        if (v && field) policy[field.prop] = v;
      }
    }

    private applyPreset(entry: CstNode, key: IToken, policy: PolicyIR): void {
      if (!this.once('policy.preset', 'setting `preset`', this.spanOfToken(key))) return;
      const v = this.scalarValue(node(entry.children, 'scalar'), key, node(entry.children, 'policyBlock'));
      if (!v) return;
      const preset = getPreset(v.value);
      if (!preset) {
        this.error(
          'dsl/unknown-preset',
          `unknown policy preset \`${v.value}\``,
          v.span,
          didYouMean(v.value, PRESET_NAMES) ?? `presets are ${PRESET_NAMES.map((n) => `\`${n}\``).join(', ')}`,
        );
        return;
      }
      const { policy: top, approvals: a } = presetIR(preset, v.span);
      Object.assign(policy, top);
      if (Object.keys(a).length > 0) policy.approvals = a;
    }

    private approvalsEntries(block: CstNode, approvals: ApprovalsIR): void {
      for (const entry of nodes(block.children, 'policyEntry')) {
        const key = tok(entry.children, 'key');
        if (!key) continue;
        this.reportColon(entry, key);
        const keySpan = this.spanOfToken(key);
        if (!(APPROVALS_KEYS as readonly string[]).includes(key.image)) {
          this.error(
            'dsl/unknown-setting',
            `unknown approvals setting \`${key.image}\``,
            keySpan,
            didYouMean(key.image, [...APPROVALS_KEYS]) ?? `the settings are ${APPROVALS_KEYS.map((k) => `\`${k}\``).join(', ')}`,
          );
          continue;
        }
        if (!this.once(`approvals.${key.image}`, `setting \`${key.image}\``, keySpan)) continue;
        const sub = node(entry.children, 'policyBlock');
        const scalar = node(entry.children, 'scalar');
        if (key.image === 'max_retries') {
          const t = scalar ? tok(scalar.children, 'value') : undefined;
          if (sub || (t && !tokenMatcher(t, NumberLit))) {
            this.error('dsl/expected-number', '`max_retries` takes a number', t ? this.spanOfToken(t) : keySpan, 'write `max_retries 3`');
            continue;
          }
          if (t) approvals.maxRetries = this.located(Number(t.image), t);
          continue;
        }
        const field = policyFieldsIn('approvals').find((f) => f.name === key.image);
        const v = this.scalarValue(scalar, key, sub);
        if (v && field) (approvals as Record<string, Located<string>>)[field.prop] = v;
      }
    }

    private scalarValue(scalar: CstNode | undefined, key: IToken, sub: CstNode | undefined): Located<string> | undefined {
      if (sub) {
        this.error('dsl/expected-value', `\`${key.image}\` takes a value, not a block`, this.spanOfToken(key));
        return undefined;
      }
      const t = scalar ? tok(scalar.children, 'value') : undefined;
      if (!t) return undefined;
      if (tokenMatcher(t, StringLit)) {
        const v = this.stringValue(t);
        return v === undefined ? undefined : this.located(v, t);
      }
      if ((tokenMatcher(t, Duration) || tokenMatcher(t, NumberLit)) && key.image !== 'timeout') {
        // Kept as written; the validate stage says which values the setting accepts.
        return this.located(t.image, t);
      }
      return this.located(t.image, t);
    }

    approverStmt(ctx: Ctx): void {
      const kw = tok(ctx, 'kw');
      this.checkKeyword(kw, ['approver']);
      const block = node(ctx, 'approverBlock');
      const approver: ApproverIR = { mode: '', default: '', reason: '', input: 'raw', allow: [], deny: [] };
      if (kw) approver.span = this.stmtSpan(kw, block ?? lastChild(ctx));
      if (!this.once('approver', '`approver` statement', kw ? this.spanOfToken(kw) : undefined)) return;
      const mode = this.nameValue(node(ctx, 'mode'));
      if (mode) {
        approver.mode = mode.value;
        approver.modeSpan = this.spanOfToken(mode.token);
      }
      for (const clause of nodes(ctx, 'approverClause')) this.approverClause(clause.children, approver);
      if (block) {
        for (const r of nodes(block.children, 'ruleStmt')) {
          const lowered = this.ruleStmt(r.children, r);
          if (lowered) (lowered.list === 'ask' ? (approver.ask ??= []) : approver[lowered.list]).push(lowered.rule);
        }
      }
      this.result.approver = approver;
    }

    approverClause(ctx: Ctx, approver: ApproverIR): void {
      const defaultKw = tok(ctx, 'defaultKw');
      const reasonKw = tok(ctx, 'reasonKw');
      const inputKw = tok(ctx, 'inputKw');
      if (defaultKw) {
        this.checkKeyword(defaultKw, ['default']);
        const v = this.nameValue(node(ctx, 'defaultValue'));
        if (v && this.once('approver.default', '`default`', this.spanOfToken(defaultKw))) {
          approver.default = v.value;
          approver.defaultSpan = this.spanOfToken(v.token);
        }
      } else if (reasonKw) {
        this.checkKeyword(reasonKw, ['reason']);
        const t = tok(ctx, 'reasonValue');
        const v = t ? this.stringValue(t) : undefined;
        if (t && v !== undefined && this.once('approver.reason', '`reason`', this.spanOfToken(reasonKw))) {
          approver.reason = v;
          approver.reasonSpan = this.spanOfToken(t);
        }
      } else if (tok(ctx, 'unknownKw')) {
        const v = this.nameValue(node(ctx, 'unknownValue'));
        if (v && this.once('approver.unknown', '`unknown`', this.spanOfToken(tok(ctx, 'unknownKw')!))) {
          // Kept as written: the approver's check names a value other than `ask` or `deny`.
          approver.unknown = v.value;
          approver.unknownSpan = this.spanOfToken(v.token);
        }
      } else if (tok(ctx, 'environmentKw') || tok(ctx, 'shellsKw')) {
        const key = tok(ctx, 'environmentKw') ? 'environment' : 'shells';
        const kw = tok(ctx, `${key}Kw`)!;
        const json = node(ctx, `${key}Value`);
        const text = json ? this.jsonInput(json) : undefined;
        if (text === undefined) return;
        const span = this.spanOfNode(json!) ?? this.spanOfToken(kw);
        let names: unknown;
        try {
          names = JSON.parse(text);
        } catch {
          names = undefined;
        }
        if (!Array.isArray(names) || names.length === 0 || !names.every((x): x is string => typeof x === 'string')) {
          this.error('dsl/expected-names', `\`${key}\` takes a list of names, each a string`, span, key === 'shells' ? 'write `shells ["bash"]` (or `"zsh"`, `"sh"`, `"any"`)' : 'write `environment ["FOO_LEVEL"]`');
          return;
        }
        if (this.once(`approver.${key}`, `\`${key}\``, this.spanOfToken(kw))) {
          // Kept as written: the approver's check names a variable or shell it refuses.
          approver[key] = names;
          approver[`${key}Span`] = span;
        }
      } else if (inputKw) {
        this.checkKeyword(inputKw, ['input']);
        const v = this.nameValue(node(ctx, 'inputValue'));
        if (!v) return;
        if (v.value !== 'raw' && v.value !== 'canonical') {
          this.error(
            'dsl/unknown-input',
            `unknown input mode \`${v.value}\``,
            this.spanOfToken(v.token),
            didYouMean(v.value, ['raw', 'canonical']) ?? 'use `raw` or `canonical`',
          );
          return;
        }
        if (this.once('approver.input', '`input`', this.spanOfToken(inputKw))) {
          approver.input = v.value as InputMode;
          approver.inputSpan = this.spanOfToken(v.token);
        }
      }
    }

    ruleStmt(ctx: Ctx, n: CstNode): { list: RuleList; rule: RuleIR } | undefined {
      const list = this.decision(node(ctx, 'decision'));
      const tool = this.nameValue(node(ctx, 'toolRef'));
      const fieldKw = tok(ctx, 'fieldKw');
      this.checkKeyword(fieldKw, ['field']);
      const field = fieldKw ? this.nameValue(node(ctx, 'fieldName')) : undefined;
      const m = this.matchExpr(node(ctx, 'matchExpr'));
      if (!list || !tool || (fieldKw && !field) || m === null) return undefined;
      const rule: RuleIR = { tool: tool.value, match: m?.pattern ?? '' };
      const span = this.spanOfNode(n);
      if (span) rule.span = span;
      rule.toolSpan = this.spanOfToken(tool.token);
      if (field) {
        // An empty `field` is no field (the engine searches the whole input); its span stays for lint.
        if (field.value !== '') rule.field = field.value;
        rule.fieldSpan = this.spanOfToken(field.token);
      }
      if (m) rule.matchSpan = m.span;
      if (!this.commandParts(ctx, rule)) return undefined;
      return { list, rule };
    }

    /** The command rule keys of a rule statement; `false` when one is malformed (reported). */
    private commandParts(ctx: Ctx, rule: RuleIR): boolean {
      const commandKw = tok(ctx, 'commandKw');
      const json = node(ctx, 'commandValue');
      if (commandKw) {
        const text = json ? this.jsonInput(json) : undefined;
        if (text === undefined) return false;
        const words = parseCommandWords(text);
        const span = this.spanOfNode(json!) ?? this.spanOfToken(commandKw);
        if (words === undefined) {
          this.error(
            'dsl/expected-command',
            '`command` takes a list of words, each a string or a list of strings',
            span,
            'write `command ["git", ["status", "diff"]]`',
          );
          return false;
        }
        rule.command = words;
        rule.commandSpan = span;
      }
      for (const key of ['args', 'redirect'] as const) {
        const t = tok(ctx, `${key}Value`);
        if (!t) continue;
        const v = this.stringValue(t);
        if (v === undefined) return false;
        rule[key] = v;
        rule[`${key}Span`] = spanOf(this.file, this.index, t.startOffset + 1, t.startOffset + t.image.length - 1);
      }
      return true;
    }

    /** `allow`, `deny` or `ask` (a rule's list, a test's expectation). */
    private decision(n: CstNode | undefined): RuledDecision | undefined {
      const t = n ? tok(n.children, 'kw') : undefined;
      if (!t) return undefined;
      if (t.image === 'allow' || t.image === 'deny' || t.image === 'ask') return t.image;
      this.checkKeyword(t, ['allow', 'deny', 'ask']);
      return undefined;
    }

    /** `undefined`: no pattern; `null`: a pattern with an error (reported). */
    private matchExpr(n: CstNode | undefined): { pattern: string; span: Span } | undefined | null {
      if (!n) return undefined;
      const ctx = n.children;
      const re = tok(ctx, 'Regex');
      if (re) return this.regexValue(re);
      const kw = tok(ctx, 'matchKw');
      this.checkKeyword(kw, ['match']);
      const s = tok(ctx, 'StringLit');
      if (!s) return null;
      const v = this.stringValue(s);
      if (v === undefined) return null;
      return { pattern: v, span: spanOf(this.file, this.index, s.startOffset + 1, s.startOffset + s.image.length - 1) };
    }

    private regexValue(t: IToken): { pattern: string; span: Span } | null {
      if (tokenMatcher(t, UnterminatedRegex)) {
        this.error(
          'dsl/unterminated-regex',
          'unterminated regex literal',
          this.spanOfToken(t),
          'a regex ends with `/` on the same line; write `\\/` for a slash inside it',
        );
        return null;
      }
      const body = t.image.slice(1, -1);
      return {
        pattern: unescapeRegexBody(body),
        span: spanOf(this.file, this.index, t.startOffset + 1, t.startOffset + 1 + body.length),
      };
    }

    testStmt(ctx: Ctx): void {
      const kw = tok(ctx, 'kw');
      this.checkKeyword(kw, ['test']);
      const nameTok = tok(ctx, 'testName');
      const name = nameTok ? this.stringValue(nameTok) : undefined;
      const expect = this.decision(node(ctx, 'decision'));
      const tool = this.nameValue(node(ctx, 'tool'));
      const json = node(ctx, 'jsonValue');
      const input = json ? this.jsonInput(json) : '{}';
      let reason: string | undefined;
      let rule: string | undefined;
      let ok = true;
      const seen = new Set<string>();
      for (const clause of nodes(ctx, 'testClause')) {
        const c = clause.children;
        const reasonKw = tok(c, 'reasonKw');
        const ruleKw = tok(c, 'ruleKw');
        const kwTok = reasonKw ?? ruleKw;
        if (!kwTok) continue;
        this.checkKeyword(reasonKw, ['reason']);
        this.checkKeyword(ruleKw, ['rule']);
        const which = reasonKw ? 'reason' : 'rule';
        if (seen.has(which)) {
          this.error('dsl/duplicate', `duplicate \`${which}\` in a test`, this.spanOfToken(kwTok), 'give it once');
          ok = false;
          continue;
        }
        seen.add(which);
        if (reasonKw) {
          const t = tok(c, 'reasonValue');
          const v = t ? this.stringValue(t) : undefined;
          if (v === undefined) ok = false;
          else reason = v;
        } else {
          const v = this.ruleRef(node(c, 'ruleRef'));
          if (v === undefined) ok = false;
          else rule = v;
        }
      }
      if (!kw || (nameTok && name === undefined) || !expect || !tool || input === undefined || !ok) return;
      const test: TestCaseIR = { tool: tool.value, input, expect };
      if (name !== undefined) test.name = name;
      if (reason !== undefined) test.reason = reason;
      if (rule !== undefined) test.rule = rule;
      test.span = this.stmtSpan(kw, tok(ctx, 'RBrace') ?? lastChild(ctx));
      this.result.tests.push(test);
    }

    private ruleRef(n: CstNode | undefined): string | undefined {
      if (!n) return undefined;
      const ctx = n.children;
      const list = tok(ctx, 'list');
      if (list) {
        const index = tok(ctx, 'index');
        if (!index) return undefined;
        if (tokenMatcher(list, Identifier) && list.image !== 'ask') {
          const help = didYouMean(list.image, ['allow', 'deny', 'ask']);
          this.error('dsl/invalid-rule-ref', `\`${list.image}\` is not a rule list`, this.spanOfToken(list), help ?? 'the rule lists are `deny`, `ask` and `allow`');
          return undefined;
        }
        if (!/^(?:0|[1-9]\d*)$/.test(index.image)) {
          this.error('dsl/invalid-rule-ref', `\`${index.image}\` is not a rule index`, this.spanOfToken(index), 'rules are counted from 0: `deny[0]` is the first deny rule');
          return undefined;
        }
        return `${list.image}[${index.image}]`;
      }
      const d = tok(ctx, 'Default');
      if (d && tokenMatcher(d, Default)) return 'default';
      const s = tok(ctx, 'StringLit');
      if (s) {
        this.error(
          'dsl/invalid-rule-ref',
          `\`${s.image}\` is not a rule`,
          this.spanOfToken(s),
          'write `deny[0]`, `ask[0]`, `allow[1]` (counted from 0) or `default`',
        );
      }
      return undefined;
    }

    /** The raw input text of a test: a string literal is the text itself; any other JSON value is taken as written. */
    private jsonInput(n: CstNode): string | undefined {
      const atom = node(n.children, 'jsonObject') || node(n.children, 'jsonArray') ? undefined : tok(n.children, 'atom');
      if (atom && tokenMatcher(atom, StringLit)) return this.stringValue(atom);
      if (!this.checkJson(n)) return undefined;
      const loc = n.location;
      if (!loc || !Number.isFinite(loc.startOffset) || loc.endOffset === undefined || !Number.isFinite(loc.endOffset)) return undefined;
      const start = loc.startOffset;
      const end = loc.endOffset + 1;
      const inner = this.comments.find((c) => c.startOffset > start && c.startOffset < end);
      if (inner) {
        this.error('dsl/comment-in-json', 'a comment inside a JSON test input', this.spanOfToken(inner), 'move the comment above the test');
        return undefined;
      }
      const text = this.text.slice(start, end);
      try {
        JSON.parse(text);
      } catch {
        this.error('dsl/invalid-json', 'the test input is not valid JSON', spanOf(this.file, this.index, start, end));
        return undefined;
      }
      return text;
    }

    /** Checks the atoms of a JSON value; false (reported) when one is not JSON. */
    private checkJson(n: CstNode): boolean {
      let ok = true;
      const stack: CstNode[] = [n];
      while (stack.length > 0) {
        const cur = stack.pop()!;
        if (cur.recoveredNode) ok = false;
        for (const [key, elems] of Object.entries(cur.children)) {
          for (const e of elems) {
            if (isNode(e)) {
              stack.push(e);
              continue;
            }
            if (e.isInsertedInRecovery) {
              ok = false;
              continue;
            }
            if ((key === 'atom' || key === 'key') && tokenMatcher(e, StringLit)) {
              if (this.stringValue(e) === undefined) ok = false;
            } else if (key === 'atom' && tokenMatcher(e, Identifier) && !['true', 'false', 'null'].includes(e.image)) {
              this.error('dsl/invalid-json', `\`${e.image}\` is not a JSON value`, this.spanOfToken(e), `write a string in double quotes: \`"${e.image}"\``);
              ok = false;
            }
          }
        }
      }
      return ok;
    }
  }

  return Lowering;
}

function lastChild(ctx: Ctx): CstNode | IToken | undefined {
  let best: CstNode | IToken | undefined;
  let bestEnd = -1;
  for (const elems of Object.values(ctx)) {
    for (const e of elems ?? []) {
      const end = isNode(e) ? e.location?.endOffset : e.endOffset;
      if (end !== undefined && Number.isFinite(end) && end > bestEnd) {
        bestEnd = end;
        best = e;
      }
    }
  }
  return best;
}

/** The pattern of a regex literal's body: `\/` becomes `/`; every other pair is kept as written. */
export function unescapeRegexBody(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\' && i + 1 < body.length) {
      const n = body[i + 1]!;
      out += n === '/' ? '/' : c + n;
      i++;
    } else {
      out += c;
    }
  }
  return out;
}

/** `["git", ["status", "diff"]]` as command words; `undefined` when it is not a list of strings and lists of strings. */
function parseCommandWords(text: string): (string | string[])[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  const out: (string | string[])[] = [];
  for (const w of value) {
    if (typeof w === 'string') out.push(w);
    else if (Array.isArray(w) && w.every((x) => typeof x === 'string')) out.push(w as string[]);
    else return undefined;
  }
  return out;
}
