import { runNativeRuleTests } from '../../test/support/rule-tester.ts';
import rule from './native-allow-runs-anything.ts';

const claude = (perms: string): string => `{\n  "permissions": ${perms}\n}\n`;

runNativeRuleTests(rule, {
  valid: [
    // Gemini CLI loads no rule from `commandPrefix = []`, and `"git "` matches only `git  status` (two spaces):
    // neither lets a command through (native/never-consulted names both).
    { name: 'Gemini CLI: an empty prefix list and a prefix ending in a space allow nothing', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = []\ndecision = "allow"\npriority = 10\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git "\ndecision = "allow"\npriority = 10\n' },
    { name: 'Codex: whole commands', filename: '.codex/rules/default.rules', code: 'prefix_rule(pattern = ["git", "status"])\nprefix_rule(pattern = ["ls"])\nprefix_rule(pattern = ["git"], decision = "prompt")\n' },
    { name: 'Claude Code: exact commands, a read-only prefix, a leading `*`', filename: '.claude/settings.json', code: claude('{ "allow": ["Bash(git status)", "Bash(ls *)", "Bash(* --version)", "Read", "Edit(src/**)"] }') },
    { name: 'Claude Code: `find` prefixes never auto-approve `-exec`', filename: '.claude/settings.json', code: claude('{ "allow": ["Bash(find:*)"] }') },
    { name: 'Gemini CLI: a prefix that fixes the subcommand of a reading program', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git status"\ndecision = "allow"\npriority = 10\n' },
    { name: 'denies are not judged here', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "env"\ndecision = "deny"\npriority = 10\n' },
    { name: 'a help flag stops the program', filename: '.claude/settings.json', code: claude('{ "allow": ["Bash(gh --help *)"] }') },
  ],
  invalid: [
    {
      // The ask above has no pattern, so Gemini CLI's heuristics decide `env rm -rf ~`: counted, and said.
      name: 'Gemini CLI: a witness the heuristics decide',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ndecision = "ask_user"\npriority = 500\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "env"\ndecision = "allow"\npriority = 10\n',
      errors: [{ messageId: 'holeUndecided', line: 8, column: 17, message: "this Gemini CLI allow `commandPrefix \"env\"` may also allow `env rm -rf ~`, which can run any program (`env` runs the command that follows it, and the rule stops before that command): the file asks for it, but Gemini CLI's built-in shell heuristics, which read the workspace and the folder's trust (not modelled here), may allow it" }],
    },
    {
      // Gemini CLI re-checks the script of `bash -c` from the top (no rule: it asks), so the allow does not let it through.
      name: 'Gemini CLI: an allow on a shell, whose `-c` script is checked again',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "bash"\ndecision = "allow"\npriority = 10\n',
      errors: [{ messageId: 'hole', line: 3, column: 17, message: "this Gemini CLI allow `commandPrefix \"bash\"` also allows `bash -lc 'rm -rf ~'`, which can run any code (`bash` runs the code it is given)" }],
    },
    {
      // Codex forbids `git -c …` here (strictest match): the witness is the next capability the file lets through.
      name: 'Codex: the witness is one the file lets through, by its strictest match',
      filename: '.codex/rules/default.rules',
      code: 'prefix_rule(["git"])\nprefix_rule(pattern = ["git", "-c"], decision = "forbidden")\n',
      errors: [{ messageId: 'hole', line: 1, column: 13, message: 'this Codex allow `prefix_rule(["git"])` also allows `git push --force origin main`, which can write or delete (`git push` changes the repository or its files, or runs a program (hooks, an editor, an alias))' }],
    },
    {
      name: 'Codex `git -C` lets `-c core.pager` run a program',
      filename: '.codex/rules/default.rules',
      code: 'prefix_rule(["git", "-C"])\n',
      errors: [{ messageId: 'hole', line: 1, column: 13, message: "this Codex allow `prefix_rule([\"git\", \"-C\"])` also allows `git -C . -c 'core.pager=sh -c '\\''id'\\''' log`, which can run a program with `-c` (sets configuration for this run (`core.pager`, `core.fsmonitor`, `diff.external`, `alias.x=!sh` run programs))" }],
    },
    {
      name: 'Gemini CLI `env`, `find`, `rm tests/` and a list item',
      filename: '.gemini/policies/auto-saved.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "env"\ndecision = "allow"\npriority = 100\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["ls", "find", "rm tests/"]\ndecision = "allow"\npriority = 100\n',
      errors: [
        { messageId: 'hole', line: 3, column: 17, message: "this Gemini CLI allow `commandPrefix \"env\"` also allows `env rm -rf ~`, which can run any program (`env` runs the command that follows it, and the rule stops before that command)" },
        { messageId: 'hole', line: 9, column: 24 },
        { messageId: 'hole', line: 9, column: 32, message: 'this Gemini CLI allow `commandPrefix "rm tests/"` also allows `rm tests/ -rf ~`, which can delete or overwrite any file (a prefix rule fixes only its first words: any path may follow)' },
      ],
    },
    {
      name: 'Claude Code: a runner, an interpreter, the whole shell, a whole tool, bypass mode',
      filename: '.claude/settings.json',
      code: claude('{\n    "allow": ["Bash(docker compose run:*)", "Bash(python3 *)", "Bash", "WebFetch", "Bash(git log:*)"],\n    "defaultMode": "bypassPermissions"\n  }'),
      errors: [
        { messageId: 'hole', line: 3, column: 15, message: 'this Claude Code allow `Bash(docker compose run:*)` also allows `docker compose run --rm -v /:/host alpine sh`, which can run any program (`docker compose` runs the program or package it is given)' },
        { messageId: 'hole', line: 3, column: 45 },
        { messageId: 'everything', line: 3, column: 64, message: 'this Claude Code allow `Bash` allows every shell command' },
        { messageId: 'tool', line: 3, column: 72, message: 'this Claude Code allow `WebFetch` allows every call of `WebFetch`: any URL' },
        { messageId: 'hole', line: 3, column: 84, message: 'this Claude Code allow `Bash(git log:*)` also allows `git log --output=/tmp/x`, which can write or delete with `--output` (writes the output to a file)' },
        { messageId: 'bypassMode', line: 4, column: 20 },
      ],
    },
    {
      name: 'Gemini CLI settings: `tools.allowed` entries are prefixes too',
      filename: '.gemini/settings.json',
      code: '{ "tools": { "allowed": ["run_shell_command(git log)", "run_shell_command(ls)", "read_file"] } }',
      errors: [{ messageId: 'hole', line: 1, column: 26, message: 'this Gemini CLI allow `run_shell_command(git log)` also allows `git log --output=/tmp/x`, which can write or delete with `--output` (writes the output to a file)' }],
    },
    {
      name: 'Cursor: `Shell(*)` and a program with options that run code',
      filename: '.cursor/cli.json',
      code: '{ "permissions": { "allow": ["Shell(*)", "Shell(rsync)"] } }',
      errors: [
        { messageId: 'everything', line: 1, column: 30 },
        { messageId: 'hole', line: 1, column: 42, message: "this Cursor allow `Shell(rsync)` also allows `rsync -e 'sh -c id' x y:`, which can run a program with `-e` (runs the program it is given)" },
      ],
    },
  ],
});
