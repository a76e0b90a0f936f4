import { rulesOf } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { isCatchAll, sameTool } from '../support/approver-facts.ts';
import { BUDGET_OPTION, label, ruleFindings, SHADOWED_RULE, shortInput } from '../support/analysis-findings.ts';

/**
 * An allow rule every call of which a deny rule of the same tool (or of every tool) also matches:
 * deny wins, so the allow rule never allows anything. Proven by automata: the allow rule's language
 * minus the union of the deny rules' languages is empty on JSON object inputs. With ask rules
 * (deny > ask > allow) an allow rule can be covered by deny and ask rules together, and an ask
 * rule by deny rules.
 */
export default createRule({
  id: SHADOWED_RULE,
  meta: {
    description: 'an allow rule whose every match is denied by deny rules (or asked about by ask rules) for the same tool; an ask rule whose every match is denied',
    severity: 'warning',
    category: 'analysis',
    messages: {
      budget:
        'the static analysis stopped at its time limit ({{timeMs}} ms of CPU time): {{unchecked}} of {{total}} allow rules were not checked whether deny rules shadow them',
      shadowed: 'this allow rule never allows anything: every call it matches is also matched by {{by}}, and deny wins',
      shadowedByAsk: 'this allow rule never allows anything: every call it matches is also matched by {{by}}, and deny and ask win over allow',
      shadowedAsk: 'this ask rule never asks: every call it matches is also matched by {{by}}, and deny wins over ask',
      coveredBy: 'deny rule that covers `{{pattern}}`',
      coveredByAsk: 'ask rule that covers `{{pattern}}`',
    },
    help: {
      budget: 'no finding about the rules left means nothing; split the policy, or raise `budgetMs` for this rule in `verdict.config.yaml`',
      shadowed: 'for example `{{tool}}` with input `{{example}}` is denied; narrow the deny rule or delete this allow rule',
      shadowedByAsk: 'for example `{{tool}}` with input `{{example}}` is {{decided}}; narrow those rules or delete this allow rule',
      shadowedAsk: 'for example `{{tool}}` with input `{{example}}` is denied; narrow the deny rule or delete this ask rule',
    },
    docs: { recommended: true },
    options: BUDGET_OPTION,
  },
  create(ctx) {
    return {
      approver(approver) {
        for (const { finding: f, rule } of ruleFindings(approver, ctx, 'shadowed-rule')) {
          // A rule that wins over this one and matches every call of the tool is `rules/unreachable`'s to report.
          const winners = f.rule.list === 'allow' ? [...approver.deny, ...(approver.ask ?? [])] : approver.deny;
          if (
            ctx.isRuleEnabled('rules/unreachable') &&
            winners.some((d) => (d.tool === '' || sameTool(d.tool, rule.tool)) && isCatchAll(d, ctx.regexCache))
          ) {
            continue;
          }
          const by = f.by.map((l) => {
            const d = rulesOf(approver, l.list)[l.index];
            return d === undefined ? label(l) : `\`${d.match === '' ? '(any)' : d.match}\` (${label(l)})`;
          });
          const byAsk = f.by.some((l) => l.list === 'ask');
          const decided = f.by.every((l) => l.list === 'ask') ? 'asked about' : 'asked about or denied';
          ctx.report({
            span: rule.matchSpan ?? rule.span,
            messageId: f.rule.list === 'ask' ? 'shadowedAsk' : byAsk ? 'shadowedByAsk' : 'shadowed',
            data: {
              by: by.join(', '),
              tool: f.example?.toolName ?? rule.tool,
              example: f.example === undefined ? '' : shortInput(f.example),
              decided,
            },
            related: f.by.map((l) => ({
              messageId: l.list === 'ask' ? ('coveredByAsk' as const) : ('coveredBy' as const),
              node: rulesOf(approver, l.list)[l.index],
              data: { pattern: rule.match },
            })),
          });
        }
      },
    };
  },
});
