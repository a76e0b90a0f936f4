import { createRule } from '../create-rule.ts';

/** Reported by the runner after suppressions are applied; `create` has nothing to walk. */
export default createRule({
  id: 'lint/unused-suppression',
  meta: {
    description: 'a `# verdict-disable-next-line` comment that suppresses nothing',
    severity: 'warning',
    category: 'lint',
    messages: { unused: 'this comment suppresses {{rule}}, but nothing is reported there on the next line' },
    help: { unused: 'delete the comment, or fix the rule id' },
    docs: { recommended: true },
  },
  create() {},
});
