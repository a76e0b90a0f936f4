import { runNativeRuleTests } from '../../test/support/rule-tester.ts';
import rule from './native-unknown-key.ts';

runNativeRuleTests(rule, {
  valid: [
    { name: 'Gemini CLI: every key of a rule', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git status"\ndecision = "allow"\npriority = 10\nmodes = ["default"]\nallowRedirection = false\ndenyMessage = "no"\n' },
    { name: 'Claude Code: the keys of `permissions`, and other settings at the top level', filename: '.claude/settings.json', code: '{ "model": "x", "permissions": { "allow": [], "deny": [], "ask": [], "defaultMode": "default", "additionalDirectories": [] } }' },
    { name: 'Cursor: allow and deny', filename: '.cursor/cli.json', code: '{ "version": 1, "permissions": { "allow": [], "deny": [] } }' },
  ],
  invalid: [
    {
      name: 'Gemini CLI: a misspelt key turns a narrow allow into an allow of every shell command',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ncommand_prefix = "git"\ndecision = "allow"\npriority = 10\n\n[[rule]]\nname = "creds"\ntoolName = "read_file"\ndecision = "deny"\npriority = 10\n',
      errors: [
        {
          messageId: 'geminiKey',
          line: 3,
          column: 1,
          message: '`command_prefix` is not a key of a Gemini CLI rule: it is dropped without a word: without it, this allow rule applies to every call of its tool (an allow of every shell command, for the shell tool)',
          help: 'did you mean `commandPrefix`?',
        },
        { messageId: 'geminiKey', line: 8, column: 1, message: '`name` is not a key of a Gemini CLI rule: it is dropped without a word' },
      ],
    },
    {
      name: 'Claude Code: a key under `permissions` that does not exist, and one outside it',
      filename: '.claude/settings.json',
      code: '{\n  "permissions": { "allows": ["Bash(ls)"] },\n  "defaultMode": "plan"\n}\n',
      errors: [
        { messageId: 'permissionKey', line: 2, column: 20, message: 'Claude Code reads no `allows` under `permissions`', help: 'did you mean `allow`?' },
        { messageId: 'outside', line: 3, column: 3, message: '`defaultMode` is read under `permissions`, not at the top level: Claude Code ignores it here' },
      ],
    },
    {
      name: 'Cursor: a key under `permissions`',
      filename: '.cursor/cli.json',
      code: '{ "permissions": { "ask": ["Shell(rm)"] } }',
      errors: [{ messageId: 'permissionKey', line: 1, column: 20, message: 'Cursor reads no `ask` under `permissions`' }],
    },
  ],
});
