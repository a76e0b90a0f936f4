import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './policy-question-ends-run.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('policy:', '  approvals:', '    question: ask'),
    y('policy:', '  approvals:', '    on_reject: continue'),
    { name: 'no policy block: not ours to judge', code: y('mode: allow_all') },
    { name: 'codex never asks questions', code: y('driver: codex', 'policy:', '  sandbox: read_only') },
  ],
  invalid: [
    {
      code: y('driver: claude', 'policy:', '  sandbox: ""'),
      errors: [{ messageId: 'endsRun', line: 3, column: 3, message: 'a question from the agent ends the run: `question` is unset (auto-reject by default) and `on_reject` is unset (abort by default)' }],
    },
    {
      code: y('policy:', '  approvals:', '    permission: auto_approve', '    on_reject: abort'),
      errors: [{ messageId: 'endsRun', line: 4, column: 16 }],
    },
  ],
});
