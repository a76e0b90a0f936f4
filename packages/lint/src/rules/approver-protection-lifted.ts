import { PROTECTIONS } from '@verdict/engine';
import { createRule } from '../create-rule.ts';

/**
 * A policy that lifts a built-in protected path (docs/protections.md): the rules then decide writes
 * to it, so an allowed call may switch the guard off or make an allowed program run code.
 */
export default createRule({
  id: 'approver/protection-lifted',
  meta: {
    description: '`protections: {lift: […]}` lifts a built-in protected path: a write to it is then decided by the rules',
    severity: 'warning',
    category: 'approver',
    messages: {
      lifted: '`{{name}}` is lifted: a call the rules allow may write {{what}}',
    },
    help: {
      lifted:
        'every policy protects these paths because one allowed write to them switches the hook off or makes an allowed program run code (docs/protections.md); lift one only for a session meant to change it, and narrow the rules that allow writing it',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      approver(a) {
        for (const name of a.protections?.lift ?? []) {
          const p = PROTECTIONS.find((x) => x.name === name);
          ctx.report({
            ...(a.protectionsSpan !== undefined ? { span: a.protectionsSpan } : { path: [...ctx.approverPath(), 'protections'] }),
            messageId: 'lifted',
            data: { name, what: p?.what ?? 'a protected path' },
          });
        }
      },
    };
  },
});
