import { isCommandRule } from '@verdict/engine';
import { createRule } from '../create-rule.ts';

export default createRule({
  id: 'rules/missing-tool',
  meta: {
    description: 'a rule without `tool`, which applies to every tool',
    severity: 'warning',
    category: 'rules',
    messages: {
      missing: 'this {{list}} rule has no `tool`, so it applies to every tool',
    },
    help: {
      missing: 'name the tool (`tool: bash`); a pattern written for one tool’s input rarely means the same for another',
    },
    docs: { recommended: true },
    options: {
      lists: {
        description: 'Which lists to check (`allow`, `deny`, `ask`): a tool-less deny or ask rule only denies or asks more, so only `allow` is checked by default.',
        default: ['allow'],
      },
    },
  },
  create(ctx) {
    const lists = Array.isArray(ctx.options.lists) ? (ctx.options.lists as unknown[]) : ['allow'];
    return {
      rule(rule, list) {
        // A command rule without a tool applies to the shell tools only (the approver's `shell:` table).
        if (rule.tool !== '' || !lists.includes(list) || isCommandRule(rule)) return;
        ctx.report({ node: rule, messageId: 'missing', data: { list } });
      },
    };
  },
});
