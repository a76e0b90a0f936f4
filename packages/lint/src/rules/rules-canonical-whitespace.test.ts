import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-canonical-whitespace.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const deny = (r: string, input = 'canonical'): string => y('mode: pattern', 'default: allow', `input: ${input}`, 'deny:', `  - ${r}`);

runRuleTests(rule, {
  valid: [
    { name: 'a field rule sees the decoded tab', code: deny("{tool: bash, field: command, match: '.*rm\\s+-rf.*'}") },
    { name: 'raw input is the escape-evasion rule’s business', code: deny("{tool: bash, match: 'rm\\s+-rf'}", 'raw') },
    { name: 'the escape is allowed between words', code: deny("{tool: bash, match: 'rm(?:\\s|\\\\t)+-rf'}") },
    { name: 'one word: nothing to split', code: deny('{tool: bash, match: sudo}') },
    { name: 'allow rules are another rule’s business', code: y('mode: pattern', 'input: canonical', 'allow:', "  - {tool: bash, match: 'git status'}") },
  ],
  invalid: [
    {
      code: deny("{tool: bash, match: 'rm\\s+-rf'}"),
      errors: [
        {
          messageId: 'tab',
          line: 5,
          column: 25,
          message:
            'this deny rule misses the same input with a tab between words, e.g. `{"command":"rm\\t-rf"}`: canonical text writes a tab as `\\t`, which `\\s` and ` ` do not match, and a shell splits words on it',
          help: 'match the decoded value with a `field` rule (`field: command`, where `\\s` sees the tab), or allow the escape between words: `(?:\\s|\\\\t)+`',
        },
      ],
    },
    { name: 'a literal space', code: deny('{tool: bash, match: "chmod 777"}'), errors: [{ messageId: 'tab', line: 5, column: 25 }] },
    { name: 'a class of space and tab', code: deny("{tool: bash, match: 'curl[ \\t]+-d'}"), errors: [{ messageId: 'tab', line: 5, column: 25 }] },
  ],
});
