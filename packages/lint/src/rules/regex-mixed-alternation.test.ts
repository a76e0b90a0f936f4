import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './regex-mixed-alternation.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const deny = (match: string): string => y('mode: pattern', 'deny:', `  - {tool: write, match: '${match}'}`);
const allow = (match: string): string => y('mode: pattern', 'allow:', `  - {tool: write, match: '${match}'}`);

runRuleTests(rule, {
  valid: [
    deny('"path":"/(etc|root|var|usr)/'),
    deny('"path":"/etc/|"path":"/root/'),
    deny('rm -rf|sudo'),
    deny('"path":"(?:/etc/|/root/)'),
  ],
  invalid: [
    {
      code: deny('"path":"/etc/|/root/'),
      errors: [
        {
          messageId: 'mixed',
          line: 3,
          column: 26,
          message:
            'the top-level `|` in `"path":"/etc/|/root/` makes `/root/` a pattern of its own, matched anywhere in the input, not only in the `path` value',
          help: 'group the alternatives after the key: `"path":"(?:/etc/|/root/)`',
        },
      ],
    },
    {
      code: y('mode: pattern', 'deny:', '  - {tool: write, match: "/root/|\\"path\\":\\\\s*\\"/etc/"}'),
      errors: [{ messageId: 'mixed', line: 3, column: 26 }],
      output: null,
    },
    {
      name: 'fix: an allow rule gets the grouping (it can only allow less)',
      code: allow('"path":"/workspace/|/tmp/'),
      errors: [{ messageId: 'mixed', line: 3, column: 26 }],
      output: allow('"path":"(?:/workspace/|/tmp/)'),
    },
    {
      name: 'fix: in a double-quoted string, escapes are written again as the string needs them',
      code: y('mode: pattern', 'allow:', '  - {tool: bash, match: "\\"command\\":\\"ls|pwd"}  # read-only commands'),
      errors: [{ messageId: 'mixed', line: 3, column: 25 }],
      output: y('mode: pattern', 'allow:', '  - {tool: bash, match: "\\"command\\":\\"(?:ls|pwd)"}  # read-only commands'),
    },
    {
      name: 'fix: .verdict regex literal',
      filename: 'p.verdict',
      code: 'approver pattern {\n  allow write /"path":"\\/workspace\\/|\\/tmp\\//\n}\n',
      errors: [{ messageId: 'mixed', line: 2, column: 16 }],
      output: 'approver pattern {\n  allow write /"path":"(?:\\/workspace\\/|\\/tmp\\/)/\n}\n',
    },
    {
      name: 'no fix in a deny rule: grouping would deny less',
      code: deny('"path":"/etc/|/root/'),
      errors: [{ messageId: 'mixed', line: 3, column: 26 }],
      output: null,
    },
  ],
});
