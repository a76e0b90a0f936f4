import { describe, expect, it } from 'vitest';
import { lintWithRule, runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-escape-evasion.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    { name: 'canonical input decodes escapes', code: y('mode: pattern', 'input: canonical', 'deny:', '  - {tool: bash, match: "rm -rf"}') },
    { name: 'field rules decode the value', code: y('mode: pattern', 'deny:', '  - {tool: bash, field: command, match: "rm -rf.*"}') },
    { name: 'a tool-only deny rule has nothing to evade', code: y('mode: pattern', 'deny:', '  - {tool: bash}') },
  ],
  invalid: [
    {
      code: y('mode: pattern', 'default: allow', 'deny:', '  - {tool: bash, match: "rm -rf"}'),
      errors: [
        {
          messageId: 'evaded',
          line: 4,
          column: 25,
          message:
            'this deny rule misses the same input written with JSON escapes, e.g. `{"command":"\\u0072m -\\u0072f"}`: raw input is matched as the model wrote it',
        },
      ],
    },
    {
      name: 'slashes',
      code: y('mode: pattern', 'deny:', "  - {tool: write, match: '\"path\":\"/(etc|root|var|usr)/'}"),
      errors: [{ messageId: 'evaded', line: 3, column: 26 }],
    },
  ],
});

describe('rules/escape-evasion with ask rules', () => {
  it('reports an ask rule in raw mode (a call that gets past it is allowed without asking), not an allow rule', () => {
    const code = 'mode: pattern\nask:\n  - {tool: bash, match: "git push"}\nallow:\n  - {tool: bash, match: "git push"}\n';
    const r = lintWithRule(rule, { code });
    expect(r.messages.filter((m) => m.ruleId === rule.id).map((m) => [m.span?.start.line, m.message])).toEqual([
      [3, 'this ask rule misses the same input written with JSON escapes, e.g. `{"command":"\\u0067it \\u0070ush"}`: raw input is matched as the model wrote it'],
    ]);
  });
});
