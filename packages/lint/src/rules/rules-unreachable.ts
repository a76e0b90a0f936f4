import { RULE_LISTS, rulesOf } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { effectiveMode, isCatchAll, ruleLabel, sameTool } from '../support/approver-facts.ts';

export default createRule({
  id: 'rules/unreachable',
  meta: {
    description: 'a rule that can never decide: an earlier rule of the same list already matches every call to its tool, or a rule that wins over it (deny > ask > allow) matches every such call',
    severity: 'warning',
    category: 'rules',
    messages: {
      afterCatchAll: 'this rule never decides: `{{by}}` before it matches every {{tool}} call',
      shadowedByDeny: 'this allow rule never applies: `{{by}}` denies every {{tool}} call, and deny wins over allow',
      shadowedByAsk: 'this allow rule never applies: `{{by}}` asks about every {{tool}} call, and ask wins over allow',
      askShadowedByDeny: 'this ask rule never applies: `{{by}}` denies every {{tool}} call, and deny wins over ask',
      catchAll: 'matches every {{tool}} call',
    },
    help: {
      afterCatchAll: 'delete the rule, or move it above `{{by}}` if it should decide first',
      shadowedByDeny: 'narrow `{{by}}`, or delete this rule',
      shadowedByAsk: 'narrow `{{by}}`, or delete this rule',
      askShadowedByDeny: 'narrow `{{by}}`, or delete this rule',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      approver(approver) {
        if (effectiveMode(approver) !== 'pattern') return;
        for (const list of RULE_LISTS) {
          const rules = rulesOf(approver, list);
          const catchAlls: number[] = [];
          rules.forEach((rule, index) => {
            const by = catchAlls.find((j) => {
              const t = rules[j]?.tool ?? '';
              return t === '' || sameTool(t, rule.tool);
            });
            if (by !== undefined) {
              const byTool = rules[by]?.tool ?? '';
              ctx.report({
                node: rule,
                messageId: 'afterCatchAll',
                data: { by: ruleLabel(list, by), tool: byTool === '' ? 'tool' : `\`${byTool}\`` },
                related: [{ messageId: 'catchAll', node: rules[by], data: { tool: byTool === '' ? 'tool' : `\`${byTool}\`` } }],
              });
              return;
            }
            if (isCatchAll(rule, ctx.regexCache)) catchAlls.push(index);
          });
        }
        // Deny > ask > allow: a rule for a tool whose every call a winning rule matches never applies.
        const catchAllsOf = (list: 'deny' | 'ask') =>
          rulesOf(approver, list)
            .map((rule, index) => ({ rule, index, list }))
            .filter(({ rule }) => isCatchAll(rule, ctx.regexCache));
        const denyAll = catchAllsOf('deny');
        const askAll = catchAllsOf('ask');
        const check = (list: 'allow' | 'ask', winners: typeof denyAll) => {
          rulesOf(approver, list).forEach((rule) => {
            const by = winners.find(({ rule: d }) => d.tool === '' || sameTool(d.tool, rule.tool));
            if (by === undefined) return;
            const tool = by.rule.tool === '' ? 'tool' : `\`${by.rule.tool}\``;
            ctx.report({
              node: rule,
              messageId: list === 'ask' ? 'askShadowedByDeny' : by.list === 'deny' ? 'shadowedByDeny' : 'shadowedByAsk',
              data: { by: ruleLabel(by.list, by.index), tool },
              related: [{ messageId: 'catchAll', node: by.rule, data: { tool } }],
            });
          });
        };
        check('allow', [...denyAll, ...askAll]);
        check('ask', denyAll);
      },
    };
  },
});
