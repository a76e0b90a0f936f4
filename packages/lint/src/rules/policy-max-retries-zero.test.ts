import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './policy-max-retries-zero.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [y('policy:', '  approvals:', '    max_retries: 1'), y('policy:', '  approvals:', '    on_reject: retry')],
  invalid: [
    {
      code: y('policy:', '  approvals:', '    on_reject: retry', '    max_retries: 0'),
      errors: [{ messageId: 'zero', line: 4, column: 18, message: '`max_retries: 0` means the default, 3 retries, not zero' }],
    },
  ],
});
