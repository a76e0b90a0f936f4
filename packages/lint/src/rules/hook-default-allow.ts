import { AGENT_CATALOGUES } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { effectiveDefault, effectiveMode } from '../support/approver-facts.ts';

export default createRule({
  id: 'hook/default-allow',
  meta: {
    description: 'a policy used as an agent’s hook lets every call no rule matches run, in an agent that also runs the tool when the hook fails',
    severity: 'warning',
    category: 'hook',
    messages: {
      defaultAllow: '`default: allow` under {{title}}’s hook: every call no rule matches runs, including tools added in later versions, and {{failsOpen}}',
      allowAll: '`mode: allow_all` under {{title}}’s hook: the hook objects to nothing, and {{failsOpen}}',
    },
    help: {
      defaultAllow: 'use `default: deny` and allow the tools the agent needs: the agent’s tool list changes between versions, and a new tool should reach a person, not run',
      allowAll: 'use `mode: pattern` with `default: deny`, or do not install the hook',
    },
    docs: { recommended: true },
    supersedes: ['approver/default-allow'],
  },
  create(ctx) {
    const agent = ctx.hookAgent;
    if (agent === undefined) return;
    const { title, failsOpen } = AGENT_CATALOGUES[agent];
    return {
      approver(a) {
        const mode = effectiveMode(a);
        if (mode === 'allow_all') {
          ctx.report({ ...(a.modeSpan !== undefined ? { span: a.modeSpan } : { path: [...ctx.approverPath(), 'mode'] }), messageId: 'allowAll', data: { title, failsOpen } });
        } else if (mode === 'pattern' && effectiveDefault(a) === 'allow') {
          ctx.report({ ...(a.defaultSpan !== undefined ? { span: a.defaultSpan } : { path: [...ctx.approverPath(), 'default'] }), messageId: 'defaultAllow', data: { title, failsOpen } });
        }
      },
    };
  },
});
