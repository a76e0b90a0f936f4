import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './approver-reason.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'reason: denied — this deployment only allows reads inside /workspace', 'allow:', '  - {tool: read}'),
    { name: 'an approver that never denies', code: y('mode: pattern', 'default: allow') },
    y('mode: allow_all'),
  ],
  invalid: [
    {
      code: y('mode: pattern', 'allow:', '  - {tool: read}'),
      errors: [{ messageId: 'missing', line: 1, column: 7, message: 'no `reason`: a denied call tells the model only `denied by pattern policy`' }],
    },
    {
      code: y('mode: deny_all', 'reason: ""'),
      errors: [{ messageId: 'missing', line: 2, column: 9, message: 'no `reason`: a denied call tells the model only `denied by policy`' }],
    },
    {
      code: y('mode: pattern', 'reason: "denied by pattern policy"'),
      errors: [{ messageId: 'unhelpful', line: 2, column: 9 }],
    },
    {
      name: 'a blank reason is sent as written',
      code: y('mode: deny_all', 'reason: "   "'),
      errors: [{ messageId: 'unhelpful', line: 2, column: 9, message: 'the reason `   ` does not tell the model what it may do instead' }],
    },
    {
      name: 'option minLength',
      options: { minLength: 60 },
      code: y('mode: pattern', 'reason: only reads in /workspace are allowed'),
      errors: [{ messageId: 'unhelpful', line: 2, column: 9 }],
    },
  ],
});
