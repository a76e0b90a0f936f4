import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './approver-protection-lifted.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'default: deny', 'allow:', '  - {tool: Write}'),
    { name: 'an empty lift lifts nothing', code: y('mode: pattern', 'default: deny', 'protections: {lift: []}') },
  ],
  invalid: [
    {
      code: y('approver:', '  mode: pattern', '  default: deny', '  protections: {lift: [claude-settings, git-hooks]}'),
      errors: [
        { messageId: 'lifted', line: 4, column: 16 },
        { messageId: 'lifted', line: 4, column: 16 },
      ],
    },
  ],
});
