/**
 * The decision of the pattern approver, written from the semantics alone (docs/semantics.md A3, A4,
 * A6): slow and obvious, with no shortcut. It is what `explain` runs, and what every property test
 * of the fast path (`decide.ts` and the `fast*.ts` files under it) compares against.
 *
 * - A rule applies to a call when its tool is empty or equal to the call's tool under simple case
 *   folding (A3.2), and its pattern matches (`matches`).
 * - The lists are tried in `LIST_ORDER`: deny, then ask, then allow, each in list order; the first
 *   rule that applies decides, else the default (A3.3, A6.1). `decisionOf` says what each answer
 *   decides; nothing else in the engine writes that order out.
 * - The input is read per A3.5 (raw: the text as sent, lone surrogates read as U+FFFD) or A4.1
 *   (canonical: refused, or the canonical text). A field rule reads a top-level string member
 *   (A4.3); on raw input that cannot be read as JSON, deny and ask field rules match and allow field
 *   rules do not (A6.3: fail closed).
 */
import { parseCanonical, parseStrictJson, topLevelMember } from '../canonical/canonical.ts';
import type { JsonValue } from '../canonical/canonical.ts';
import { caseFold } from '../canonical/casefold.ts';
import type { Decision, InputMode, RuleIR, RuleList } from '../ir.ts';
import { wellFormed } from '../regex/regex.ts';
import type { CompiledRegex } from '../regex/regex.ts';
import { compileRuleRegex } from './rule-regex.ts';
import type { ApprovalRequest, RuledDecisionResult } from './types.ts';

/** A compiled rule: what deciding a call looks at. */
export interface Rule {
  readonly list: RuleList;
  /** Position in its list as written. */
  readonly index: number;
  /** `caseFold(tool)`; `""` matches every tool. */
  readonly foldedTool: string;
  /**
   * Non-field rules: searched (unanchored) in `subject.text`; `null` (empty match) matches anything.
   * Field rules: must match the whole field value (`^(?:match)$`); never `null` for field rules.
   */
  readonly regex: CompiledRegex | null;
  /** `caseFold(field)` for a field rule, else `undefined`. */
  readonly field: string | undefined;
}

/** What a decision looks at. */
export interface Subject {
  /** The text non-field rules search: the raw input or the canonical text, already well-formed. */
  readonly text: string;
  /**
   * The top-level field whose key case-folds to `foldedKey`: its decoded string value; `undefined`
   * when the key is missing, its value is not a string, or the input is not an object; `null` when
   * the input cannot be read as JSON at all (raw mode only).
   */
  field(foldedKey: string): string | undefined | null;
}

/** A read input: the subject, which text spans index, and the canonical text in canonical mode. */
export interface InputSubject extends Subject {
  readonly subjectKind: 'raw' | 'canonical';
  /** The text match spans index (the raw input, or the canonical text). */
  readonly original: string;
  readonly canonical: string | undefined;
}

/** The order the lists are tried in (A3.3, A6.1): the first rule that applies decides. */
export const LIST_ORDER: readonly RuleList[] = ['deny', 'ask', 'allow'];

/** The field lookup of a parsed input (`null`: it could not be parsed). */
export function fieldLookup(value: JsonValue | null): (foldedKey: string) => string | undefined | null {
  return (foldedKey) => {
    if (value === null) return null;
    const member = topLevelMember(value, foldedKey);
    return member?.kind === 'string' ? member.value : undefined;
  };
}

/**
 * The input as rules see it (A3.5, A4.1, A4.2), or `null` when canonical mode refuses it. In raw
 * mode the input is parsed for field rules only, on the first field looked up.
 */
export function readInput(input: string, mode: InputMode): InputSubject | null {
  if (mode === 'canonical') {
    const parsed = parseCanonical(input);
    if (!parsed.ok) return null;
    return { subjectKind: 'canonical', text: parsed.text, original: parsed.text, canonical: parsed.text, field: fieldLookup(parsed.value) };
  }
  let lookup: ((foldedKey: string) => string | undefined | null) | undefined;
  const field = (foldedKey: string): string | undefined | null => {
    if (lookup === undefined) {
      const parsed = parseStrictJson(input);
      lookup = fieldLookup(parsed.ok ? parsed.value : null);
    }
    return lookup(foldedKey);
  };
  return { subjectKind: 'raw', text: wellFormed(input), original: input, canonical: undefined, field };
}

/** Whether `rule` applies to a tool whose case-folded name is `foldedTool` (A3.2). */
export function appliesToTool(rule: Rule, foldedTool: string): boolean {
  return rule.foldedTool === '' || rule.foldedTool === foldedTool;
}

/** Whether `rule`'s pattern matches `subject` (its tool aside): A3.2, A4.3, A6.3. */
export function matches(rule: Rule, subject: Subject): boolean {
  if (rule.field !== undefined) {
    const value = subject.field(rule.field);
    if (value === null) return rule.list !== 'allow';
    if (value === undefined) return false;
    return rule.regex === null ? value === '' : rule.regex.testWholeWellFormed(value);
  }
  return rule.regex === null || rule.regex.testWellFormed(subject.text);
}

/** Every rule that applies to the call, in the order tried: deny, ask, allow, each in list order. */
export function matchingRules(rules: readonly Rule[], toolName: string, subject: Subject): Rule[] {
  const tool = caseFold(toolName);
  const out: Rule[] = [];
  for (const list of LIST_ORDER) {
    const inList = rules.filter((r) => r.list === list).sort((a, b) => a.index - b.index);
    for (const r of inList) if (appliesToTool(r, tool) && matches(r, subject)) out.push(r);
  }
  return out;
}

/** The deciding rule: the first that applies in `LIST_ORDER`, or `null` (the default decides). */
export function decidingRule(rules: readonly Rule[], toolName: string, subject: Subject): Rule | null {
  return matchingRules(rules, toolName, subject)[0] ?? null;
}

/** The reason of an allow (`""`), and of an ask decision (A6.2). */
export const ALLOW_REASON = '';
export const DEFAULT_ASK_REASON = 'confirmation required by pattern policy';

/**
 * What a deciding rule's list decides (`null`: the default): a deny rule denies with the deny
 * reason, an ask rule asks, an allow rule allows; the default allows or denies with the deny reason.
 */
export function decisionOf(list: RuleList | null, defaultDecision: Decision, denyReason: string): RuledDecisionResult {
  const decision = list ?? defaultDecision;
  if (decision === 'deny') return { decision, reason: denyReason };
  return decision === 'ask' ? { decision, reason: DEFAULT_ASK_REASON } : { decision, reason: ALLOW_REASON };
}

// ---- the public oracle ---------------------------------------------------------------------------

/** A rule with the list it sits in and the input mode of its approver (`raw` when absent). */
export interface RuleInContext extends Pick<RuleIR, 'tool' | 'match' | 'field'> {
  list: RuleList;
  input?: InputMode;
}

/**
 * Whether `rule` applies to `call`, exactly as the pattern approver decides it (semantics.md A3.2,
 * A4, A6.3): its tool, its pattern, its field, its list (a deny or ask field rule matches raw input
 * that is not JSON; an allow one does not). `undefined` when no rule is tried at all: canonical mode
 * refuses the input (A4.1), or the pattern does not compile (A3.6).
 */
export function ruleMatches(rule: RuleInContext, call: Pick<ApprovalRequest, 'toolName' | 'input'>): boolean | undefined {
  const compiled = compileRuleRegex(rule.match, rule.field);
  if (compiled !== null && !compiled.ok) return undefined;
  const subject = readInput(call.input, rule.input ?? 'raw');
  if (subject === null) return undefined;
  const r: Rule = {
    list: rule.list,
    index: 0,
    foldedTool: caseFold(rule.tool),
    regex: compiled === null ? null : compiled.regex,
    field: rule.field === undefined ? undefined : caseFold(rule.field),
  };
  return appliesToTool(r, caseFold(call.toolName)) && matches(r, subject);
}
