import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-shell-separator.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const allow = (r: string, input = 'canonical'): string => y('mode: pattern', 'default: deny', `input: ${input}`, 'allow:', `  - ${r}`);

runRuleTests(rule, {
  valid: [
    { name: 'every separator named', code: allow("{tool: bash, field: command, match: 'git (status|diff|log)( [^;&|`$<>\\n\\r]*)?'}") },
    { name: 'an exact command', code: allow('{tool: bash, field: command, match: "git status"}') },
    { name: 'no class meant to stop chaining (rules/shell-injection flags it)', code: allow("{tool: bash, field: command, match: '(?s)ls.*'}") },
    { name: 'not a shell field', code: allow("{tool: read, field: path, match: '/workspace/[^;&|]*'}") },
    { name: 'a plain rule', code: allow("{tool: bash, match: 'git status[^;&|]*'}") },
    { name: 'allow only: deny rules are another rule’s business', code: y('mode: pattern', 'input: canonical', 'deny:', "  - {tool: bash, field: command, match: 'x[^;]*'}") },
  ],
  invalid: [
    {
      name: 'the bundled workspace policy before its fix',
      code: allow("{tool: bash, field: command, match: 'git (status|diff|log)( [^;&|`$<>]*)?'}"),
      errors: [
        {
          messageId: 'admits',
          line: 5,
          column: 41,
          message:
            'this allow rule on `command` keeps out `;`, `&`, `|`, `` ` `` and `$` but lets in a newline (`\\n`) and a carriage return (`\\r`), which a shell also runs as a command separator, e.g. `{"command":"git log \\nid"}`',
        },
      ],
    },
    {
      name: 'a newline named, a backtick forgotten; raw input and another case of the key',
      code: allow("{tool: bash, field: CMD, match: 'make( [^;&|$\\n\\r]*)?'}", 'raw'),
      errors: [
        {
          messageId: 'admits',
          line: 5,
          column: 37,
          message:
            'this allow rule on `CMD` keeps out `;`, `&`, `|` and `$` but lets in `` ` ``, which a shell also runs as a command separator, e.g. `{"CMD":"make `id"}`',
        },
      ],
    },
    {
      name: 'option fields',
      options: { fields: ['Run'] },
      code: allow("{tool: runner, field: run, match: 'npm test[^;]*'}"),
      errors: [{ messageId: 'admits', line: 5, column: 39 }],
    },
  ],
});
