import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './regex-invalid.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'allow:', '  - {tool: bash, match: "git (status|diff)"}'),
    y('mode: pattern', 'allow:', '  - {tool: read}'),
    // lookahead: reported by regex/unsupported-syntax instead
    y('mode: pattern', 'allow:', '  - {tool: bash, match: "a(?=b)"}'),
  ],
  invalid: [
    {
      code: y('mode: pattern', 'default: deny', 'allow:', '  - {tool: bash, match: "git (status"}'),
      errors: [
        {
          messageId: 'invalid',
          line: 4,
          column: 25,
          message: 'pattern `git (status` does not compile: error parsing regexp: missing closing ): `git (status`',
        },
      ],
    },
    {
      name: 'deny list and a .verdict-free JSON file',
      filename: 'p.json',
      code: '{"mode": "pattern", "deny": [{"tool": "bash", "match": "x{2,1}"}]}',
      errors: [{ messageId: 'invalid', line: 1, column: 56 }],
    },
  ],
});
