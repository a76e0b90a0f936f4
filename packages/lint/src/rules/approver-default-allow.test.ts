import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './approver-default-allow.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'default: deny', 'allow:', '  - {tool: read}'),
    y('mode: pattern', 'allow:', '  - {tool: read}'),
    { name: 'allow_all is its own decision', code: y('mode: allow_all') },
  ],
  invalid: [
    {
      code: y('agent:', '  approver:', '    mode: pattern', '    default: ALLOW', '    deny:', '      - {tool: bash, match: sudo}'),
      errors: [{ messageId: 'defaultAllow', line: 4, column: 14 }],
    },
    {
      filename: 'p.json',
      code: '{"approver": {"mode": "pattern", "default": "allow"}}',
      errors: [{ messageId: 'defaultAllow', line: 1, column: 45 }],
    },
  ],
});
