import { createRule } from '../create-rule.ts';
import { effectiveDefault, effectiveMode } from '../support/approver-facts.ts';

const FALLBACKS: Record<string, string> = { pattern: 'denied by pattern policy', deny_all: 'denied by policy' };
const UNHELPFUL = new Set(['denied', 'deny', 'no', 'blocked', 'forbidden', 'not allowed', 'denied by policy', 'denied by pattern policy', 'policy', 'error']);

export default createRule({
  id: 'approver/reason',
  meta: {
    description: 'a missing or unhelpful `reason`: the text the model reads when a call is denied',
    severity: 'warning',
    category: 'approver',
    messages: {
      missing: 'no `reason`: a denied call tells the model only `{{fallback}}`',
      unhelpful: 'the reason `{{reason}}` does not tell the model what it may do instead',
    },
    help: {
      missing:
        'say what is allowed and who to ask, e.g. `denied — this deployment only allows reads inside /workspace; ask the operator to widen the scope`',
      unhelpful: 'say what is allowed and who to ask, so the model can recover instead of retrying',
    },
    docs: { recommended: true },
    options: {
      minLength: { description: 'Reasons shorter than this many characters are flagged as unhelpful.', default: 20 },
    },
  },
  create(ctx) {
    const minLength = typeof ctx.options.minLength === 'number' ? ctx.options.minLength : 20;
    return {
      approver(a) {
        const mode = effectiveMode(a);
        if (mode !== 'pattern' && mode !== 'deny_all') return;
        // A pattern approver that can never deny needs no reason.
        if (mode === 'pattern' && a.deny.length === 0 && effectiveDefault(a) === 'allow') return;
        const fallback = FALLBACKS[mode] ?? '';
        // Only an empty reason falls back; a blank one is sent as written (and is unhelpful).
        if (a.reason === '') {
          ctx.report({
            ...(a.reasonSpan !== undefined ? { span: a.reasonSpan } : a.modeSpan !== undefined ? { span: a.modeSpan } : { path: ctx.approverPath() }),
            messageId: 'missing',
            data: { fallback },
          });
          return;
        }
        const r = a.reason.trim();
        if (UNHELPFUL.has(r.toLowerCase().replace(/[.!]+$/, '')) || r.length < minLength) {
          ctx.report({ span: a.reasonSpan, messageId: 'unhelpful', data: { reason: a.reason } });
        }
      },
    };
  },
});
