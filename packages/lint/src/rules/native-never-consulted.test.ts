import { runNativeRuleTests } from '../../test/support/rule-tester.ts';
import rule from './native-never-consulted.ts';

runNativeRuleTests(rule, {
  valid: [
    { name: 'Claude Code: Read and Edit paths, a domain, a final `:*`', filename: '.claude/settings.json', code: '{ "permissions": { "allow": ["Read(src/**)", "Edit(docs/*.md)", "WebFetch(domain:x.org)", "Bash(npm run test:*)"], "deny": ["Write", "Agent(Explore)"] } }' },
    { name: 'Codex: words', filename: '.codex/rules/default.rules', code: 'prefix_rule(pattern = ["cat", ".env"], decision = "forbidden")\n' },
    { name: 'Gemini CLI: a command regex on the shell tool', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "git (status|log)"\ndecision = "allow"\npriority = 1\nmodes = ["autoEdit"]\n' },
    { name: 'Gemini CLI settings: whole tools excluded', filename: '.gemini/settings.json', code: '{ "tools": { "exclude": ["web_fetch"] } }' },
    { name: 'Cursor: a command base', filename: '.cursor/cli.json', code: '{ "permissions": { "allow": ["Shell(git)", "Shell(gh *)"] } }' },
  ],
  invalid: [
    {
      // Gemini CLI's loader: `commandPrefix = []` loads no rule; `"git "` compiles to `"command":"git\ (?:[\s"]|\\")`, which `git status` misses.
      name: 'Gemini CLI: an empty prefix list loads no rule; a prefix ending in a space matches only a doubled space',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = []\ndecision = "allow"\npriority = 10\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git "\ndecision = "deny"\npriority = 10\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git status"\ndecision = "allow"\npriority = 10\n',
      errors: [
        { messageId: 'emptyPrefix', line: 3, column: 17, message: '`commandPrefix = []` makes Gemini CLI load no rule from this table: the allow never applies' },
        { messageId: 'untypedPrefix', line: 9, column: 17, message: '`commandPrefix = "git "` compiles, in Gemini CLI, to a pattern that `git x` as users type it does not match (only `git  x` does): the deny almost never applies', help: 'write the words as they are typed, one space apart (`commandPrefix = "git"`): Gemini CLI already requires a space, a quote or the end of the command after the prefix' },
      ],
    },
    {
      name: 'Claude Code: Write paths, a parameter allow, the primary field, a colon mid-pattern',
      filename: '.claude/settings.json',
      code: '{\n  "permissions": {\n    "allow": ["Write(*.md)", "WebSearch(query:docs)", "Bash(git:* push)"],\n    "deny": ["Bash(command:rm *)"]\n  }\n}\n',
      errors: [
        { messageId: 'pathTool', line: 3, column: 15, message: '`Write(*.md)`: Claude Code never consults `Write(path)` rules; only `Read(path)` and `Edit(path)` decide file access', help: 'write `Edit(*.md)` (it also covers Write and NotebookEdit)' },
        { messageId: 'paramAllow', line: 3, column: 30 },
        { messageId: 'midColon', line: 3, column: 55 },
        { messageId: 'primaryField', line: 4, column: 14 },
      ],
    },
    {
      name: 'Codex: a token with a space, a glob, an extension',
      filename: '.codex/rules/default.rules',
      code: 'prefix_rule(["git push"])\nprefix_rule(pattern = ["rm", "*.log"], decision = "forbidden")\nprefix_rule(pattern = ["cat", [".pem", ".key"]], decision = "forbidden")\n',
      errors: [
        { messageId: 'spaceToken', line: 1, column: 14, help: 'split it into words: `["git", "push"]`' },
        { messageId: 'globToken', line: 2, column: 30 },
        { messageId: 'globToken', line: 3, column: 31, message: 'the token `.pem` is compared literally: Codex has no globs, so it matches only a word that is exactly `.pem`' },
      ],
    },
    {
      name: 'Gemini CLI: `^`, a command pattern on another tool, a mode it does not have',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "^git"\ndecision = "allow"\npriority = 1\n\n[[rule]]\ntoolName = "read_file"\ncommandPrefix = "cat"\ndecision = "allow"\npriority = 1\nmodes = ["auto_edit"]\n',
      errors: [
        { messageId: 'caretRegex', line: 3, column: 16 },
        { messageId: 'notShell', line: 9, column: 17 },
        { messageId: 'unknownMode', line: 12, column: 9, message: 'no Gemini CLI mode is called `auto_edit`: this rule never applies in it' },
      ],
    },
    {
      name: 'Gemini CLI settings: a command in `tools.exclude`',
      filename: '.gemini/settings.json',
      code: '{ "tools": { "exclude": ["run_shell_command(rm)"] } }',
      errors: [{ messageId: 'excludeCommand', line: 1, column: 26 }],
    },
    {
      name: 'Cursor: a space in the command base',
      filename: '.cursor/cli.json',
      code: '{ "permissions": { "deny": ["Shell(git push)"] } }',
      errors: [{ messageId: 'cursorSpace', line: 1, column: 29, help: 'write `Shell(git:push)`: the command base, then the arguments' }],
    },
  ],
});
