import { runNativeRuleTests } from '../../test/support/rule-tester.ts';
import rule from './native-prefix-alternatives.ts';

runNativeRuleTests(rule, {
  valid: [
    { name: 'whole commands as alternatives', filename: '.gemini/policies/p.toml', code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["go test", "go vet"]\ndecision = "allow"\npriority = 1\n' },
    { name: 'programs as alternatives (an auto-saved list)', filename: '.gemini/policies/auto-saved.toml', code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["cd", "just"]\ndecision = "allow"\npriority = 100\n' },
  ],
  invalid: [
    {
      name: '`["go", "test"]`',
      filename: '.gemini/policies/policy.toml',
      code: '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["go", "test"]\ndecision = "allow"\npriority = 100\n',
      errors: [
        {
          messageId: 'alternatives',
          line: 3,
          column: 17,
          message: '`commandPrefix = ["go", "test"]` is a list of alternatives, not a command: it allows every `go` command and every `test` command, not `go test`',
          help: 'write the command as one string: `commandPrefix = "go test"`',
        },
      ],
    },
  ],
});
