import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './analysis-dead-rule.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const one = (list: 'allow' | 'deny', match: string, input = 'raw'): string =>
  y('mode: pattern', `input: ${input}`, `${list}:`, `  - {tool: bash, match: '${match}'}`);

runRuleTests(rule, {
  valid: [
    one('allow', '"command":"ls'),
    one('deny', 'rm\\s+-rf'),
    { name: 'anchored on the object itself', code: one('allow', '^\\s*\\{"command"') },
    { name: 'an empty raw input exists', code: one('allow', '^$') },
    { name: '(?m) lets ^ match after a line break', code: one('allow', '(?m)^\\s*"command"') },
    { name: 'a word boundary that can hold', code: one('deny', '\\bsudo\\b') },
    { name: 'not pattern mode', code: y('mode: allow_all', 'allow:', "  - {tool: bash, match: 'a$b'}") },
    { name: 'invalid regexes are left to regex/invalid', code: one('allow', '(') },
  ],
  invalid: [
    {
      name: 'a time budget spent says so once, at the approver',
      options: { budgetMs: 0 },
      code: 'mode: pattern\nallow:\n  - {tool: bash, match: "ls"}\ndeny:\n  - {tool: bash, match: "ls -la"}\n',
      errors: [{ messageId: 'budget', line: 1, column: 1, message: 'the static analysis stopped at its time limit (0 ms of CPU time): 2 of 2 rules were not checked whether their pattern can match' }],
    },
    {
      name: 'the seed page whitelist is dead on every JSON object',
      code: y(
        'agent:',
        '  approver:',
        '    mode: pattern',
        '    allow:',
        '      - {tool: bash, match: "^\\\\s*\\"command\\":\\\\s*\\"(ls|cat|grep|rg|find|git status|git diff|go test) "}',
      ),
      errors: [
        {
          messageId: 'noObjectExample',
          line: 5,
          column: 29,
          message:
            'this allow rule never applies: `^\\s*"command":\\s*"(ls|cat|grep|rg|find|git status|git diff|go test) ` matches no JSON object, and every tool input is one (it matches only text like `"command":"ls `)',
        },
      ],
    },
    {
      name: 'an anchor in the middle',
      code: one('deny', 'rm -rf$/'),
      errors: [{ messageId: 'noInput', line: 4, column: 25, message: 'this deny rule never applies: `rm -rf$/` matches no input at all' }],
    },
    { name: 'a boundary between two word characters', code: one('deny', 'a\\bb'), errors: [{ messageId: 'noInput', line: 4, column: 25 }] },
    {
      name: 'canonical input never holds a raw line break',
      code: one('deny', '\\n', 'canonical'),
      errors: [{ messageId: 'noInput', line: 4, column: 25, message: 'this deny rule never applies: `\\n` matches no canonical input at all' }],
    },
    { name: 'canonical input has no space after a colon', code: one('allow', '"command": "ls"', 'canonical'), errors: [{ messageId: 'noObject', line: 4, column: 25 }] },
  ],
});
