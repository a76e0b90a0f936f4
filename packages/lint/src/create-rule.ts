import type { Rule, RuleContext, RuleMeta, RuleVisitor } from './types.ts';

/**
 * Defines a rule. The message ids of `meta.messages` type-check every `report` call, so a rule
 * cannot report text that has no template.
 */
export function createRule<M extends string>(rule: {
  id: string;
  meta: RuleMeta<M>;
  create(ctx: RuleContext<M>): RuleVisitor | void;
}): Rule<M> {
  return Object.freeze({ id: rule.id, meta: rule.meta, create: rule.create });
}

/** `regex/invalid` → `regex-invalid`: the rule's source, test and docs file base name. */
export function ruleFileName(id: string): string {
  return id.replace(/\//g, '-');
}

/** Fills `{{name}}` placeholders; an unknown name is left as written so mistakes stay visible. */
export function interpolate(template: string, data: Readonly<Record<string, unknown>> | undefined): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) => {
    if (data === undefined || !Object.hasOwn(data, name)) return whole;
    return String(data[name]);
  });
}
