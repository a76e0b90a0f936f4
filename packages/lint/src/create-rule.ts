import type { NativeRuleContext, Rule, RuleContext, RuleMeta, RuleVisitor } from './types.ts';
import { EXCERPT_CHARS, excerpt } from '@verdict/engine';

/**
 * Defines a rule. The message ids of `meta.messages` type-check every `report` call, so a rule
 * cannot report text that has no template. A rule whose findings have one safe rewrite sets
 * `meta.fixable: 'code'` and reports the rewrite as data, `fix: {range, text}` (built with
 * `ctx.fixPattern(rule, pattern)`, which writes a pattern in the file's own syntax and quoting); it
 * never edits a file. `verdict lint --fix` applies the fixes and refuses any that would change more
 * than rule patterns.
 */
export function createRule<M extends string>(rule: {
  id: string;
  meta: RuleMeta<M>;
  create(ctx: RuleContext<M>): RuleVisitor | void;
}): Rule<M> {
  if (rule.meta.fixable !== undefined && rule.meta.fixable !== 'code') throw new Error(`rule \`${rule.id}\`: \`meta.fixable\` is 'code' or absent`);
  return Object.freeze({ id: rule.id, meta: rule.meta, create: rule.create });
}

/**
 * Defines a rule of the `native` family: it checks an agent's own permission file
 * (`.claude/settings.json`, `.codex/rules/*.rules`, `.gemini/policies/*.toml`, `.cursor/cli.json`)
 * as `@verdict/native` read it, and sees no policy file.
 */
export function createNativeRule<M extends string>(rule: { id: string; meta: RuleMeta<M>; check(ctx: NativeRuleContext<M>): void }): Rule<M> {
  if (rule.meta.category !== 'native') throw new Error(`rule \`${rule.id}\`: a native rule is of the \`native\` category`);
  if (rule.meta.fixable !== undefined) throw new Error(`rule \`${rule.id}\`: native rules have no fixes`);
  return Object.freeze({ id: rule.id, meta: rule.meta, create: () => undefined, native: rule.check });
}

/** `regex/invalid` → `regex-invalid`: the rule's source, test and docs file base name. */
export function ruleFileName(id: string): string {
  return id.replace(/\//g, '-');
}

/** Fills `{{name}}` placeholders; an unknown name is left as written so mistakes stay visible. */
export function interpolate(template: string, data: Readonly<Record<string, unknown>> | undefined): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) => {
    if (data === undefined || !Object.hasOwn(data, name)) return whole;
    // Every value a message quotes (a pattern, a reason, a witness) is shortened in this one place.
    return excerpt(String(data[name]), INTERPOLATED_CHARS);
  });
}

/** Longest value a rule message quotes whole; rules quote patterns and witnesses, so a little over `EXCERPT_CHARS`. */
const INTERPOLATED_CHARS = 2 * EXCERPT_CHARS;
