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
    { name: 'a wrapper with `args` or a further word says what it runs alone', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [env], args: ""}', '  - {tool: Bash, command: [command, [-v, -V]]}') },
    { name: '`xargs` alone runs `echo`: rules/command-never-matches says so', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [xargs]}') },
    { name: 'a name the policy does not make a wrapper', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [retry]}') },
    { name: 'a reading program with any arguments: the capability table keeps its other capabilities out', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [[rg, sort, tree, git]]}', '  - {tool: Bash, command: [tree], args: "-I ?[^ ]+"}') },
    { name: '`find -exec` names a capability whose command is judged too', code: y('mode: pattern', 'allow:', "  - {tool: Bash, command: [find], args: '(?s)(.* )?-exec( .*)?'}") },
  ],
  invalid: [
    {
      name: 'a rule that names a capability of the table says which it lets through',
      code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [sort, -o]}', "  - {tool: Bash, command: [rg], args: '--pre [^ ]+ .*'}", '  - {tool: Bash, command: [git, -c]}'),
      errors: [
        {
          messageId: 'capability',
          line: 3,
          column: 5,
          message: 'this allow rule lets `sort` write a file with `-o` (writes its output to a file)',
          help: 'keep the rule only if the agent may do that: an allow lets through only the capabilities it names (docs/shell.md "Capabilities")',
        },
        { messageId: 'capability', line: 4, column: 5, message: 'this allow rule lets `rg` run a program with `--pre` (runs the program it is given on every file searched)' },
        { messageId: 'capability', line: 5, column: 5, message: 'this allow rule lets `git` run a program with `-c` (sets configuration for this run (`core.pager`, `core.fsmonitor`, `diff.external`, `alias.x=!sh` run programs))' },
      ],
    },
    {
      name: 'a program that reaches the network or runs code by its nature, allowed with any arguments',
      code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [curl]}', '  - {tool: Bash, command: [make]}'),
      errors: [
        { messageId: 'capability', line: 3, column: 5, message: 'this allow rule lets `curl` reach the network (sends requests)' },
        { messageId: 'capability', line: 4, column: 5, message: "this allow rule lets `make` run a program (runs the Makefile's recipes)" },
      ],
    },
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
      name: 'a wrapper alone: `env` prints the environment',
      code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [env]}'),
      errors: [
        {
          messageId: 'wrapper',
          line: 3,
          column: 5,
          message:
            "this allow rule allows only `env` run with no command, which prints the whole environment, secrets included: command rules look through `env` and judge the command it runs, though other agents' allowlists read such a rule as allowing every command",
          help: 'drop the rule and allow the commands themselves: a command an allow rule matches is allowed run under `env` too',
        },
      ],
    },
    {
      name: 'every wrapper of the table, at any path and case, and the policy\'s own',
      code: y(
        'mode: pattern',
        'wrappers:',
        '  retry: {options: [-n]}',
        'allow:',
        '  - {tool: Bash, command: [nohup]}',
        '  - {tool: Bash, command: [[ls, /usr/bin/Timeout]]}',
        '  - {tool: Bash, command: [exec]}',
        '  - {tool: Bash, command: [command]}',
        '  - {tool: Bash, command: [retry]}',
      ),
      errors: [
        { messageId: 'wrapper', line: 5, column: 5, message: "this allow rule allows only `nohup` run with no command: command rules look through `nohup` and judge the command it runs, though other agents' allowlists read such a rule as allowing every command" },
        { messageId: 'wrapper', line: 6, column: 5, message: "this allow rule allows only `/usr/bin/Timeout` run with no command: command rules look through `/usr/bin/Timeout` and judge the command it runs, though other agents' allowlists read such a rule as allowing every command" },
        { messageId: 'wrapper', line: 7, column: 5 },
        { messageId: 'wrapper', line: 8, column: 5 },
        { messageId: 'wrapper', line: 9, column: 5 },
      ],
    },
    {
      name: 'sudo, even with args',
      code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [sudo], args: "ls"}'),
      errors: [{ messageId: 'privileged', line: 3, column: 5, message: 'this allow rule allows `sudo`: every command it runs with it gains its privileges' }],
    },
  ],
});
