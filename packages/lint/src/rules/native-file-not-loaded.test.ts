import { runNativeRuleTests } from '../../test/support/rule-tester.ts';
import rule from './native-file-not-loaded.ts';

runNativeRuleTests(rule, {
  valid: [
    { name: 'Codex: a file that loads', filename: '.codex/rules/default.rules', code: 'prefix_rule(pattern = ["git", "push"], decision = "prompt", match = ["git push origin"])\n' },
    { name: 'Gemini CLI: priorities in range', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = "read_file"\ndecision = "deny"\npriority = 999\n' },
    { name: 'a symlinked Claude Code file is read (only Codex and Gemini CLI skip them)', filename: '.claude/settings.json', code: '{}', symlink: true },
  ],
  invalid: [
    {
      name: 'Codex: an example that fails, and an unknown decision',
      filename: '.codex/rules/default.rules',
      code: 'prefix_rule(pattern = ["git", "push"], match = ["git status"])\nprefix_rule(pattern = ["rm"], decision = "deny")\n',
      errors: [
        { messageId: 'codexRefused', line: 1, column: 49, message: "this rules file is refused by Codex (the `match` example `git status` does not match the rule's pattern), and then none of its rules files load" },
        { messageId: 'codexRefused', line: 2, column: 42 },
      ],
    },
    {
      name: 'Codex requirements: allow is refused',
      filename: '.codex/requirements.toml',
      code: '[rules]\nprefix_rules = [{ pattern = [{ token = "ls" }], decision = "allow" }]\n',
      errors: [{ messageId: 'requirementsRefused', line: 2, column: 60 }],
    },
    {
      name: 'Gemini CLI: rulesync\'s priority drops the file; a decision it does not know',
      filename: '.gemini/policies/rulesync.toml',
      code: '[[rule]]\ntoolName = "read_file"\ndecision = "deny"\npriority = 1000000\n\n[[rule]]\ntoolName = "read_file"\ndecision = "ask"\npriority = 1\n',
      errors: [
        { messageId: 'priority', line: 4, column: 12, message: 'a priority of 1000000 is outside 0–999: Gemini CLI rejects the whole file, so no rule in it applies' },
        { messageId: 'schema', line: 8, column: 12, help: 'write `ask_user`' },
      ],
    },
    {
      name: 'a symlinked Gemini CLI policy',
      filename: '.gemini/policies/team.toml',
      symlink: true,
      code: '[[rule]]\ntoolName = "read_file"\ndecision = "deny"\npriority = 1\n',
      errors: [{ messageId: 'symlink', line: 1, column: 1, message: 'Gemini CLI skips symbolic links among its rules files: none of the rules in this file apply' }],
    },
  ],
});
