/**
 * Compiled approvers with `explain`: the pattern approver (semantics.md A3, A4), the two mode
 * approvers, and the compatibility approver that denies everything after a regex compile error.
 *
 * Input handling:
 * - raw (default): rules search the raw input text (lone surrogates read as U+FFFD, as in UTF-8).
 * - canonical: the input is canonicalised first; a rejected input is denied with
 *   `tool input is not valid JSON or repeats a key` before any rule runs, and rules search the
 *   canonical text.
 * - `field` rules read the top-level string value of the field (key compared under case folding)
 *   and must match it whole. In raw mode the input is parsed with the canonical parser for this
 *   lookup only; when it cannot be parsed (invalid JSON, a repeated key), deny and ask field rules
 *   match and allow field rules do not (fail closed). A field rule with an empty match accepts only `""`.
 *
 * Ask rules (a Verdict extension): the first deny rule that matches decides; else the first ask rule
 * (`ask`, reason `DEFAULT_ASK_REASON`); else the first allow rule; else the default. Without ask rules
 * every decision is the reference's. `approve` keeps the two-decision contract: it answers `ask` with
 * a deny carrying the ask reason.
 *
 * Who decides: `approve`, `decide`, `answers` and `explain` ask the front door (`decide.ts`: the DFA
 * and the steps); `explain` adds the deciding rule's span and the other rules that match, found by
 * the definition (`definition.ts`: every rule, one by one). Property tests check the front door
 * against the definition (`decidingRule`, `callDefinition`).
 */
import { CANONICAL_REJECT_REASON } from '../canonical/canonical.ts';
import { caseFold } from '../canonical/casefold.ts';
import type { Span } from '../diagnostics.ts';
import type { Decision, InputMode, RuleList } from '../ir.ts';
import { programSize } from '../regex/re2-program.ts';
import type { CompiledRegex } from '../regex/regex.ts';
import { denied, internalErrorReason, toApproval } from './builtins.ts';
import type { Answer } from './call.ts';
import { createDecider } from './decide.ts';
import { DEFAULT_ASK_REASON, decisionOf, matchingRules, readInput } from './definition.ts';
import type { InputSubject, Rule } from './definition.ts';
import type {
  ApprovalRequest,
  ApprovalResult,
  CompiledApprover,
  Explanation,
  MatchSpan,
  RuleRef,
  RuledDecisionResult,
  RuledResult,
} from './types.ts';

export const DEFAULT_PATTERN_REASON = 'denied by pattern policy';
/**
 * The reason of an `ask` decision (a call an ask rule matched, no deny rule did): what `decide` and
 * `explain` report with `ask`, and the reason of the deny `approve` answers such a call with.
 */
export { DEFAULT_ASK_REASON };

/** A rule ready to run: the IR rule plus its compiled regex. */
export interface PatternRule {
  list: RuleList;
  index: number;
  tool: string;
  match: string;
  field?: string | undefined;
  span?: Span | undefined;
  /** The compiled `match`, or `null` when `match` is empty. */
  regex: CompiledRegex | null;
}

export interface PatternApproverOptions {
  rules: readonly PatternRule[];
  defaultDecision: Decision;
  /** The deny reason as configured; `""` means `denied by pattern policy`. */
  reason: string;
  input: InputMode;
}

/** A rule as the decision sees it (`definition.ts`), with the reference `decide` and `explain` report. */
export interface PreparedRule extends Rule {
  readonly ref: RuleRef;
}

/** The rules of a configuration, prepared once: tool and field case-folded, their references made. */
export function prepareRules(rules: readonly PatternRule[]): PreparedRule[] {
  return rules.map((r) => ({
    list: r.list,
    index: r.index,
    foldedTool: caseFold(r.tool),
    regex: r.regex,
    field: r.field === undefined ? undefined : caseFold(r.field),
    ref: ruleRef(r.list, r.index, r.span),
  }));
}

function ruleRef(list: RuleList, index: number, span: Span | undefined): RuleRef {
  return span === undefined ? { list, index } : { list, index, span };
}

function checkRequest(request: ApprovalRequest): void {
  if (typeof request !== 'object' || request === null) throw new TypeError('request is not an object');
  if (typeof request.toolName !== 'string') throw new TypeError('request tool name is not a string');
  if (typeof request.input !== 'string') throw new TypeError('request input is not a string');
}

function internalErrorExplanation(error: unknown): Explanation {
  return {
    decision: 'deny',
    reason: internalErrorReason(error),
    rule: null,
    by: 'internal-error',
    match: null,
    alsoMatched: [],
  };
}

/** A decision with how it came about: a rule's, the default, or a refusal (unreadable input, an internal error). */
export interface DecidedCall {
  readonly result: RuledResult;
  readonly by: 'rule' | 'default' | 'refused';
}

/** The pattern approver, and its decision with how it came about (what the command-rule layer combines with). */
export interface PatternApprover extends CompiledApprover {
  decideCall(request: ApprovalRequest): DecidedCall;
}

/**
 * The pattern approver: `approve` and `decide` go through the front door (`decide.ts`), built once
 * here; `explain` runs the definition (`definition.ts`), rule by rule.
 */
export function createPatternApprover(options: PatternApproverOptions): PatternApprover {
  const reason = options.reason === '' ? DEFAULT_PATTERN_REASON : options.reason;
  const mode: InputMode = options.input === 'canonical' ? 'canonical' : 'raw';
  const rules = prepareRules(options.rules);
  const decider = createDecider(rules, mode);
  // The four outcomes, made once (`approve` is the hot path); callers get copies.
  const [onDefault, onDeny, onAsk, onAllow] = ([null, 'deny', 'ask', 'allow'] as const).map((list) => decisionOf(list, options.defaultDecision, reason)) as [
    RuledDecisionResult,
    RuledDecisionResult,
    RuledDecisionResult,
    RuledDecisionResult,
  ];
  const pick = <T>(rule: Rule | null, d: T, deny: T, ask: T, allow: T): T =>
    rule === null ? d : rule.list === 'deny' ? deny : rule.list === 'allow' ? allow : ask;
  const [aDefault, aDeny, aAsk, aAllow] = [onDefault, onDeny, onAsk, onAllow].map(toApproval) as [ApprovalResult, ApprovalResult, ApprovalResult, ApprovalResult];
  const outcome = (rule: Rule | null): RuledDecisionResult => {
    const o = pick(rule, onDefault, onDeny, onAsk, onAllow);
    return { decision: o.decision, reason: o.reason };
  };
  const rejected: RuledDecisionResult = { decision: 'deny', reason: CANONICAL_REJECT_REASON };

  const decideCall = (request: ApprovalRequest): DecidedCall => {
    try {
      checkRequest(request);
      const rule = decider.decide(request.toolName, request.input);
      if (rule === undefined) return { result: { ...rejected, rule: null }, by: 'refused' };
      // The decider hands back the rule objects it was built from: these prepared rules.
      const o = pick(rule, onDefault, onDeny, onAsk, onAllow);
      return rule === null
        ? { result: { decision: o.decision, reason: o.reason, rule: null }, by: 'default' }
        : { result: { decision: o.decision, reason: o.reason, rule: (rule as PreparedRule).ref }, by: 'rule' };
    } catch (e) {
      return { result: { decision: 'deny', reason: internalErrorReason(e), rule: null }, by: 'refused' };
    }
  };
  const decide = (request: ApprovalRequest): RuledResult => decideCall(request).result;
  const approve = (request: ApprovalRequest): ApprovalResult => {
    try {
      checkRequest(request);
      const rule = decider.decide(request.toolName, request.input);
      if (rule === undefined) return toApproval(rejected);
      const a = pick(rule, aDefault, aDeny, aAsk, aAllow);
      return { decision: a.decision, reason: a.reason };
    } catch (e) {
      return { decision: 'deny', reason: internalErrorReason(e) };
    }
  };

  const explain = (request: ApprovalRequest): Explanation => {
    try {
      checkRequest(request);
      // The decision is the fast path's (`decide`); explain adds where the deciding rule matched and
      // the other rules that match (the definition's, rule by rule).
      const fast = decider.decide(request.toolName, request.input);
      const subject = readInput(request.input, mode);
      if (fast === undefined || subject === null) return { ...rejected, rule: null, by: 'invalid-input', match: null, alsoMatched: [] };
      const deciding = fast as PreparedRule | null;
      const others = (matchingRules(rules, request.toolName, subject) as PreparedRule[]).filter((m) => m !== deciding);
      const canonical = subject.canonical === undefined ? {} : { canonical: subject.canonical };
      if (deciding === null) return { ...outcome(null), rule: null, by: 'default', match: null, alsoMatched: others.map((m) => m.ref), ...canonical };
      // Only the deciding rule's span is shown: the others' would cost a search each for nothing.
      const span = matchSpan(deciding, subject);
      return {
        ...outcome(deciding),
        rule: deciding.ref,
        by: 'rule',
        match: 'omitted' in span ? null : span.match,
        alsoMatched: others.map((m) => m.ref),
        ...canonical,
        ...('omitted' in span ? { spanOmitted: span.omitted } : {}),
      };
    } catch (e) {
      return internalErrorExplanation(e);
    }
  };

  const answers = (request: ApprovalRequest): Answer[] => {
    const d = decideCall(request);
    return [{ ...d.result, by: d.by }];
  };

  return { approve, decide, explain, decideCall, answers };
}

/**
 * Steps `explain` may spend finding the deciding rule's span: program instructions × characters of
 * the text. re2js finds a span with its NFA, at worst one step per instruction per character (~12-35
 * ns a step on the benchmark machine: ~1-3.5 s); `(.*){1000}` (4,002 instructions) on 400 KB took
 * 20 s and more. Past it the span is not looked for (`spanOmitted`).
 */
export const SPAN_BUDGET = 100_000_000;

/**
 * Where a matching rule matched: the regex's span, the whole field value, or `null` when unknown;
 * `omitted` when finding it would cost more than `SPAN_BUDGET`.
 */
function matchSpan(rule: Rule, subject: InputSubject): { match: MatchSpan | null } | { omitted: { instructions: number; characters: number } } {
  if (rule.field !== undefined) {
    const value = subject.field(rule.field);
    if (typeof value !== 'string') return { match: null }; // a deny field rule on unreadable input
    return { match: { start: 0, end: value.length, subject: 'field', text: value } };
  }
  if (rule.regex === null) return { match: { start: 0, end: 0, subject: subject.subjectKind, text: '' } };
  const instructions = programSize(rule.regex);
  const characters = subject.original.length;
  if (instructions !== undefined && instructions * characters > SPAN_BUDGET) return { omitted: { instructions, characters } };
  const m = rule.regex.find(subject.original);
  if (m === null) return { match: null };
  return { match: { start: m.start, end: m.end, subject: subject.subjectKind, text: subject.original.slice(m.start, m.end) } };
}

/** Allow-all or deny-all, chosen by the mode; `explain` reports `by: 'mode'`. */
export function createModeApprover(decision: Decision, reason: string): CompiledApprover {
  const result: ApprovalResult = decision === 'allow' ? { decision: 'allow', reason: '' } : denied(reason);
  return {
    approve: () => ({ ...result }),
    decide: () => ({ ...result, rule: null }),
    explain: () => ({ ...result, rule: null, by: 'mode', match: null, alsoMatched: [] }),
    // A mode decides every call as a default would.
    answers: () => [{ ...result, rule: null, by: 'default' }],
  };
}

/**
 * The compatibility behaviour of a configuration with an invalid regex: every call is denied with
 * `approver: pattern compile: <Go error>`, naming the rule that failed.
 */
export function createCompileErrorApprover(reason: string, rule: RuleRef): CompiledApprover {
  return {
    approve: () => ({ decision: 'deny', reason }),
    decide: () => ({ decision: 'deny', reason, rule }),
    explain: () => ({ decision: 'deny', reason, rule, by: 'compile-error', match: null, alsoMatched: [] }),
    answers: () => [{ decision: 'deny', reason, rule, by: 'refused' }],
  };
}
