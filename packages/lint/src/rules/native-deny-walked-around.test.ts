import { runNativeRuleTests } from '../../test/support/rule-tester.ts';
import rule from './native-deny-walked-around.ts';

runNativeRuleTests(rule, {
  valid: [
    { name: 'Codex: the program itself is denied (a wrapper is its own program, but the flag order cannot matter)', filename: '.codex/rules/default.rules', code: 'prefix_rule(pattern = ["rm"], decision = "forbidden")\nprefix_rule(pattern = ["env"], decision = "forbidden")\nprefix_rule(pattern = ["command"], decision = "forbidden")\n' },
    { name: 'Gemini CLI: the respellings are denied too', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = ".*rm"\ndecision = "deny"\npriority = 900\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 900\n' },
    { name: 'Claude Code: exact program rules see through wrappers', filename: '.claude/settings.json', code: '{ "permissions": { "deny": ["Bash(rm:*)"] } }' },
    // A deny with a `*` inside (no prefix, so no rule of its own to respell) still stops the respelling: Claude Code's model decides it.
    { name: 'Claude Code: a deny with an inner `*` covers the options moved after an operand', filename: '.claude/settings.json', code: '{ "permissions": { "deny": ["Bash(git push --force *)", "Bash(git push * --force *)"] } }' },
    { name: 'allows are not judged here', filename: '.codex/rules/default.rules', code: 'prefix_rule(["git", "push", "--force"])\n' },
  ],
  invalid: [
    {
      // No rule matches `git -C . push`: Gemini CLI asks, but its built-in heuristics (the workspace decides) may allow it.
      name: 'Gemini CLI: an ask whose respelling the heuristics decide, said in the finding',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git push"\ndecision = "ask_user"\npriority = 10\n',
      errors: [{ messageId: 'walkedUndecided', line: 3, column: 17, message: "`git -C . push` (a global option before `push`) runs what this Gemini CLI ask_user rule `commandPrefix \"git push\"` stops, but the rule does not match it: no rule matches it, so Gemini CLI asks, and Gemini CLI's built-in shell heuristics, which read the workspace and the folder's trust (not modelled here), may allow it" }],
    },
    {
      // Gemini CLI takes the first match by priority: the allow on `env` (500) wins over the deny on `env` (1).
      name: 'Gemini CLI: a deny elsewhere in the file that the respelling reaches only after a higher allow',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 900\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "env"\ndecision = "allow"\npriority = 500\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "env"\ndecision = "deny"\npriority = 1\n',
      errors: [{ messageId: 'walked', line: 3, column: 17, message: '`env rm` (the program behind `env`) runs what this Gemini CLI deny rule `commandPrefix "rm"` stops, but the rule does not match it: the rule on line 7 decides `allow`' }, { messageId: 'walked', line: 15, column: 17 }],
    },
    {
      name: 'Codex: options after an operand reach a weaker rule of the same file',
      filename: '.codex/rules/default.rules',
      code: 'prefix_rule(pattern = ["git", "push", "--force"], decision = "forbidden")\nprefix_rule(pattern = ["git", "push"], decision = "prompt")\n',
      errors: [
        {
          messageId: 'walked',
          line: 1,
          column: 23,
          message: '`git push origin --force` (the options after an operand) runs what this Codex forbidden rule `prefix_rule(["git", "push", "--force"])` stops, but the rule does not match it: the rule on line 2 decides `prompt`',
        },
        { messageId: 'walked', line: 2, column: 23, message: '`git -C . push` (a global option before `push`) runs what this Codex prompt rule `prefix_rule(["git", "push"])` stops, but the rule does not match it: no rule matches it, so Codex\'s own heuristics decide' },
      ],
    },
    {
      name: 'Codex: a file by another path, another shell',
      filename: '.codex/rules/default.rules',
      code: 'prefix_rule(pattern = ["cat", ".env"], decision = "forbidden")\nprefix_rule(pattern = ["bash", "-c"], decision = "forbidden")\n',
      errors: [
        { messageId: 'walked', line: 1, column: 23, message: '`cat ./.env` (`./.env` for `.env`) runs what this Codex forbidden rule `prefix_rule(["cat", ".env"])` stops, but the rule does not match it: no rule matches it, so Codex\'s own heuristics decide' },
        { messageId: 'walked', line: 2, column: 23, message: '`zsh -c` (another shell (`zsh`)) runs what this Codex forbidden rule `prefix_rule(["bash", "-c"])` stops, but the rule does not match it: no rule matches it, so Codex\'s own heuristics decide' },
      ],
    },
    {
      name: 'Gemini CLI: a text prefix misses `env rm`, and an allow then matches it',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 900\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "env"\ndecision = "allow"\npriority = 100\n',
      errors: [{ messageId: 'walked', line: 3, column: 17, message: '`env rm` (the program behind `env`) runs what this Gemini CLI deny rule `commandPrefix "rm"` stops, but the rule does not match it: the rule on line 7 decides `allow`' }],
    },
    {
      name: 'Claude Code: the same options in another order',
      filename: '.claude/settings.json',
      code: '{ "permissions": { "deny": ["Bash(rm -rf *)"] } }',
      errors: [{ messageId: 'walked', line: 1, column: 29, message: '`rm -fr` (the same options in another order) runs what this Claude Code deny rule `Bash(rm -rf *)` stops, but the rule does not match it (by its documented matching)' }],
    },
    {
      name: 'Cursor: the program behind `env`',
      filename: '.cursor/cli.json',
      code: '{ "permissions": { "deny": ["Shell(rm)"] } }',
      errors: [{ messageId: 'walked', line: 1, column: 29 }],
    },
  ],
});
