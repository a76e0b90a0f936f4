import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './policy-retry-unsupported.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('driver: claude', 'policy:', '  approvals:', '    on_reject: abort'),
    { name: 'no driver', code: y('policy:', '  approvals:', '    on_reject: retry') },
  ],
  invalid: [
    {
      code: y('driver: claude', 'policy:', '  approvals:', '    on_reject: retry', '    on_timeout: retry'),
      errors: [
        {
          messageId: 'degrades',
          line: 4,
          column: 16,
          message: '`on_reject: retry` degrades to `abort` on driver `claude`, which cannot retry `permission`, `plan_review`, `question` requests',
        },
        { messageId: 'degrades', line: 5, column: 17 },
      ],
    },
    {
      code: y('driver: codex', 'policy:', '  approvals:', '    on_timeout: retry'),
      errors: [{ messageId: 'degrades', line: 4, column: 17, message: '`on_timeout: retry` degrades to `abort` on driver `codex`, which cannot retry `permission` requests' }],
    },
  ],
});
