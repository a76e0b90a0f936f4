import { describe, expect, it } from 'vitest';
import { lintWithRule, runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './analysis-overlap.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    {
      name: 'field rules with values that exclude each other',
      code: y('mode: pattern', 'input: canonical', 'allow:', "  - {tool: bash, field: command, match: 'ls|pwd'}", 'deny:', "  - {tool: bash, field: command, match: 'rm.*'}"),
    },
    { name: 'different tools', code: y('mode: pattern', 'allow:', "  - {tool: read, match: 'x'}", 'deny:', "  - {tool: bash, match: 'x'}") },
    { name: 'exclusive values', code: y('mode: pattern', 'allow:', "  - {tool: bash, match: '^\\{\"command\":\"ls\"\\}$'}", 'deny:', "  - {tool: bash, match: 'rm'}") },
  ],
  invalid: [
    {
      name: 'a deny rule carving out of an allow rule',
      code: y('mode: pattern', 'allow:', "  - {tool: bash, match: '\"command\":\"git '}", 'deny:', "  - {tool: bash, match: '--force'}"),
      errors: [
        {
          messageId: 'overlap',
          line: 3,
          column: 25,
          message: 'this allow rule and deny rule `--force` (deny[0]) both match `bash` with input `{"command":"git --force"}`; the deny rule wins',
        },
      ],
    },
  ],
});

describe('analysis/overlap related locations', () => {
  it('points at the deny rule', () => {
    const code = y('mode: pattern', 'allow:', "  - {tool: bash, match: 'git'}", 'deny:', "  - {tool: bash, match: 'push'}");
    const [m] = lintWithRule(rule, { code }).messages.filter((x) => x.ruleId === rule.id);
    // messageId 'denyRule'
    expect(m?.related?.map((r) => `${r.span?.start.line}:${r.span?.start.column} ${r.message}`)).toEqual(['5:5 the deny rule that wins']);
  });
});

describe('analysis/overlap with ask rules (deny > ask > allow)', () => {
  runRuleTests(rule, {
    valid: [{ name: 'an ask rule of another tool', code: y('mode: pattern', 'allow:', "  - {tool: bash, match: 'x'}", 'ask:', "  - {tool: read, match: 'x'}") }],
    invalid: [
      {
        name: 'an ask rule carving out of an allow rule',
        code: y('mode: pattern', 'allow:', "  - {tool: bash, match: '\"command\":\"git '}", 'ask:', "  - {tool: bash, match: 'push'}"),
        errors: [
          {
            messageId: 'overlapAsk',
            line: 3,
            column: 25,
            message: 'this allow rule and ask rule `push` (ask[0]) both match `bash` with input `{"command":"git push"}`; the ask rule wins',
          },
        ],
      },
      {
        name: 'a deny rule carving out of an ask rule',
        code: y('mode: pattern', 'ask:', "  - {tool: bash, match: 'git push'}", 'deny:', "  - {tool: bash, match: '--force'}"),
        errors: [{ messageId: 'overlapAsk', line: 3, column: 25, message: 'this ask rule and deny rule `--force` (deny[0]) both match `bash` with input `{"git push--force":0}`; the deny rule wins' }],
      },
    ],
  });

  it('points at the ask rule that wins', () => {
    const code = y('mode: pattern', 'allow:', "  - {tool: bash, match: 'git'}", 'ask:', "  - {tool: bash, match: 'push'}");
    const [m] = lintWithRule(rule, { code }).messages.filter((x) => x.ruleId === rule.id);
    // messageId 'askRule'
    expect(m?.related?.map((r) => `${r.span?.start.line}:${r.span?.start.column} ${r.message}`)).toEqual(['5:5 the ask rule that wins']);
  });
});
