import { runNativeRuleTests } from '../../test/support/rule-tester.ts';
import rule from './native-regex-dropped.ts';

runNativeRuleTests(rule, {
  valid: [
    { name: 'patterns Gemini CLI keeps', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "rm -[a-z]+ /"\ndecision = "deny"\npriority = 1\n\n[[rule]]\ntoolName = "read_file"\nargsPattern = "\\"file_path\\":\\"[^\\"]*\\\\.env\\""\ndecision = "deny"\npriority = 1\n' },
    { name: 'not a Gemini CLI file', filename: '.codex/rules/default.rules', code: 'prefix_rule(["ls"])\n' },
  ],
  invalid: [
    {
      name: 'a nested quantifier drops a deny: it fails open',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "rm( -[a-z]+)* /"\ndecision = "deny"\npriority = 900\n',
      errors: [{ messageId: 'dropped', line: 3, column: 16, message: 'this deny rule is dropped by Gemini CLI: its `commandRegex` has a quantified group that holds a quantifier, which Gemini CLI refuses as unsafe: the calls it denies are then decided by the other rules (it fails open)' }],
    },
    {
      name: 'a pattern that is not JavaScript',
      filename: '.gemini/policies/p.toml',
      code: '[[rule]]\ntoolName = "read_file"\nargsPattern = "(?P<x>a)"\ndecision = "allow"\npriority = 1\n',
      errors: [{ messageId: 'dropped', line: 3, column: 15 }],
    },
  ],
});
