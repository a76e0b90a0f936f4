import { describe, expect, it } from 'vitest';
import { lintWithRule, runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-unreachable.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'allow:', '  - {tool: bash, match: "ls"}', '  - {tool: bash, match: ".*"}'),
    { name: 'catch-all of another tool', code: y('mode: pattern', 'allow:', '  - {tool: read, match: ".*"}', '  - {tool: bash, match: "ls"}') },
    { name: 'anchored at both ends is not a catch-all', code: y('mode: pattern', 'allow:', "  - {tool: bash, match: '^.*$'}", '  - {tool: bash, match: "ls"}') },
    { name: 'a field rule is not a catch-all', code: y('mode: pattern', 'allow:', '  - {tool: bash, field: command, match: ".*"}', '  - {tool: bash, match: "ls"}') },
  ],
  invalid: [
    {
      code: y('mode: pattern', 'allow:', '  - {tool: read, match: ".*"}', '  - {tool: READ, match: "/etc"}'),
      errors: [{ messageId: 'afterCatchAll', line: 4, column: 5, message: 'this rule never decides: `allow[0]` before it matches every `read` call' }],
    },
    {
      name: 'tool-less catch-all shadows every later rule',
      code: y('mode: pattern', 'deny:', '  - {}', '  - {tool: bash, match: "sudo"}'),
      errors: [{ messageId: 'afterCatchAll', line: 4, column: 5 }],
    },
    {
      name: 'a deny catch-all shadows allow rules',
      code: y('mode: pattern', 'allow:', '  - {tool: bash, match: "ls"}', 'deny:', "  - {tool: bash, match: '(?s).*'}"),
      errors: [{ messageId: 'shadowedByDeny', line: 3, column: 5, message: 'this allow rule never applies: `deny[0]` denies every `bash` call, and deny wins over allow' }],
    },
    {
      name: '^ alone and empty match',
      code: y('mode: pattern', 'allow:', "  - {tool: bash, match: '^'}", '  - {tool: bash, match: "x"}', '  - {tool: bash}'),
      errors: [
        { messageId: 'afterCatchAll', line: 4, column: 5 },
        { messageId: 'afterCatchAll', line: 5, column: 5 },
      ],
    },
  ],
});


describe('rules/unreachable related location', () => {
  it('points at the catch-all', () => {
    const r = lintWithRule(rule, { code: y('mode: pattern', 'allow:', '  - {tool: read}', '  - {tool: read, match: x}') });
    expect(r.messages[0]?.related?.map((x) => [x.message, x.span?.start.line, x.span?.start.column])).toEqual([
      ['matches every `read` call', 3, 5],
    ]);
  });
});

describe('rules/unreachable with ask rules (deny > ask > allow)', () => {
  runRuleTests(rule, {
    valid: [
      { name: 'an ask rule narrower than the allow rule', code: y('mode: pattern', 'allow:', '  - {tool: bash}', 'ask:', '  - {tool: bash, match: "git push"}') },
      { name: 'an ask catch-all of another tool', code: y('mode: pattern', 'allow:', '  - {tool: bash}', 'ask:', '  - {tool: write}') },
    ],
    invalid: [
      {
        name: 'an ask catch-all shadows allow rules of its tool',
        code: y('mode: pattern', 'allow:', '  - {tool: bash, match: "ls"}', 'ask:', '  - {tool: BASH}'),
        errors: [{ messageId: 'shadowedByAsk', line: 3, column: 5, message: 'this allow rule never applies: `ask[0]` asks about every `BASH` call, and ask wins over allow' }],
      },
      {
        name: 'a deny catch-all shadows ask rules',
        code: y('mode: pattern', 'ask:', '  - {tool: bash, match: "push"}', 'deny:', '  - {}'),
        errors: [{ messageId: 'askShadowedByDeny', line: 3, column: 5, message: 'this ask rule never applies: `deny[0]` denies every tool call, and deny wins over ask' }],
      },
      {
        name: 'an ask catch-all shadows later ask rules',
        code: y('mode: pattern', 'ask:', '  - {tool: bash}', '  - {tool: bash, match: "push"}'),
        errors: [{ messageId: 'afterCatchAll', line: 4, column: 5, message: 'this rule never decides: `ask[0]` before it matches every `bash` call' }],
      },
    ],
  });
});
