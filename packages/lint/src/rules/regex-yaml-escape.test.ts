import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './regex-yaml-escape.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'deny:', '  - {tool: bash, match: "rm\\\\s+-rf"}'),
    y('mode: pattern', 'deny:', "  - {tool: bash, match: 'rm\\s+-rf'}"),
    y('mode: pattern', 'deny:', '  - tool: bash', '    match: rm\\s+-rf'),
    { filename: 'p.json', code: '{"mode":"pattern","deny":[{"tool":"bash","match":"rm\\\\s+-rf"}]}' },
  ],
  invalid: [
    {
      name: 'single-quoted',
      code: y('mode: pattern', 'deny:', "  - {tool: bash, match: 'rm\\\\s+-rf'}"),
      errors: [
        {
          messageId: 'doubled',
          line: 3,
          column: 25,
          message: 'in a single-quoted YAML string `\\\\` stays two backslashes, so `\\\\s` matches a literal backslash followed by `s`',
        },
      ],
    },
    {
      name: 'plain scalar',
      code: y('mode: pattern', 'deny:', '  - tool: bash', '    match: rm\\\\s+-rf'),
      errors: [{ messageId: 'doubled', line: 4, column: 12 }],
    },
    {
      name: 'block scalar',
      code: y('mode: pattern', 'deny:', '  - tool: bash', '    match: |-', '      sudo\\\\b'),
      errors: [{ messageId: 'doubled', line: 4, column: 12 }],
    },
  ],
});
