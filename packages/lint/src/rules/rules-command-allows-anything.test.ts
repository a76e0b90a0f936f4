import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-command-allows-anything.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'allow:', '  - {tool: Bash, command: [ls]}'),
    { name: 'args narrow an interpreter', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [python3], args: "--version"}') },
    { name: 'a further word narrows it', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [python, manage.py, test]}') },
    { name: 'deny rules only deny more', code: y('mode: pattern', 'deny:', '  - {tool: Bash, command: [bash]}', '  - {tool: Bash, command: [sudo]}') },
    { name: 'regex rules are not command rules', code: y('mode: pattern', 'allow:', '  - {tool: Bash, match: "python"}') },
  ],
  invalid: [
    {
      code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [bash]}'),
      errors: [{ messageId: 'interpreter', line: 3, column: 5, message: 'this allow rule allows `bash` with any arguments, and `bash` runs any code it is given (`bash -c …`, a script file)' }],
    },
    {
      name: 'one alternative of the program is enough, at any path',
      code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [[ls, /usr/bin/python3]]}'),
      errors: [{ messageId: 'interpreter', line: 3, column: 5 }],
    },
    {
      name: 'sudo, even with args',
      code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [sudo], args: "ls"}'),
      errors: [{ messageId: 'privileged', line: 3, column: 5, message: 'this allow rule allows `sudo`: every command it runs with it gains its privileges' }],
    },
  ],
});
