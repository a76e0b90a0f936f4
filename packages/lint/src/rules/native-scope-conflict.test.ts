import { runNativeRuleTests } from '../../test/support/rule-tester.ts';
import rule from './native-scope-conflict.ts';

runNativeRuleTests(rule, {
  valid: [
    // Gemini CLI compiles `"git "` to a pattern only `git  status` (two spaces) matches: it shadows no `git status` rule.
    { name: 'Gemini CLI: a prefix ending in a space covers nothing typed', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git "\ndecision = "allow"\npriority = 500\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git status"\ndecision = "deny"\npriority = 100\n' },
    { name: 'Claude Code: a narrower ask beside a broader allow', filename: '.claude/settings.json', code: '{ "permissions": { "allow": ["Bash(git *)"], "ask": ["Bash(git push *)"] } }' },
    { name: 'Codex: the stricter rule is the narrower one', filename: '.codex/rules/default.rules', code: 'prefix_rule(["git"])\nprefix_rule(pattern = ["git", "push"], decision = "prompt")\n' },
    { name: 'Gemini CLI: the narrower rule comes first', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = "read_file"\ndecision = "allow"\npriority = 10\n\n[[rule]]\ntoolName = "read_file"\nargsPattern = "secret"\ndecision = "deny"\npriority = 100\n' },
    { name: 'a mid-pattern `*` is not read as a prefix', filename: '.claude/settings.json', code: '{ "permissions": { "allow": ["Bash(gh * view *)"], "ask": ["Bash(git branch * -D *)"] } }' },
  ],
  invalid: [
    {
      name: 'Claude Code: an ask voids a narrower allow',
      filename: '.claude/settings.json',
      code: '{ "permissions": { "allow": ["Bash(git push origin main)", "Edit(docs/**)"], "ask": ["Bash(git push:*)", "Edit"] } }',
      errors: [
        { messageId: 'voided', line: 1, column: 30, message: 'this Claude Code allow `Bash(git push origin main)` never decides: the ask `Bash(git push:*)` on line 1 matches everything it matches, and Claude Code applies ask rules before allow rules' },
        { messageId: 'voided', line: 1, column: 60 },
      ],
    },
    {
      name: 'Codex: the strictest match wins',
      filename: '.codex/rules/default.rules',
      code: 'prefix_rule(pattern = ["git"], decision = "prompt")\nprefix_rule(pattern = ["git", ["status", "log"]])\n',
      errors: [{ messageId: 'voided', line: 2, column: 23, message: 'this Codex allow `prefix_rule(["git", ["status", "log"]])` never decides: the prompt `prefix_rule(["git"])` on line 1 matches everything it matches, and Codex takes the strictest decision of every rule that matches' }],
    },
    {
      name: 'Gemini CLI: a higher-priority allow shadows a deny',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git"\ndecision = "allow"\npriority = 500\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git push"\ndecision = "deny"\npriority = 100\n',
      errors: [{ messageId: 'shadowed', line: 7, column: 1, message: 'this Gemini CLI deny rule never decides: the allow rule on line 1 (priority 500) matches every call it matches and comes first (priority 100)' }],
    },
  ],
});
