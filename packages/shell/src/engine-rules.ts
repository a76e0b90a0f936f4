/**
 * A shell tool's command rules as the engine hands them over (`CommandRuleSet`), compiled by this
 * package without the judge, and a factory that only checks them: for a program that must know a
 * policy loads but decides no shell command in this process (`verdict hook` on a call to a tool that
 * carries none), so that it need not load the shell parser.
 */
import type { CommandJudgeFactory, CommandRuleSet, CommandRuleSpec } from '@verdict/engine';
import { compileCommandRules, type CommandRule, type CompiledCommandRules, type RuleList } from './rules.ts';
import { UNJUDGED } from './unjudged.ts';

export type EngineRules =
  | { ok: true; rules: CompiledCommandRules; byList: Readonly<Record<RuleList, readonly CommandRuleSpec[]>> }
  | { ok: false; error: string; rule?: { list: RuleList; index: number } };

/** Compiles one shell tool's rules; `byList` maps the package's per-list positions to the policy's rules. */
export function compileEngineRules(set: CommandRuleSet): EngineRules {
  // The package numbers rules by position in each list: keep the policy's index beside it.
  const byList: Record<RuleList, CommandRuleSpec[]> = { allow: [], ask: [], deny: [] };
  for (const r of set.rules) byList[r.list].push(r);
  const toRule = (r: CommandRuleSpec): CommandRule => ({
    ...(r.command !== undefined ? { command: r.command } : {}),
    ...(r.args !== undefined ? { args: r.args } : {}),
    ...(r.redirect !== undefined ? { redirect: r.redirect } : {}),
  });
  const compiled = compileCommandRules({
    allow: byList.allow.map(toRule),
    ask: byList.ask.map(toRule),
    deny: byList.deny.map(toRule),
    unknown: set.unknown,
    wrappers: set.wrappers,
    ...(set.environment !== undefined ? { environment: set.environment } : {}),
    ...(set.shells !== undefined ? { shells: set.shells } : {}),
  });
  if (!compiled.ok) {
    const e = compiled.errors[0]!;
    if (e.key === 'environment') return { ok: false, error: `environment: ${e.message}` };
    if (e.key === 'shells') return { ok: false, error: `shells: ${e.message}` };
    const at = byList[e.list][e.index]!;
    return { ok: false, error: e.message, rule: { list: at.list, index: at.index } };
  }
  return { ok: true, rules: compiled.rules, byList };
}

/**
 * Checks command rules exactly as `commandJudgeFactory` does (the same errors), and builds a judge
 * that judges nothing: it denies every text. Only for a program that will not ask it (the engine
 * asks a judge only for a call to a shell tool); if it is asked all the same, the call is denied.
 */
export const commandRuleChecker: CommandJudgeFactory = (set) => {
  const c = compileEngineRules(set);
  if (!c.ok) return { error: c.error, ...(c.rule ? { rule: c.rule } : {}) };
  return UNJUDGED;
};
