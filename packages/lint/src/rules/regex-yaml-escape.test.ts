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
      output: y('mode: pattern', 'deny:', '  - tool: bash', '    match: |-', '      sudo\\b'),
    },
    {
      name: 'fix: each doubled backslash halved, in the same quoting; single ones stay',
      code: y('mode: pattern', 'deny:', "  - {tool: bash, match: 'rm\\\\s+-rf\\d\\\\.'} # keep"),
      errors: [{ messageId: 'doubled', line: 3, column: 25 }],
      output: y('mode: pattern', 'deny:', "  - {tool: bash, match: 'rm\\s+-rf\\d\\.'} # keep"),
    },
    {
      name: 'fix: plain scalar',
      code: y('mode: pattern', 'deny:', '  - tool: bash', '    match: rm\\\\s+-rf'),
      errors: [{ messageId: 'doubled', line: 4, column: 12 }],
      output: y('mode: pattern', 'deny:', '  - tool: bash', '    match: rm\\s+-rf'),
    },
    {
      name: 'no fix when `\\\\` also stands before a letter that is not a regex escape (`\\\\n`: a backslash in raw JSON?)',
      code: y('mode: pattern', 'deny:', "  - {tool: bash, match: 'a\\\\nb\\\\s'}"),
      errors: [{ messageId: 'doubled', line: 3, column: 25 }],
      output: null,
    },
    {
      name: 'no fix for three backslashes in a row',
      code: y('mode: pattern', 'deny:', "  - {tool: bash, match: 'a\\\\\\\\s'}"),
      errors: [{ messageId: 'doubled', line: 3, column: 25 }],
      output: null,
    },
    {
      name: 'no fix for an anchored value: its aliases would change too',
      code: y('mode: pattern', 'deny:', "  - {tool: bash, match: &p 'rm\\\\s'}", '  - {tool: sh, match: *p}'),
      errors: [{ messageId: 'doubled', line: 3, column: 28 }, { messageId: 'doubled', line: 3, column: 28 }],
      output: null,
    },
  ],
});
