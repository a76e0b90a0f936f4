import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './regex-mixed-alternation.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const deny = (match: string): string => y('mode: pattern', 'deny:', `  - {tool: write, match: '${match}'}`);

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
    },
  ],
});
