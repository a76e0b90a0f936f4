import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-empty-field.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    { name: 'a named field', code: y('mode: pattern', 'input: canonical', 'deny:', '  - {tool: bash, field: command, match: "rm .*"}') },
    { name: 'no field at all', code: y('mode: pattern', 'deny:', '  - {tool: bash, match: "rm -rf"}') },
    { name: 'DSL: a named field', filename: 'p.verdict', code: 'approver pattern input canonical {\n  deny bash field command /rm .*/\n}\n' },
  ],
  invalid: [
    {
      code: y('mode: pattern', 'input: canonical', 'allow:', '  - {tool: bash, field: "", match: "git status"}'),
      errors: [
        {
          messageId: 'empty',
          line: 4,
          column: 25,
          message: 'this allow rule has an empty `field`, so its pattern searches the whole input instead of matching one value whole',
        },
      ],
    },
    {
      name: 'null (an empty YAML value)',
      code: y('mode: pattern', 'deny:', '  - tool: bash', '    field:', '    match: "rm .*"'),
      errors: [{ messageId: 'empty', line: 4, column: 11 }],
    },
    {
      name: 'an explicit null in JSON',
      filename: 'p.json',
      code: '{"mode": "pattern", "deny": [{"tool": "bash", "field": null, "match": "rm"}]}\n',
      errors: [{ messageId: 'empty', line: 1, column: 56 }],
    },
    {
      name: 'DSL: an empty quoted field',
      filename: 'p.verdict',
      code: 'approver pattern input canonical {\n  deny bash field "" /rm .*/\n}\n',
      errors: [{ messageId: 'empty', line: 2, column: 19 }],
    },
  ],
});
