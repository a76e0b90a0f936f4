import { createRule } from '../create-rule.ts';
import { policyOf } from '../support/policy-facts.ts';

export default createRule({
  id: 'policy/question-ends-run',
  meta: {
    description: 'a policy under which a question from the agent is auto-rejected and the rejection aborts the run (the SDK defaults)',
    severity: 'warning',
    category: 'policy',
    messages: {
      endsRun:
        'a question from the agent ends the run: `question` is unset (auto-reject by default) and `on_reject` is {{onReject}}',
    },
    help: {
      endsRun: 'set `question: ask` with a handler that answers, or `on_reject: continue` so the driver goes on after a rejection',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      policy(ir) {
        const policy = policyOf(ctx);
        if (policy === undefined) return;
        const a = policy.approvals;
        if (a.question !== '' || (a.onReject !== '' && a.onReject !== 'abort')) return;
        const q = ctx.descriptor?.run_policy_caps.question;
        // A driver that never asks questions never hits this.
        if (q !== undefined && q.ask !== true && q.auto_reject !== true) return;
        ctx.report({
          node: ir.approvals?.onReject ?? ir.approvals ?? ir,
          messageId: 'endsRun',
          data: { onReject: a.onReject === '' ? 'unset (abort by default)' : '`abort`' },
        });
      },
    };
  },
});
