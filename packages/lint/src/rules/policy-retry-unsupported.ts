import { advertisedModes, HUMAN_DECISION_KINDS, retryAdvertised } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { policyOf } from '../support/policy-facts.ts';

export default createRule({
  id: 'policy/retry-unsupported',
  meta: {
    description: '`on_reject: retry` or `on_timeout: retry` on a driver that cannot retry: it degrades to abort at run time',
    severity: 'warning',
    category: 'policy',
    messages: {
      degrades: '`{{key}}: retry` degrades to `abort` on driver `{{driver}}`, which cannot retry {{kinds}} requests',
    },
    help: {
      degrades:
        'the SDK emits one `human_decision_retry_unsupported` notice and aborts; use `abort` or `continue` to say what really happens',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      policy(ir) {
        const policy = policyOf(ctx);
        const d = ctx.descriptor;
        if (policy === undefined || d === undefined) return;
        // Kinds the driver can emit (any mode advertised) that it cannot retry.
        const kinds = HUMAN_DECISION_KINDS.filter((k) => advertisedModes(d, k).length > 0 && !retryAdvertised(d, k));
        if (kinds.length === 0) return;
        const list = kinds.map((k) => `\`${k}\``).join(', ');
        for (const [key, node] of [
          ['on_reject', ir.approvals?.onReject],
          ['on_timeout', ir.approvals?.onTimeout],
        ] as const) {
          if (node?.value !== 'retry') continue;
          ctx.report({ node, messageId: 'degrades', data: { key, driver: d.type, kinds: list } });
        }
      },
    };
  },
});
