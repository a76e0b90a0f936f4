import { createRule } from '../create-rule.ts';

export default createRule({
  id: 'policy/max-retries-zero',
  meta: {
    description: '`max_retries: 0`, which means the default of 3 retries, not none',
    severity: 'warning',
    category: 'policy',
    messages: { zero: '`max_retries: 0` means the default, 3 retries, not zero' },
    help: {
      zero: 'zero retries cannot be expressed; to never ask again, use `on_reject: abort` or `on_timeout: abort` instead of `retry`, or write `max_retries: 3` to say what happens',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      policy(ir) {
        const mr = ir.approvals?.maxRetries;
        if (mr === undefined || mr.value !== 0) return;
        ctx.report({ node: mr, messageId: 'zero' });
      },
    };
  },
});
