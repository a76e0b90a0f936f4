import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-nested-key-spoof.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const allow = (r: string, input = 'raw'): string => y('mode: pattern', 'default: deny', `input: ${input}`, 'allow:', `  - ${r}`);

runRuleTests(rule, {
  valid: [
    { name: 'field rule', code: allow('{tool: edit, field: path, match: "/workspace/.*"}') },
    { name: 'no key in the pattern', code: allow('{tool: edit, match: "/workspace/"}') },
    { name: 'anchored on the opening brace', code: allow('{tool: edit, match: "^\\\\{\\"path\\":\\"/workspace/"}', 'canonical') },
  ],
  invalid: [
    {
      name: 'the seed page edit rule',
      code: allow('{tool: edit, match: "\\"path\\":\\"/workspace/[^\\"]*\\""}'),
      errors: [
        {
          messageId: 'nested',
          line: 5,
          column: 25,
          message:
            'this allow rule for `path` also matches when `path` sits in a nested object, e.g. `{"x":{"path":"/workspace/"},"path":"spoofed-value-xyz"}`',
        },
      ],
    },
    {
      name: 'canonical mode does not help against nesting',
      code: allow('{tool: edit, match: "\\"path\\":\\"/workspace/"}', 'canonical'),
      errors: [{ messageId: 'nested', line: 5, column: 25 }],
    },
    {
      name: 'loose key pattern matches inside an escaped string',
      code: allow("{tool: edit, match: 'path.{0,4}:.{0,4}/workspace/'}"),
      errors: [
        {
          messageId: 'inString',
          line: 5,
          column: 25,
          message:
            'this allow rule for `path` also matches text inside another string value, e.g. `{"command":"spoofed-value-xyz","path":"spoofed-value-xyz","content":"{\\"command\\":\\"path:/workspace/\\"}"}`',
        },
      ],
    },
  ],
});
