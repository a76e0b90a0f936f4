import { runRuleTests } from '../testing/rule-tester.ts';
import rule from './analysis-shadowed-rule.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'allow:', "  - {tool: bash, match: '\"command\":\"git '}", 'deny:', "  - {tool: bash, match: '--force'}"),
    {
      name: 'a deny rule of another tool',
      code: y('mode: pattern', 'allow:', "  - {tool: write, match: '\"path\":\"/etc/'}", 'deny:', "  - {tool: edit, match: '\"path\":\"/etc/'}"),
    },
    {
      name: 'a tool-less allow rule still allows other tools',
      code: y('mode: pattern', 'allow:', "  - {match: '\"path\"'}", 'deny:', "  - {tool: bash, match: '.*'}"),
    },
  ],
  invalid: [
    {
      name: 'every sudo command is denied',
      code: y('mode: pattern', 'allow:', "  - {tool: bash, match: '\"command\":\"sudo [^\"]*\"'}", 'deny:', "  - {tool: BASH, match: 'sudo'}"),
      errors: [
        {
          messageId: 'shadowed',
          line: 3,
          column: 25,
          message: 'this allow rule never allows anything: every call it matches is also matched by `sudo` (deny[0]), and deny wins',
        },
      ],
    },
    {
      name: 'covered by a tool-less deny rule',
      code: y('mode: pattern', 'allow:', "  - {tool: bash, match: 'rm -rf /tmp'}", 'deny:', "  - {tool: bash, match: 'curl'}", "  - {match: 'rm\\s+-rf'}"),
      errors: [{ messageId: 'shadowed', line: 3, column: 25, message: 'this allow rule never allows anything: every call it matches is also matched by `rm\\s+-rf` (deny[1]), and deny wins' }],
    },
    {
      name: 'covered by two deny rules together',
      code: y('mode: pattern', 'allow:', "  - {tool: bash, match: '\"command\":\"(ls|cat) '}", 'deny:', "  - {tool: bash, match: '\"command\":\"ls'}", "  - {tool: bash, match: '\"command\":\"cat'}"),
      errors: [{ messageId: 'shadowed', line: 3, column: 25 }],
    },
  ],
});
