/**
 * The engine's `CommandJudge` over this package: what the CLI and the compiler pass to
 * `compileApprover` so that a policy's command rules decide.
 */
import type { CommandJudge, CommandJudgeFactory, CommandRuleSet, CommandRuleSpec } from '@verdict/engine';
import { compileCommandRules, judge, show, type CommandRule, type RuleList } from './judge.ts';

/** Compiles one shell tool's command rules into a judge; rule indices are the policy's. */
export const commandJudgeFactory: CommandJudgeFactory = (set: CommandRuleSet) => {
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
  });
  if (!compiled.ok) {
    const e = compiled.errors[0]!;
    const at = byList[e.list][e.index]!;
    return { error: e.message, rule: { list: at.list, index: at.index } };
  }
  const rules = compiled.rules;
  const judgeText: CommandJudge['judge'] = (text) => {
    const j = judge(rules, text);
    const rule = j.rule === undefined ? undefined : byList[j.rule.list][j.rule.index];
    // The package's reasons name rules by their place among command rules: name the policy's.
    const reason =
      rule === undefined || j.rule === undefined
        ? j.reason
        : j.reason.split(`${j.rule.list} rule ${j.rule.index + 1} `).join(`rule ${rule.list}[${rule.index}] `);
    return {
      decision: j.decision,
      reason,
      ...(rule !== undefined ? { rule: { list: rule.list, index: rule.index } } : {}),
      ...(j.command !== undefined ? { command: show(j.command) } : {}),
      ...(j.span !== undefined ? { span: { start: j.span.start, end: j.span.end } } : {}),
    };
  };
  return { judge: judgeText };
};
