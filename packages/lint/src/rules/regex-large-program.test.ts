import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './regex-large-program.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const deny = (match: string, extra = ''): string => y('mode: pattern', 'default: allow', 'deny:', `  - {tool: bash, match: '${match}'${extra}}`);

runRuleTests(rule, {
  valid: [
    deny('rm\\s+-rf|sudo|chmod|chown|curl[^"]*\\|\\s*sh'),
    { name: 'a long alternation of commands stays under the bound', code: deny(Array.from({ length: 20 }, (_, i) => `cmd${i}`).join('|')) },
    { name: 'a counted repeat of a few copies', code: deny('(?i)k[\\pL]{20}!') },
    { name: 'an invalid pattern is regex/invalid\'s', code: deny('\\pL{1001}') },
    { name: 'option maxInstructions', options: { maxInstructions: 2000 }, code: deny('\\pL{1000}') },
  ],
  invalid: [
    {
      name: 'a letter class repeated 500 times (40 s on a 4 MB line)',
      code: deny('(?i)k[\\pL]{500}!'),
      errors: [
        {
          messageId: 'large',
          line: 4,
          column: 25,
          message:
            'pattern `(?i)k[\\pL]{500}!` compiles to 504 instructions: a decision on a hostile input may cost 504 steps per input character (about 6.0 s per megabyte)',
        },
      ],
    },
    { name: 'a repeated group of dots', code: deny('(.*){1000}'), errors: [{ messageId: 'large', line: 4, column: 25 }] },
    {
      name: 'a field rule',
      code: y('mode: pattern', 'allow:', "  - {tool: bash, field: command, match: '\\pL{1000}'}"),
      errors: [{ messageId: 'large', line: 3, column: 41 }],
    },
    {
      name: 'option maxInstructions',
      options: { maxInstructions: 40 },
      code: deny('(?i)k[\\pL]{50}!'),
      errors: [{ messageId: 'large', line: 4, column: 25, message: 'pattern `(?i)k[\\pL]{50}!` compiles to 54 instructions: a decision on a hostile input may cost 54 steps per input character (about 0.6 s per megabyte)' }],
    },
    {
      name: 'a long pattern is quoted shortened',
      code: deny(`${'x'.repeat(70)}\\pL{400}`),
      errors: [{ messageId: 'large', line: 4, column: 25, message: `pattern \`${'x'.repeat(60)}…\` compiles to 472 instructions: a decision on a hostile input may cost 472 steps per input character (about 5.7 s per megabyte)` }],
    },
  ],
});
