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
 */
import { CANONICAL_REJECT_REASON, parseCanonical, parseStrictJson, topLevelMember } from '../canonical/canonical.ts';
import type { JsonValue } from '../canonical/canonical.ts';
import { caseFold } from '../canonical/casefold.ts';
import type { Span } from '../diagnostics.ts';
import type { Decision, InputMode, RuleList } from '../ir.ts';
import { wellFormed } from '../regex/regex.ts';
import type { CompiledRegex } from '../regex/regex.ts';
import { denied, internalErrorReason } from './builtins.ts';
import { DEFAULT_ASK_REASON } from './definition.ts';
import { buildPlan, decideTool, decideToolText, ruleMatches } from './fast.ts';
import { programSize } from './fast-dfa.ts';
import type { FastRule, FastSubject } from './fast.ts';
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

interface PreparedRule extends FastRule {
  readonly ref: RuleRef;
}

interface Subject extends FastSubject {
  readonly subjectKind: 'raw' | 'canonical';
  /** The original text spans index (raw input or canonical text). */
  readonly original: string;
  readonly canonical: string | undefined;
}

type Prepared = { ok: true; subject: Subject } | { ok: false };

function ruleRef(list: RuleList, index: number, span: Span | undefined): RuleRef {
  return span === undefined ? { list, index } : { list, index, span };
}

function fieldLookup(value: JsonValue | null): (foldedKey: string) => string | undefined | null {
  return (foldedKey) => {
    if (value === null) return null;
    const member = topLevelMember(value, foldedKey);
    return member?.kind === 'string' ? member.value : undefined;
  };
}

/** The field lookup of a raw subject when no rule reads fields (never called by the loop). */
const noField = (): null => null;

function prepareSubject(input: string, mode: InputMode, usesFields: boolean): Prepared {
  if (mode === 'canonical') {
    const parsed = parseCanonical(input);
    if (!parsed.ok) return { ok: false };
    return {
      ok: true,
      subject: {
        subjectKind: 'canonical',
        text: parsed.text,
        original: parsed.text,
        canonical: parsed.text,
        field: fieldLookup(parsed.value),
      },
    };
  }
  return { ok: true, subject: rawSubject(input, usesFields) };
}

/** The subject of a raw input: every text is one. */
function rawSubject(input: string, usesFields: boolean): Subject {
  if (!usesFields) {
    // No rule reads a field: no per-call lookup closure (the hot path of most policies).
    return { subjectKind: 'raw', text: wellFormed(input), original: input, canonical: undefined, field: noField };
  }
  let lookup: ((foldedKey: string) => string | undefined | null) | undefined;
  const field = (foldedKey: string): string | undefined | null => {
    if (lookup === undefined) {
      const parsed = usesFields ? parseStrictJson(input) : ({ ok: false } as const);
      lookup = fieldLookup(parsed.ok ? parsed.value : null);
    }
    return lookup(foldedKey);
  };
  return { subjectKind: 'raw', text: wellFormed(input), original: input, canonical: undefined, field };
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

/** The pattern approver. Compile-time work (folding, grouping) happens here, once. */
export function createPatternApprover(options: PatternApproverOptions): CompiledApprover {
  const reason = options.reason === '' ? DEFAULT_PATTERN_REASON : options.reason;
  const defaultResult: ApprovalResult =
    options.defaultDecision === 'allow' ? { decision: 'allow', reason: '' } : { decision: 'deny', reason };
  const mode: InputMode = options.input === 'canonical' ? 'canonical' : 'raw';
  const prepared: PreparedRule[] = options.rules.map((r) => ({
    list: r.list,
    index: r.index,
    foldedTool: caseFold(r.tool),
    regex: r.regex,
    field: r.field === undefined ? undefined : caseFold(r.field),
    ref: ruleRef(r.list, r.index, r.span),
  }));
  const plan = buildPlan(prepared);
  const inList = (list: RuleList) => prepared.filter((r) => r.list === list).sort((a, b) => a.index - b.index);
  const inOrder = [...inList('deny'), ...inList('ask'), ...inList('allow')];
  // What `approve` answers for a rule's list (`ask`: a deny with the ask reason, fail closed), and
  // what `decide` and `explain` report.
  const denyResult: ApprovalResult = { decision: 'deny', reason };
  const allowResult: ApprovalResult = { decision: 'allow', reason: '' };
  const askApproved: ApprovalResult = { decision: 'deny', reason: DEFAULT_ASK_REASON };
  const askResult: RuledDecisionResult = { decision: 'ask', reason: DEFAULT_ASK_REASON };
  const resultFor = (rule: FastRule | null): RuledDecisionResult =>
    rule === null ? { ...defaultResult } : rule.list === 'deny' ? { ...denyResult } : rule.list === 'ask' ? { ...askResult } : { ...allowResult };

  const subjectOfRaw = (input: string): Subject => rawSubject(input, plan.usesFields);
  /**
   * The deciding rule, or `undefined` when the input cannot be read (canonical mode). In raw mode the
   * input goes to the tool's DFA as it is; the subject is only made when the steps must decide.
   */
  const decideRule = (request: ApprovalRequest): FastRule | null | undefined => {
    if (mode === 'raw') {
      return decideToolText(plan, request.toolName, request.input, subjectOfRaw);
    }
    const p = prepareSubject(request.input, mode, plan.usesFields);
    return p.ok ? decideTool(plan, request.toolName, p.subject) : undefined;
  };

  const decide = (request: ApprovalRequest): RuledResult => {
    try {
      checkRequest(request);
      const rule = decideRule(request);
      if (rule === undefined) return { decision: 'deny', reason: CANONICAL_REJECT_REASON, rule: null };
      if (rule === null) return { ...defaultResult, rule: null };
      // The plan hands back the rule objects it was built from: these prepared rules.
      const ref = (rule as PreparedRule).ref;
      if (rule.list === 'deny') return { decision: 'deny', reason, rule: ref };
      return rule.list === 'allow' ? { decision: 'allow', reason: '', rule: ref } : { ...askResult, rule: ref };
    } catch (e) {
      return { decision: 'deny', reason: internalErrorReason(e), rule: null };
    }
  };
  const approve = (request: ApprovalRequest): ApprovalResult => {
    try {
      checkRequest(request);
      const rule = decideRule(request);
      if (rule === undefined) return { decision: 'deny', reason: CANONICAL_REJECT_REASON };
      if (rule === null) return { ...defaultResult };
      if (rule.list === 'deny') return { decision: 'deny', reason };
      return rule.list === 'allow' ? { decision: 'allow', reason: '' } : { ...askApproved };
    } catch (e) {
      return { decision: 'deny', reason: internalErrorReason(e) };
    }
  };

  const explain = (request: ApprovalRequest): Explanation => {
    try {
      checkRequest(request);
      const p = prepareSubject(request.input, mode, plan.usesFields);
      if (!p.ok) {
        return {
          decision: 'deny',
          reason: CANONICAL_REJECT_REASON,
          rule: null,
          by: 'invalid-input',
          match: null,
          alsoMatched: [],
        };
      }
      const subject = p.subject;
      const tool = caseFold(request.toolName);
      const matched: PreparedRule[] = [];
      for (const rule of inOrder) {
        if (rule.foldedTool !== '' && rule.foldedTool !== tool) continue;
        if (ruleMatches(rule, subject)) matched.push(rule);
      }
      const deciding = matched[0];
      const canonical = subject.canonical === undefined ? {} : { canonical: subject.canonical };
      if (deciding === undefined) {
        return { ...defaultResult, rule: null, by: 'default', match: null, alsoMatched: [], ...canonical };
      }
      // Only the deciding rule's span is shown: the others' would cost a search each for nothing.
      const span = matchSpan(deciding, subject);
      return {
        ...resultFor(deciding),
        rule: deciding.ref,
        by: 'rule',
        match: 'omitted' in span ? null : span.match,
        alsoMatched: matched.slice(1).map((m) => m.ref),
        ...canonical,
        ...('omitted' in span ? { spanOmitted: span.omitted } : {}),
      };
    } catch (e) {
      return internalErrorExplanation(e);
    }
  };

  return { approve, decide, explain };
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
function matchSpan(rule: FastRule, subject: Subject): { match: MatchSpan | null } | { omitted: { instructions: number; characters: number } } {
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
  };
}
