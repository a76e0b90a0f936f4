import { describe, expect, it } from 'vitest';
import { lintWithRule, runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './tests-failing.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const approver = [
  'approver:',
  '  mode: pattern',
  '  default: deny',
  '  reason: only git status and reads are allowed',
  '  allow:',
  '    - {tool: read}',
  '    - {tool: bash, field: command, match: "git status"}',
  '  deny:',
  '    - {tool: bash, match: sudo}',
];

runRuleTests(rule, {
  valid: [
    y(
      ...approver,
      'tests:',
      '  - {tool: bash, input: {command: "git status"}, expect: allow, rule: "allow[1]"}',
      '  - {tool: bash, input: {command: "sudo ls"}, expect: deny, reason: only git status and reads are allowed}',
      '  - {tool: write, input: {path: /x}, expect: deny, rule: default}',
    ),
    { name: 'an approver that does not load is the compiler’s to report', code: y('approver:', '  mode: pattern', '  allow:', '    - {match: "("}', 'tests:', '  - {tool: bash, input: {}, expect: allow}') },
  ],
  invalid: [
    {
      code: y(...approver, 'tests:', '  - {tool: bash, input: {command: "git status; rm -rf /"}, expect: allow}'),
      errors: [
        {
          messageId: 'decision',
          line: 11,
          column: 5,
          message: 'expected `allow` for `bash` `{"command":"git status; rm -rf /"}`, but the approver decides `deny`',
          help: 'decided by the default; run `verdict explain` with this input to see every rule that matched',
        },
      ],
    },
    {
      code: y(...approver, 'tests:', '  - {tool: bash, input: {command: sudo}, expect: deny, reason: nope}'),
      errors: [{ messageId: 'reason', line: 11, column: 5 }],
    },
    {
      code: y(...approver, 'tests:', '  - {tool: read, input: {}, expect: allow, rule: "allow[1]"}'),
      errors: [{ messageId: 'rule', line: 11, column: 5, message: 'expected `allow[1]` to decide `read` `{}`, but `allow[0]` does' }],
    },
  ],
});

describe('tests/failing with ask rules', () => {
  it('checks `expect: ask` and `rule: ask[N]` against the approver', () => {
    const code = y(
      'approver:',
      '  mode: pattern',
      '  allow:',
      '    - {tool: bash}',
      '  ask:',
      '    - {tool: bash, match: push}',
      'tests:',
      "  - {tool: bash, input: '{\"command\":\"git push\"}', expect: ask, rule: 'ask[0]'}",
      "  - {tool: bash, input: '{\"command\":\"git push\"}', expect: allow}",
      "  - {tool: bash, input: '{\"command\":\"ls\"}', expect: ask}",
    );
    const r = lintWithRule(rule, { code });
    expect(r.messages.filter((m) => m.ruleId === rule.id).map((m) => [m.span?.start.line, m.message])).toEqual([
      [9, 'expected `allow` for `bash` `{"command":"git push"}`, but the approver decides `ask`'],
      [10, 'expected `ask` for `bash` `{"command":"ls"}`, but the approver decides `allow`'],
    ]);
  });
});

describe('tests/failing judges a test as `verdict test` does (one checker)', () => {
  it('`rule: default` expects the default, not the mode of an allow-all or deny-all approver', () => {
    const code = y('approver:', '  mode: deny_all', '  reason: nothing runs here', 'tests:', '  - {tool: bash, input: {}, expect: deny, rule: default}');
    const r = lintWithRule(rule, { code });
    expect(r.messages.filter((m) => m.ruleId === rule.id).map((m) => [m.span?.start.line, m.message])).toEqual([
      [5, 'expected `default` to decide `bash` `{}`, but `mode` does'],
    ]);
  });
});
