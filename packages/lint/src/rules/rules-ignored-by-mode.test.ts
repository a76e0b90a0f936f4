import { describe, expect, it } from 'vitest';
import { lintWithRule, runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-ignored-by-mode.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'default: deny', 'allow:', '  - {tool: read}'),
    y('mode: allow_all'),
    y('approver:', '  mode: deny_all', '  reason: denied for this deployment'),
  ],
  invalid: [
    {
      code: y('approver:', '  mode: " Deny_All "', '  default: allow', '  allow:', '    - {tool: read}'),
      errors: [
        { messageId: 'ignored', line: 3, column: 12, message: 'mode `Deny_All` ignores `default`: every call is denied' },
        { messageId: 'ignored', line: 4, column: 3 },
      ],
    },
    {
      name: 'no mode means allow_all',
      code: y('approver:', '  default: deny', '  deny:', '    - {tool: bash, match: rm}'),
      errors: [
        { messageId: 'noMode', line: 2, column: 12 },
        { messageId: 'noMode', line: 3, column: 3, message: 'without `mode`, the approver allows every call and ignores `deny`' },
      ],
    },
  ],
});

describe('rules/ignored-by-mode with ask rules', () => {
  it('reports an ask list under a mode that ignores it', () => {
    const r = lintWithRule(rule, { code: 'mode: deny_all\nask:\n  - {tool: bash}\n' });
    expect(r.messages.filter((m) => m.ruleId === rule.id).map((m) => m.message)).toEqual(['mode `deny_all` ignores `ask`: every call is denied']);
  });
});
