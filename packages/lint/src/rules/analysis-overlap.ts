import { rulesOf } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { findingsFor, label, OVERLAP, shortInput } from '../support/analysis-findings.ts';

/**
 * An allow rule and a deny rule that both match some call (shown, and confirmed by the engine);
 * with ask rules also an ask rule and a deny rule, or an allow rule and an ask rule (deny > ask > allow).
 * Not a mistake in itself (a deny carving an exception out of an allow is the usual design), so
 * the rule is off by default (severity `off`): turn it on, as `info`, to review where the exceptions are.
 */
export default createRule({
  id: OVERLAP,
  meta: {
    description: 'an allow rule and a deny rule that both match some call (the deny rule wins), with an example call',
    severity: 'off',
    category: 'analysis',
    messages: {
      overlap: 'this allow rule and deny rule `{{deny}}` ({{denyLabel}}) both match `{{tool}}` with input `{{example}}`; the deny rule wins',
      overlapAsk: 'this {{list}} rule and {{winner}} rule `{{deny}}` ({{denyLabel}}) both match `{{tool}}` with input `{{example}}`; the {{winner}} rule wins',
      denyRule: 'the deny rule that wins',
      askRule: 'the ask rule that wins',
    },
    docs: { recommended: false },
  },
  create(ctx) {
    return {
      approver(approver) {
        for (const f of findingsFor(approver, ctx)) {
          if (f.kind !== 'overlap') continue;
          // `allow` is the rule that loses (allow or ask), `deny` the one that wins (deny or ask).
          const rule = rulesOf(approver, f.allow.list)[f.allow.index];
          const deny = rulesOf(approver, f.deny.list)[f.deny.index];
          if (rule === undefined || deny === undefined) continue;
          const plain = f.allow.list === 'allow' && f.deny.list === 'deny';
          ctx.report({
            span: rule.matchSpan ?? rule.span,
            messageId: plain ? 'overlap' : 'overlapAsk',
            data: {
              deny: deny.match === '' ? '(any)' : deny.match,
              denyLabel: label(f.deny),
              tool: f.witness.toolName,
              example: shortInput(f.witness),
              list: f.allow.list,
              winner: f.deny.list,
            },
            related: [{ messageId: f.deny.list === 'ask' ? 'askRule' : 'denyRule', node: deny }],
          });
        }
      },
    };
  },
});
