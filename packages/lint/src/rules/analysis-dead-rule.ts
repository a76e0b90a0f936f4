import { createRule } from '../create-rule.ts';
import { BUDGET_OPTION, DEAD_RULE, ruleFindings, shortInput } from '../support/analysis-findings.ts';

/**
 * A rule whose pattern can never match a tool call. Proven on the rule's automaton: the pattern's
 * language (a search anywhere in the input) is intersected with every text the input can be, or
 * with a regular superset of JSON object texts; an empty intersection means the rule never fires.
 */
export default createRule({
  id: DEAD_RULE,
  meta: {
    description: 'a rule whose pattern matches no input at all, or no JSON object (every tool input is one)',
    severity: 'warning',
    category: 'analysis',
    messages: {
      budget:
        'the static analysis stopped at its time limit ({{timeMs}} ms of CPU time): {{unchecked}} of {{total}} rules were not checked whether their pattern can match',
      noInput: 'this {{list}} rule never applies: `{{pattern}}` matches no {{inputKind}} at all',
      noObject: 'this {{list}} rule never applies: `{{pattern}}` matches no JSON object, and every tool input is one',
      noObjectExample: 'this {{list}} rule never applies: `{{pattern}}` matches no JSON object, and every tool input is one (it matches only text like `{{example}}`)',
    },
    help: {
      budget: 'no finding about the rules left means nothing; split the policy, or raise `budgetMs` for this rule in `verdict.config.yaml`',
      noInput: 'the pattern contradicts itself (an anchor or a boundary that cannot hold where it stands); rewrite or delete the rule',
      noObject: 'patterns search the whole input text, which starts with `{`; drop `^`/`$` anchors, or use `field:` with `input: canonical` to match one value',
      noObjectExample: 'patterns search the whole input text, which starts with `{`; drop `^`/`$` anchors, or use `field:` with `input: canonical` to match one value',
    },
    docs: { recommended: true },
    options: BUDGET_OPTION,
  },
  create(ctx) {
    return {
      approver(approver) {
        for (const { finding: f, rule } of ruleFindings(approver, ctx, 'dead-rule')) {
          const data = {
            list: f.rule.list,
            pattern: rule.match,
            inputKind: approver.input === 'canonical' ? 'canonical input' : 'input',
          };
          if (f.scope === 'any-input') ctx.report({ span: rule.matchSpan ?? rule.span, messageId: 'noInput', data });
          else if (f.example === undefined) ctx.report({ span: rule.matchSpan ?? rule.span, messageId: 'noObject', data });
          else ctx.report({ span: rule.matchSpan ?? rule.span, messageId: 'noObjectExample', data: { ...data, example: shortInput(f.example) } });
        }
      },
    };
  },
});
