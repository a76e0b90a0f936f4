import type { Span } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { effectiveMode } from '../support/approver-facts.ts';

export default createRule({
  id: 'rules/ignored-by-mode',
  meta: {
    description: '`default`, `allow`, `deny` or `ask` written under a mode that ignores them (`allow_all`, `deny_all`, or no mode)',
    severity: 'warning',
    category: 'rules',
    messages: {
      ignored: 'mode `{{mode}}` ignores `{{key}}`: every call is {{outcome}}',
      noMode: 'without `mode`, the approver allows every call and ignores `{{key}}`',
    },
    help: {
      ignored: 'set `mode: pattern` for `{{key}}` to apply, or delete `{{key}}`',
      noMode: 'add `mode: pattern` for `{{key}}` to apply',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      approver(a) {
        const mode = effectiveMode(a);
        if (mode === 'pattern' || mode === undefined) return;
        const noMode = a.mode.trim() === '';
        const outcome = mode === 'allow_all' ? 'allowed' : 'denied';
        const base = ctx.approverPath();
        const report = (key: string, span: Span | undefined): void => {
          ctx.report({
            ...(span !== undefined ? { span } : { path: [...base, key], atKey: true }),
            messageId: noMode ? 'noMode' : 'ignored',
            data: { mode: a.mode.trim(), key, outcome },
          });
        };
        if (a.default !== '' || a.defaultSpan !== undefined) report('default', a.defaultSpan);
        if (a.allow.length > 0) report('allow', ctx.syntax === 'verdict' ? a.allow[0]?.span : undefined);
        if (a.deny.length > 0) report('deny', ctx.syntax === 'verdict' ? a.deny[0]?.span : undefined);
        if (a.ask !== undefined && a.ask.length > 0) report('ask', ctx.syntax === 'verdict' ? a.ask[0]?.span : undefined);
      },
    };
  },
});

