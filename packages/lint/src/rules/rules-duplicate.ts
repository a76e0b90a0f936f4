import { caseFold, RULE_LISTS, rulesOf } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { effectiveMode, ruleLabel } from '../support/approver-facts.ts';

export default createRule({
  id: 'rules/duplicate',
  meta: {
    description: 'a rule identical to an earlier rule of the same list (same tool, pattern and field)',
    severity: 'warning',
    category: 'rules',
    messages: {
      duplicate: 'this rule repeats `{{first}}`: same tool, pattern and field',
      first: 'first written here',
    },
    help: { duplicate: 'delete one of the two rules' },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      approver(approver) {
        if (effectiveMode(approver) !== 'pattern') return;
        for (const list of RULE_LISTS) {
          const seen = new Map<string, number>();
          const rules = rulesOf(approver, list);
          rules.forEach((rule, index) => {
            // Command rules repeat one another only with the same command, args and redirect too.
            const key = JSON.stringify([caseFold(rule.tool), rule.match, rule.field ?? null, rule.command ?? null, rule.args ?? null, rule.redirect ?? null]);
            const first = seen.get(key);
            if (first === undefined) {
              seen.set(key, index);
              return;
            }
            ctx.report({
              node: rule,
              messageId: 'duplicate',
              data: { first: ruleLabel(list, first) },
              related: [{ messageId: 'first', node: rules[first] }],
            });
          });
        }
      },
    };
  },
});
