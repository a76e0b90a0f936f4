import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './policy-unrestricted-open.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('policy:', '  sandbox: unrestricted', '  web_search: allow', 'approver:', '  mode: pattern', '  default: deny'),
    y('policy:', '  sandbox: workspace_write', '  web_search: allow', 'approver:', '  mode: allow_all'),
    y('policy:', '  sandbox: unrestricted', '  web_search: deny', 'approver:', '  mode: allow_all'),
  ],
  invalid: [
    {
      code: y('policy:', '  sandbox: unrestricted', '  web_search: allow', 'approver:', '  mode: pattern', '  default: allow'),
      errors: [
        {
          messageId: 'open',
          line: 2,
          column: 12,
          message: '`sandbox: unrestricted` with `default: allow` and web search allowed: nothing stands between fetched content and the machine',
        },
      ],
    },
    {
      name: 'web search inherited from a driver that has it',
      code: y('driver: codex', 'policy:', '  sandbox: unrestricted', 'approver:', '  mode: allow_all'),
      errors: [{ messageId: 'open', line: 3, column: 12 }],
    },
  ],
});
