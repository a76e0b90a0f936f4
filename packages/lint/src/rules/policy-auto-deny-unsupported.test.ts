import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './policy-auto-deny-unsupported.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('driver: claude', 'policy:', '  preset: approvals_auto_deny'),
    y('driver: codex', 'policy:', '  approvals:', '    permission: auto_approve'),
  ],
  invalid: [
    {
      code: y('driver: codex', 'policy:', '  preset: approvals_auto_deny'),
      errors: [
        {
          messageId: 'unsupported',
          line: 3,
          column: 11,
          message:
            'auto-reject for every kind (`approvals_auto_deny`) needs driver support for all three, and driver `codex` cannot auto-reject `permission`, `plan_review`, `question`',
        },
      ],
    },
    {
      code: y('driver: cursor', 'policy:', '  approvals:', '    permission: auto_reject', '    plan_review: auto_reject', '    question: auto_reject'),
      errors: [{ messageId: 'unsupported', line: 4, column: 17 }],
    },
  ],
});
