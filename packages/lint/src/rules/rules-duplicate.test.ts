import { describe, expect, it } from 'vitest';
import { lintWithRule, runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-duplicate.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'allow:', '  - {tool: bash, match: "ls"}', '  - {tool: bash, match: "pwd"}'),
    { name: 'same rule in different lists', code: y('mode: pattern', 'allow:', '  - {tool: bash, match: "ls"}', 'deny:', '  - {tool: bash, match: "ls"}') },
    { name: 'field differs', code: y('mode: pattern', 'allow:', '  - {tool: bash, match: "ls"}', '  - {tool: bash, field: command, match: "ls"}') },
  ],
  invalid: [
    {
      code: y('mode: pattern', 'allow:', '  - {tool: bash, match: "ls"}', '  - {tool: read}', '  - {tool: Bash, match: "ls"}'),
      errors: [{ messageId: 'duplicate', line: 5, column: 5, message: 'this rule repeats `allow[0]`: same tool, pattern and field' }],
    },
  ],
});

describe('rules/duplicate related location', () => {
  it('points at the first rule', () => {
    const r = lintWithRule(rule, { code: y('mode: pattern', 'deny:', '  - {tool: bash, match: "x"}', '  - {tool: bash, match: "x"}') });
    expect(r.messages[0]?.related?.map((x) => [x.message, x.span?.start.line, x.span?.start.column])).toEqual([['first written here', 3, 5]]);
  });
});

describe('rules/duplicate outside pattern mode', () => {
  it('says nothing: the rules are ignored (rules/ignored-by-mode says so)', () => {
    const r = lintWithRule(rule, { code: y('mode: allow_all', 'deny:', '  - {tool: bash, match: "x"}', '  - {tool: bash, match: "x"}') });
    expect(r.messages).toEqual([]);
  });
});

describe('rules/duplicate with ask rules', () => {
  it('reports a repeated ask rule, not an ask rule that repeats an allow rule', () => {
    const code = 'mode: pattern\nallow:\n  - {tool: bash, match: push}\nask:\n  - {tool: bash, match: push}\n  - {tool: BASH, match: push}\n';
    const r = lintWithRule(rule, { code });
    expect(r.messages.filter((m) => m.ruleId === rule.id).map((m) => [m.span?.start.line, m.message])).toEqual([[6, 'this rule repeats `ask[0]`: same tool, pattern and field']]);
  });
});
