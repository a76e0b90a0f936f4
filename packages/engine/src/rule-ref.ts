/**
 * How messages name a rule and a place, in one place: `allow[2]`, `p.yaml:5:7`, and the two ways a
 * rule's place follows its name (`allow[2] at p.yaml:5:7` in prose, `allow[2] (p.yaml:5:7)` in lists).
 */
import type { Span } from './diagnostics.ts';
import type { RuleList } from './ir.ts';

/** A rule by its list and index; `null` (no rule decided) reads `default`. */
export function ruleLabel(rule: { list: RuleList | string; index: number } | null): string {
  return rule === null ? 'default' : `${rule.list}[${rule.index}]`;
}

/** Where a span starts, as editors open it: `file:line:column`. */
export function spanText(span: Pick<Span, 'file' | 'start'>): string {
  return `${span.file}:${span.start.line}:${span.start.column}`;
}

/**
 * A rule and where it is written: `allow[2] at p.yaml:5:7` (`form: 'at'`, the default) or
 * `allow[2] (p.yaml:5:7)` (`form: 'parens'`); the name alone when there is no span. `detail` goes
 * between the name and the place (`deny[0] \`rm\` (p.yaml:5:7)`).
 */
export function ruleWhere(
  rule: { list: RuleList | string; index: number; span?: Pick<Span, 'file' | 'start'> | undefined },
  form: 'at' | 'parens' = 'at',
  detail?: string,
): string {
  const name = detail === undefined ? ruleLabel(rule) : `${ruleLabel(rule)} ${detail}`;
  if (rule.span === undefined) return name;
  return form === 'at' ? `${name} at ${spanText(rule.span)}` : `${name} (${spanText(rule.span)})`;
}
