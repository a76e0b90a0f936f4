/**
 * The engine's `CommandJudge` over this package: what the CLI and the compiler pass to
 * `compileApprover` so that a policy's command rules decide.
 */
import { type CommandJudge, type CommandJudgeFactory, type CommandRuleSet, ruleLabel } from '@verdict/engine';
import { compileEngineRules } from './engine-rules.ts';
import { judge, show } from './judge.ts';

/** Compiles one shell tool's command rules into a judge; rule indices are the policy's. */
export const commandJudgeFactory: CommandJudgeFactory = (set: CommandRuleSet) => {
  const compiled = compileEngineRules(set);
  if (!compiled.ok) return { error: compiled.error, ...(compiled.rule ? { rule: compiled.rule } : {}) };
  const { rules, byList } = compiled;
  const judgeText: CommandJudge['judge'] = (text) => {
    const j = judge(rules, text);
    const rule = j.rule === undefined ? undefined : byList[j.rule.list][j.rule.index];
    // The package's reasons name rules by their place among command rules: name the policy's.
    const reason =
      rule === undefined || j.rule === undefined
        ? j.reason
        : j.reason.split(`${j.rule.list} rule ${j.rule.index + 1} `).join(`rule ${ruleLabel(rule)} `);
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
