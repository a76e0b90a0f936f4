import { parseGoDuration } from '@verdict/engine';
import { createRule } from '../create-rule.ts';

export default createRule({
  id: 'policy/negative-timeout-retry',
  meta: {
    description: '`on_timeout: retry` with a negative `timeout`, which means no deadline: the retry never happens',
    severity: 'warning',
    category: 'policy',
    messages: {
      never: '`on_timeout: retry` never applies: `timeout: {{timeout}}` is negative, which means no deadline',
    },
    help: { never: 'set a positive `timeout` (e.g. `30s`) or remove `on_timeout`' },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      policy(ir) {
        const a = ir.approvals;
        const t = a?.timeout;
        if (a?.onTimeout?.value !== 'retry' || t === undefined) return;
        const parsed = parseGoDuration(t.value);
        if (!parsed.ok || parsed.ns >= 0n) return;
        ctx.report({ node: a.onTimeout, messageId: 'never', data: { timeout: t.value } });
      },
    };
  },
});
