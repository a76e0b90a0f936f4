import { createRule } from '../create-rule.ts';
import { findingsFor, label, OVERLAP, shortInput } from '../analysis/lint-support.ts';

/**
 * An allow rule and a deny rule that both match some call (shown, and confirmed by the engine).
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
      denyRule: 'the deny rule that wins',
    },
    docs: { recommended: false },
  },
  create(ctx) {
    return {
      approver(approver) {
        for (const f of findingsFor(approver, ctx)) {
          if (f.kind !== 'overlap') continue;
          const rule = approver.allow[f.allow.index];
          const deny = approver.deny[f.deny.index];
          if (rule === undefined || deny === undefined) continue;
          ctx.report({
            span: rule.matchSpan ?? rule.span,
            messageId: 'overlap',
            data: { deny: deny.match === '' ? '(any)' : deny.match, denyLabel: label(f.deny), tool: f.witness.toolName, example: shortInput(f.witness) },
            related: [{ messageId: 'denyRule', node: deny }],
          });
        }
      },
    };
  },
});
