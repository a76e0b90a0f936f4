import { createRule } from '../create-rule.ts';
import { isCatchAll, sameTool } from '../support/approver-facts.ts';
import { BUDGET_OPTION, findingsFor, label, SHADOWED_RULE, shortInput } from '../analysis/lint-support.ts';

/**
 * An allow rule every call of which a deny rule of the same tool (or of every tool) also matches:
 * deny wins, so the allow rule never allows anything. Proven by automata: the allow rule's language
 * minus the union of the deny rules' languages is empty on JSON object inputs.
 */
export default createRule({
  id: SHADOWED_RULE,
  meta: {
    description: 'an allow rule whose every match is denied by deny rules for the same tool',
    severity: 'warning',
    category: 'analysis',
    messages: {
      budget:
        'the static analysis stopped at its time limit ({{timeMs}} ms of CPU time): {{unchecked}} of {{total}} allow rules were not checked whether deny rules shadow them',
      shadowed: 'this allow rule never allows anything: every call it matches is also matched by {{by}}, and deny wins',
      coveredBy: 'deny rule that covers `{{pattern}}`',
    },
    help: {
      budget: 'no finding about the rules left means nothing; split the policy, or raise `budgetMs` for this rule in `verdict.config.yaml`',
      shadowed: 'for example `{{tool}}` with input `{{example}}` is denied; narrow the deny rule or delete this allow rule',
    },
    docs: { recommended: true },
    options: BUDGET_OPTION,
  },
  create(ctx) {
    return {
      approver(approver) {
        for (const f of findingsFor(approver, ctx)) {
          if (f.kind === 'budget' && f.question === 'shadowed-rule') {
            ctx.report({ node: approver, messageId: 'budget', data: { timeMs: f.timeMs, unchecked: f.unchecked, total: f.total } });
            continue;
          }
          if (f.kind !== 'shadowed-rule') continue;
          const rule = approver.allow[f.rule.index];
          if (rule === undefined) continue;
          // A deny rule that matches every call of the tool is `rules/unreachable`'s to report.
          if (
            ctx.isRuleEnabled('rules/unreachable') &&
            approver.deny.some((d) => (d.tool === '' || sameTool(d.tool, rule.tool)) && isCatchAll(d, ctx.regexCache))
          ) {
            continue;
          }
          const by = f.by.map((l) => {
            const d = approver.deny[l.index];
            return d === undefined ? label(l) : `\`${d.match === '' ? '(any)' : d.match}\` (${label(l)})`;
          });
          ctx.report({
            span: rule.matchSpan ?? rule.span,
            messageId: 'shadowed',
            data: {
              by: by.join(', '),
              tool: f.example?.toolName ?? rule.tool,
              example: f.example === undefined ? '' : shortInput(f.example),
            },
            related: f.by.map((l) => ({ messageId: 'coveredBy' as const, node: approver.deny[l.index], data: { pattern: rule.match } })),
          });
        }
      },
    };
  },
});
