import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-missing-tool.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'allow:', '  - {tool: read, match: ".*"}'),
    { name: 'tool-less deny rules only deny more', code: y('mode: pattern', 'deny:', '  - {match: secret}') },
  ],
  invalid: [
    {
      code: y('mode: pattern', 'allow:', '  - {match: "workspace"}'),
      errors: [{ messageId: 'missing', line: 3, column: 5, message: 'this allow rule has no `tool`, so it applies to every tool' }],
    },
    {
      name: 'option lists: [allow, deny]',
      options: { lists: ['allow', 'deny'] },
      code: y('mode: pattern', 'deny:', '  - {match: secret}'),
      errors: [{ messageId: 'missing', line: 3, column: 5 }],
    },
  ],
});
