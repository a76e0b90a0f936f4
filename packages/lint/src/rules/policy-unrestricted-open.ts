import { createRule } from '../create-rule.ts';
import { effectiveDefault, effectiveMode } from '../support/approver-facts.ts';
import { policyOf } from '../support/policy-facts.ts';

export default createRule({
  id: 'policy/unrestricted-open',
  meta: {
    description: '`sandbox: unrestricted` with an approver that allows by default and web search allowed',
    severity: 'warning',
    category: 'policy',
    messages: {
      open: '`sandbox: unrestricted` with {{approver}} and web search {{webSearch}}: nothing stands between fetched content and the machine',
    },
    help: {
      open: 'use `sandbox: workspace_write`, set the approver to `default: deny`, or set `web_search: deny`',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      policy(ir) {
        const policy = policyOf(ctx);
        const a = ctx.ir.approver;
        if (policy === undefined || a === undefined || policy.sandbox !== 'unrestricted') return;
        const mode = effectiveMode(a);
        const allowing =
          mode === 'allow_all' ? '`mode: allow_all`' : mode === 'pattern' && effectiveDefault(a) === 'allow' ? '`default: allow`' : undefined;
        if (allowing === undefined) return;
        let webSearch: string | undefined;
        if (policy.webSearch === 'allow') webSearch = 'allowed';
        else if (policy.webSearch === '' && ctx.descriptor?.run_policy_caps.web_search === true) {
          webSearch = `inherited from driver \`${ctx.descriptor.type}\``;
        }
        if (webSearch === undefined) return;
        ctx.report({ node: ir.sandbox ?? ir, messageId: 'open', data: { approver: allowing, webSearch } });
      },
    };
  },
});
