import { createRule } from '../create-rule.ts';
import { allAutoReject, kindsWithoutAutoReject, policyOf } from '../support/policy-facts.ts';

export default createRule({
  id: 'policy/auto-deny-unsupported',
  meta: {
    description: '`approvals_auto_deny` (auto-reject for all three kinds) on a driver that cannot auto-reject every kind',
    severity: 'error',
    category: 'policy',
    messages: {
      unsupported:
        'auto-reject for every kind (`approvals_auto_deny`) needs driver support for all three, and driver `{{driver}}` cannot auto-reject {{kinds}}',
    },
    help: {
      unsupported:
        'the SDK rejects this policy before the run; for a portable unattended policy set `permission: auto_approve` and `plan_review: auto_approve` where the driver supports them and leave `question` unset (it defaults to auto-reject)',
    },
    docs: { recommended: true },
    // The approvals_auto_deny shape is one problem: said once here, not once per kind.
    supersedes: [{ rule: 'policy/mode-unsupported', scope: 'file' }],
  },
  create(ctx) {
    return {
      policy(ir) {
        const policy = policyOf(ctx);
        const d = ctx.descriptor;
        if (policy === undefined || d === undefined || !allAutoReject(policy)) return;
        const kinds = kindsWithoutAutoReject(d);
        if (kinds.length === 0) return;
        ctx.report({
          node: ir.approvals?.permission ?? ir.approvals ?? ir,
          messageId: 'unsupported',
          data: { driver: d.type, kinds: kinds.map((k) => `\`${k}\``).join(', ') },
        });
      },
    };
  },
});
