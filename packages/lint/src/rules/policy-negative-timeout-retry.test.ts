import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './policy-negative-timeout-retry.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('policy:', '  approvals:', '    timeout: 30s', '    on_timeout: retry'),
    y('policy:', '  approvals:', '    timeout: -5s', '    on_timeout: abort'),
    { name: 'zero means the default 30s', code: y('policy:', '  approvals:', '    timeout: "0"', '    on_timeout: retry') },
  ],
  invalid: [
    {
      code: y('policy:', '  approvals:', '    timeout: -1m30s', '    on_timeout: retry'),
      errors: [
        { messageId: 'never', line: 4, column: 17, message: '`on_timeout: retry` never applies: `timeout: -1m30s` is negative, which means no deadline' },
      ],
    },
  ],
});
