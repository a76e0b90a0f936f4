/**
 * The per-call decision loop of the pattern approver (semantics.md A3.2, A3.3, A4.3).
 *
 * Interface (kept narrow so it can be optimised without touching the approver):
 * - `buildPlan(rules)` runs once at compile time: it groups the rules of each list by case-folded
 *   tool name (wildcard rules, with an empty tool, are merged into every group in source order).
 * - `decide(plan, foldedTool, subject)` runs per call and returns the deciding rule: the first deny
 *   rule that matches, else the first allow rule that matches, else `null` (the default decides).
 * - `ruleMatches(rule, subject)` is the one definition of "a rule matches"; `decide` must agree with
 *   it (the approver's `explain` uses it rule by rule, and a property test checks they agree).
 *
 * Subjects are prepared by the caller: `text` is already well-formed (see `wellFormed`), so the
 * `*WellFormed` regex entry points can skip that check; field values come decoded from the JSON
 * parser and are well-formed too.
 */
import type { RuleList } from '../ir.ts';
import type { CompiledRegex } from '../regex/regex.ts';

export interface FastRule {
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

export interface FastList {
  /** Candidate rules for each case-folded tool some rule names, wildcard rules included, in order. */
  readonly byTool: ReadonlyMap<string, readonly FastRule[]>;
  /** Candidate rules for any other tool: the wildcard rules only. */
  readonly anyTool: readonly FastRule[];
}

export interface FastPlan {
  readonly deny: FastList;
  readonly allow: FastList;
  /** Whether some rule looks at a field (the caller then provides a field lookup). */
  readonly usesFields: boolean;
}

/** What a decision looks at. */
export interface FastSubject {
  /** The text non-field rules search: the raw input or the canonical text, already well-formed. */
  readonly text: string;
  /**
   * The top-level field whose key case-folds to `foldedKey`: its decoded string value; `undefined`
   * when the key is missing, its value is not a string, or the input is not an object; `null` when
   * the input cannot be read as JSON at all (raw mode only). On `null`, deny field rules match and
   * allow field rules do not: an unreadable input is never let through by a field it lacks.
   */
  field(foldedKey: string): string | undefined | null;
}

export function buildPlan(rules: readonly FastRule[]): FastPlan {
  return {
    deny: buildList(rules.filter((r) => r.list === 'deny')),
    allow: buildList(rules.filter((r) => r.list === 'allow')),
    usesFields: rules.some((r) => r.field !== undefined),
  };
}

function buildList(rules: readonly FastRule[]): FastList {
  const sorted = [...rules].sort((a, b) => a.index - b.index);
  const byTool = new Map<string, FastRule[]>();
  for (const r of sorted) if (r.foldedTool !== '') byTool.set(r.foldedTool, []);
  for (const r of sorted) {
    if (r.foldedTool === '') for (const group of byTool.values()) group.push(r);
    else byTool.get(r.foldedTool)!.push(r);
  }
  return { byTool, anyTool: sorted.filter((r) => r.foldedTool === '') };
}

/** Whether `rule` matches `subject` (its tool has already been checked). */
export function ruleMatches(rule: FastRule, subject: FastSubject): boolean {
  if (rule.field !== undefined) {
    const value = subject.field(rule.field);
    if (value === null) return rule.list === 'deny';
    if (value === undefined) return false;
    return rule.regex === null ? value === '' : rule.regex.testWholeWellFormed(value);
  }
  return rule.regex === null || rule.regex.testWellFormed(subject.text);
}

function firstMatch(list: FastList, foldedTool: string, subject: FastSubject): FastRule | null {
  const candidates = list.byTool.get(foldedTool) ?? list.anyTool;
  for (const rule of candidates) if (ruleMatches(rule, subject)) return rule;
  return null;
}

/**
 * The deciding rule for a call: first matching deny, else first matching allow, else `null`.
 * The caller identifies the returned rule by `list` and `index` only.
 */
export function decide(plan: FastPlan, foldedTool: string, subject: FastSubject): FastRule | null {
  return firstMatch(plan.deny, foldedTool, subject) ?? firstMatch(plan.allow, foldedTool, subject);
}
