import { describe, expect, it } from 'vitest';
import { lintWithRule, runRuleTests } from '../../test/support/rule-tester.ts';
import { lintSource } from '../runner.ts';
import rule from './analysis-shadowed-rule.ts';
import { allRules } from './index.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'allow:', "  - {tool: bash, match: '\"command\":\"git '}", 'deny:', "  - {tool: bash, match: '--force'}"),
    {
      name: 'a deny rule of another tool',
      code: y('mode: pattern', 'allow:', "  - {tool: write, match: '\"path\":\"/etc/'}", 'deny:', "  - {tool: edit, match: '\"path\":\"/etc/'}"),
    },
    {
      name: 'a tool-less allow rule still allows other tools',
      code: y('mode: pattern', 'allow:', "  - {match: '\"path\"'}", 'deny:', "  - {tool: bash, match: '.*'}"),
    },
  ],
  invalid: [
    {
      name: 'a time budget spent says so once, at the approver',
      options: { budgetMs: 0 },
      code: 'mode: pattern\nallow:\n  - {tool: bash, match: "ls"}\ndeny:\n  - {tool: bash, match: "ls -la"}\n',
      errors: [{ messageId: 'budget', line: 1, column: 1, message: 'the static analysis stopped at its time limit (0 ms of CPU time): 1 of 1 allow rules were not checked whether deny rules shadow them' }],
    },
    {
      name: 'every sudo command is denied',
      code: y('mode: pattern', 'allow:', "  - {tool: bash, match: '\"command\":\"sudo [^\"]*\"'}", 'deny:', "  - {tool: BASH, match: 'sudo'}"),
      errors: [
        {
          messageId: 'shadowed',
          line: 3,
          column: 25,
          message: 'this allow rule never allows anything: every call it matches is also matched by `sudo` (deny[0]), and deny wins',
        },
      ],
    },
    {
      name: 'covered by a tool-less deny rule',
      code: y('mode: pattern', 'allow:', "  - {tool: bash, match: 'rm -rf /tmp'}", 'deny:', "  - {tool: bash, match: 'curl'}", "  - {match: 'rm\\s+-rf'}"),
      errors: [{ messageId: 'shadowed', line: 3, column: 25, message: 'this allow rule never allows anything: every call it matches is also matched by `rm\\s+-rf` (deny[1]), and deny wins' }],
    },
    {
      name: 'covered by two deny rules together',
      code: y('mode: pattern', 'allow:', "  - {tool: bash, match: '\"command\":\"(ls|cat) '}", 'deny:', "  - {tool: bash, match: '\"command\":\"ls'}", "  - {tool: bash, match: '\"command\":\"cat'}"),
      errors: [{ messageId: 'shadowed', line: 3, column: 25 }],
    },
  ],
});

describe('analysis/shadowed-rule related locations', () => {
  it('points at each covering deny rule', () => {
    const code = y('mode: pattern', 'allow:', "  - {tool: bash, match: 'sudo -i'}", 'deny:', "  - {tool: bash, match: 'sudo'}");
    const [m] = lintWithRule(rule, { code }).messages.filter((x) => x.ruleId === rule.id);
    expect(m?.help).toBe('for example `bash` with input `{"sudo -i":0}` is denied; narrow the deny rule or delete this allow rule');
    // messageId 'coveredBy'
    expect(m?.related?.map((r) => `${r.span?.start.line}:${r.span?.start.column} ${r.message}`)).toEqual(['5:5 deny rule that covers `sudo -i`']);
  });
});

describe('analysis/shadowed-rule and rules/unreachable', () => {
  it('leaves a catch-all deny rule to rules/unreachable when that rule is on', () => {
    const code = y('mode: pattern', 'allow:', "  - {tool: read, match: '\"path\"'}", 'deny:', "  - {tool: read, match: '.*'}");
    const result = lintSource(code, 'policy.yaml', {
      rules: [...allRules.filter((r) => r.id !== rule.id), rule],
      only: [rule.id, 'rules/unreachable'],
      config: { rules: { [rule.id]: { severity: 'warning' }, 'rules/unreachable': { severity: 'warning' } }, categories: {}, include: [], ignore: [] },
    });
    expect(result.messages.map((m) => m.ruleId)).toEqual(['rules/unreachable']);
  });

  it('reports it itself when rules/unreachable is off', () => {
    const code = y('mode: pattern', 'allow:', "  - {tool: read, match: '\"path\"'}", 'deny:', "  - {tool: read, match: '.*'}");
    const result = lintSource(code, 'policy.yaml', {
      rules: [...allRules.filter((r) => r.id !== rule.id), rule],
      only: [rule.id],
      config: { rules: { [rule.id]: { severity: 'warning' }, 'rules/unreachable': { severity: 'off' } }, categories: {}, include: [], ignore: [] },
    });
    expect(result.messages.map((m) => `${m.ruleId} ${m.span?.start.line}:${m.span?.start.column}`)).toEqual(['analysis/shadowed-rule 3:25']);
  });
});

describe('analysis/shadowed-rule with ask rules (deny > ask > allow)', () => {
  runRuleTests(rule, {
    valid: [
      { name: 'an allow rule partly asked about', code: y('mode: pattern', 'allow:', "  - {tool: bash, match: 'git '}", 'ask:', "  - {tool: bash, match: 'git push'}") },
      { name: 'an ask rule partly denied', code: y('mode: pattern', 'ask:', "  - {tool: bash, match: 'git push'}", 'deny:', "  - {tool: bash, match: '--force'}") },
    ],
    invalid: [
      {
        name: 'an allow rule every call of which an ask rule asks about',
        code: y('mode: pattern', 'allow:', "  - {tool: bash, match: 'git push origin'}", 'ask:', "  - {tool: bash, match: 'git push'}"),
        errors: [
          {
            messageId: 'shadowedByAsk',
            line: 3,
            column: 25,
            message: 'this allow rule never allows anything: every call it matches is also matched by `git push` (ask[0]), and deny and ask win over allow',
          },
        ],
      },
      {
        name: 'an ask rule every call of which is denied',
        code: y('mode: pattern', 'ask:', "  - {tool: bash, match: 'sudo rm'}", 'deny:', "  - {tool: bash, match: 'sudo'}"),
        errors: [
          { messageId: 'shadowedAsk', line: 3, column: 25, message: 'this ask rule never asks: every call it matches is also matched by `sudo` (deny[0]), and deny wins over ask' },
        ],
      },
      {
        name: 'an allow rule covered by a deny rule and an ask rule together',
        code: y(
          'mode: pattern',
          'allow:',
          "  - {tool: bash, match: 'git (push|reset)'}",
          'ask:',
          "  - {tool: bash, match: 'git push'}",
          'deny:',
          "  - {tool: bash, match: 'git reset'}",
        ),
        errors: [{ messageId: 'shadowedByAsk', line: 3, column: 25 }],
      },
    ],
  });

  it('names the covering ask rule and shows a call the ask rule decides', () => {
    const r = lintWithRule(rule, { code: y('mode: pattern', 'allow:', "  - {tool: bash, match: 'git push origin'}", 'ask:', "  - {tool: bash, match: 'git push'}") });
    expect(r.messages[0]?.help).toMatch(/^for example `bash` with input `.*git push origin.*` is asked about; narrow those rules or delete this allow rule$/);
    expect(r.messages[0]?.related?.map((x) => [x.message, x.span?.start.line])).toEqual([['ask rule that covers `git push origin`', 5]]);
  });
});
