import { createRule } from '../create-rule.ts';
import { effectiveDefault, effectiveMode } from '../support/approver-facts.ts';

export default createRule({
  id: 'approver/default-allow',
  meta: {
    description: '`default: allow` in pattern mode: every call no rule matches runs',
    severity: 'warning',
    category: 'approver',
    messages: {
      defaultAllow: '`default: allow` runs every call that no rule matches; deny rules become the only guard',
    },
    help: {
      defaultAllow:
        'prefer `default: deny` and allow what the agent needs; keep `default: allow` for a locked-down container where the container is the boundary',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      approver(a) {
        if (effectiveMode(a) !== 'pattern' || effectiveDefault(a) !== 'allow') return;
        ctx.report({
          ...(a.defaultSpan !== undefined ? { span: a.defaultSpan } : { path: [...ctx.approverPath(), 'default'] }),
          messageId: 'defaultAllow',
        });
      },
    };
  },
});
