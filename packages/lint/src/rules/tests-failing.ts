import { decidedBy, inlineTestMismatches } from '@verdict/engine';
import { createRule } from '../create-rule.ts';

export default createRule({
  id: 'tests/failing',
  meta: {
    description: 'an inline example under `tests:` that the policy does not decide as it expects',
    severity: 'error',
    category: 'tests',
    messages: {
      decision: 'expected `{{expected}}` for `{{tool}}` {{input}}, but the approver decides `{{actual}}`',
      reason: 'expected the reason `{{expected}}` for `{{tool}}` {{input}}, but the approver gives `{{actual}}`',
      rule: 'expected `{{expected}}` to decide `{{tool}}` {{input}}, but `{{actual}}` does',
    },
    help: {
      decision: 'decided by {{by}}; run `verdict explain` with this input to see every rule that matched',
      reason: 'fix the expected reason or the approver’s `reason`',
      rule: 'fix the expected rule, or reorder the rules',
    },
    docs: { recommended: true },
    // The file's approver as `verdict test` compiles it, command rules judged: the two agree.
    needs: ['approver'],
  },
  create(ctx) {
    return {
      test(t) {
        // Only a clean approver is worth testing; load errors are reported by the compiler.
        const a = ctx.services.approver;
        if (a === null) return;
        const e = a.explain({ toolName: t.tool, input: t.input });
        const input = t.input.length > 80 ? `\`${t.input.slice(0, 77)}...\`` : `\`${t.input}\``;
        // The first way the test fails, as `verdict test` checks it.
        const m = inlineTestMismatches(e, t)[0];
        if (m === undefined) return;
        if (m.kind === 'decision') {
          const by = e.rule !== null ? `\`${decidedBy(e)}\`` : e.by === 'default' ? 'the default' : `\`${e.by}\``;
          ctx.report({ node: t, messageId: 'decision', data: { expected: m.expected, actual: m.actual, tool: t.tool, input, by } });
        } else if (m.kind === 'reason') {
          ctx.report({ node: t, messageId: 'reason', data: { expected: m.expected, actual: m.actual, tool: t.tool, input } });
        } else {
          ctx.report({ node: t, messageId: 'rule', data: { expected: m.expected, actual: m.actual, tool: t.tool, input } });
        }
      },
    };
  },
});
