import { runRuleTests } from '../testing/rule-tester.ts';
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
