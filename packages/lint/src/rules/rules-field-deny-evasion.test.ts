import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-field-deny-evasion.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const policy = (...rules: string[]): string =>
  y('mode: pattern', 'default: allow', 'input: canonical', 'deny:', ...rules.map((r) => `  - ${r}`));

runRuleTests(rule, {
  valid: [
    {
      name: '(?s) lets `.` cross the newline; a plain rule beside it sees nested keys',
      code: policy("{tool: bash, field: command, match: '(?s).*rm\\s+-rf.*'}", "{tool: bash, match: 'rm\\s+-rf'}"),
    },
    {
      name: 'an exact value is not defeated by a newline more than by any other text',
      code: policy('{tool: bash, field: command, match: "rm -rf /"}', '{tool: bash, match: "rm -rf"}'),
    },
    {
      name: 'a tool-less plain deny rule covers every tool',
      code: policy("{tool: bash, field: command, match: '(?s).*sudo.*'}", '{match: sudo}'),
    },
    {
      name: 'default deny and no allow rule: the nested input is denied anyway',
      code: y('mode: pattern', 'default: deny', 'input: canonical', 'deny:', "  - {tool: bash, field: command, match: '(?s).*sudo.*'}"),
    },
  ],
  invalid: [
    {
      name: 'fix: `(?s)` in front',
      code: policy("{tool: bash, field: command, match: '.*rm\\s+-rf.*'}", "{tool: bash, match: 'rm\\s+-rf'}"),
      errors: [{ messageId: 'newline', line: 5, column: 41 }],
      output: policy("{tool: bash, field: command, match: '(?s).*rm\\s+-rf.*'}", "{tool: bash, match: 'rm\\s+-rf'}"),
    },
    {
      name: 'no fix when the pattern turns `s` off again',
      code: policy("{tool: bash, field: command, match: '(?-s:.*)rm\\s+-rf.*'}", "{tool: bash, match: 'rm\\s+-rf'}"),
      errors: [{ messageId: 'newline', line: 5, column: 41 }],
      output: null,
    },
    {
      code: policy("{tool: bash, field: command, match: '.*rm\\s+-rf.*'}", "{tool: bash, match: 'rm\\s+-rf'}"),
      errors: [
        {
          messageId: 'newline',
          line: 5,
          column: 41,
          message:
            'this deny rule matches its value whole and `.` stops at a newline, so a line before the denied text gets past it, e.g. `{"command":"ls\\nrm -rf"}`',
        },
      ],
    },
    {
      name: 'a pattern open only at its end',
      code: policy("{tool: bash, field: command, match: 'sudo .*'}", '{tool: bash, match: sudo}'),
      errors: [{ messageId: 'newline', line: 5, column: 41 }],
    },
    {
      name: 'a deny list of field rules only',
      code: policy("{tool: bash, field: command, match: '(?s).*sudo.*'}", "{tool: write, field: path, match: '(?s)/etc/.*'}"),
      errors: [
        {
          messageId: 'fieldOnly',
          line: 5,
          column: 5,
          message:
            'every deny rule for `bash` is a `field` rule, so an input that nests the key one level down (or is not a JSON object) is never denied, e.g. `{"args":{"command":"sudo"}}`',
        },
        { messageId: 'fieldOnly', line: 6, column: 5 },
      ],
    },
  ],
});
