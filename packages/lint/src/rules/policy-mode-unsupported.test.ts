import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './policy-mode-unsupported.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('driver: codebuddy', 'policy:', '  approvals:', '    permission: ask', '    question: ask'),
    // The auto-deny preset: policy/auto-deny-unsupported supersedes this rule in the file (tested there, through the whole catalogue).
  ],
  invalid: [
    {
      code: y('driver: claude', 'policy:', '  approvals:', '    permission: ask', '    plan_review: auto_approve', '    question: ask'),
      errors: [
        {
          messageId: 'unsupported',
          line: 4,
          column: 17,
          message: 'driver `claude` has no `ask` mode for `permission` requests',
          help: 'the SDK refuses to start the run (`agentadaptor: human decision mode unsupported by driver: driver=claude kind=permission mode=ask`); the driver advertises `auto_approve`, `auto_reject` for `permission`, or leave it unset to use the SDK default',
        },
      ],
    },
    {
      code: y('driver: cursor', 'policy:', '  approvals:', '    plan_review: auto_approve', '    question: ask'),
      errors: [
        { messageId: 'unsupported', line: 4, column: 18 },
        { messageId: 'unsupported', line: 5, column: 15 },
      ],
    },
  ],
});
