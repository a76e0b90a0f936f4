import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './regex-impossible-anchor.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const allow = (match: string, input = 'raw'): string =>
  y('mode: pattern', `input: ${input}`, 'allow:', `  - {tool: bash, match: '${match}'}`);

const deny = (match: string, input = 'raw'): string => y('mode: pattern', `input: ${input}`, 'deny:', `  - {tool: bash, match: '${match}'}`);

runRuleTests(rule, {
  valid: [
    allow('"command":"ls'),
    allow('^\\{"command"'),
    allow('^\\s*\\{'),
    allow('"}$'),
    allow('\\}\\s*$'),
    { name: '^$ matches an empty raw input', code: allow('^$') },
    { name: '(?m) lets ^ match after a newline', code: allow('(?m)^\\s*"command"') },
    { name: 'one branch can match', code: allow('^"x"|"command"') },
    { name: 'field rules are anchored on purpose', code: y('mode: pattern', 'allow:', '  - {tool: bash, field: command, match: "^ls$"}') },
    { name: 'a group at the start is not judged', code: allow('^(\\{|x)') },
    { name: 'canonical input starts with {', code: allow('^\\{"command":"ls"', 'canonical') },
  ],
  invalid: [
    {
      name: 'the seed page whitelist',
      code: y(
        'agent:',
        '  approver:',
        '    mode: pattern',
        '    allow:',
        '      - {tool: bash, match: "^\\\\s*\\"command\\":\\\\s*\\"(ls|cat|grep|rg|find|git status|git diff|go test) "}',
      ),
      errors: [{ messageId: 'start', line: 5, column: 29 }],
    },
    { code: allow('^ls'), errors: [{ messageId: 'start', line: 4, column: 25 }] },
    { code: allow('"ls"$'), errors: [{ messageId: 'end', line: 4, column: 25 }] },
    { code: allow('^"x"|^"y"'), errors: [{ messageId: 'start', line: 4, column: 25 }] },
    { name: 'canonical input has no leading whitespace', code: allow('^\\s+\\{', 'canonical'), errors: [{ messageId: 'start', line: 4, column: 25 }] },
    { name: '^$ never matches canonical input', code: allow('^$', 'canonical'), errors: [{ messageId: 'empty', line: 4, column: 25 }] },
    { code: allow('\\A"command"'), errors: [{ messageId: 'start', line: 4, column: 25 }] },
    { name: 'no fix in an allow rule: dropping `^` would allow more', code: allow('^ls'), errors: [{ messageId: 'start', line: 4, column: 25 }], output: null },
    {
      name: 'fix: a deny rule loses its `^` (it can only deny more)',
      code: deny('(?i)^sudo '),
      errors: [{ messageId: 'start', line: 4, column: 25 }],
      output: deny('(?i)sudo '),
    },
    { name: 'fix: `$`, in a plain scalar', code: y('mode: pattern', 'deny:', '  - tool: bash', '    match: rm -rf /$ # no'), errors: [{ messageId: 'end', line: 4, column: 12 }], output: y('mode: pattern', 'deny:', '  - tool: bash', '    match: rm -rf / # no') },
    { name: 'fix: `^` then, on the next pass, `$`', code: deny('^rm -rf$'), errors: [{ messageId: 'start', line: 4, column: 25 }], output: deny('rm -rf$') },
    { name: 'no fix for several branches, `\\A`, or an empty input', code: deny('^a|^b'), errors: [{ messageId: 'start', line: 4, column: 25 }], output: null },
    { code: deny('\\Arm'), errors: [{ messageId: 'start', line: 4, column: 25 }], output: null },
    { code: deny('^$', 'canonical'), errors: [{ messageId: 'empty', line: 4, column: 25 }], output: null },
  ],
});
