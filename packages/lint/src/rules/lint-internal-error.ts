import { createRule } from '../create-rule.ts';

/** Reported by the runner when a rule or the compiler throws; `create` has nothing to walk. */
export default createRule({
  id: 'lint/internal-error',
  meta: {
    description: 'a rule (or the compiler) crashed on this file; the other rules still ran',
    severity: 'error',
    category: 'lint',
    messages: { crashed: '{{what}} crashed on this file: {{detail}}' },
    help: { crashed: 'this is a bug in verdict; please report it with the file that caused it' },
    docs: { recommended: true },
  },
  create() {},
});
