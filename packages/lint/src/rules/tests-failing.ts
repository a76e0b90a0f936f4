import { compileApprover, ruleLabel } from '@verdict/engine';
import type { CompiledApprover } from '@verdict/engine';
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
  },
  create(ctx) {
    let approver: CompiledApprover | undefined;
    let built = false;
    const get = (): CompiledApprover | undefined => {
      if (!built) {
        built = true;
        // Only a clean approver is worth testing; load errors are reported by the compiler.
        const a = ctx.ir.approver;
        if (a !== undefined) {
          const r = compileApprover(a);
          if (r.issues.length === 0) approver = r.approver;
        }
      }
      return approver;
    };
    return {
      test(t) {
        const a = get();
        if (a === undefined) return;
        const e = a.explain({ toolName: t.tool, input: t.input });
        const input = t.input.length > 80 ? `\`${t.input.slice(0, 77)}...\`` : `\`${t.input}\``;
        const actualRule = ruleLabel(e.rule);
        if (e.decision !== t.expect) {
          ctx.report({
            node: t,
            messageId: 'decision',
            data: {
              expected: t.expect,
              actual: e.decision,
              tool: t.tool,
              input,
              by: e.rule !== null ? `\`${actualRule}\`` : e.by === 'default' ? 'the default' : `\`${e.by}\``,
            },
          });
          return;
        }
        if (t.reason !== undefined && t.reason !== e.reason) {
          ctx.report({ node: t, messageId: 'reason', data: { expected: t.reason, actual: e.reason, tool: t.tool, input } });
          return;
        }
        if (t.rule !== undefined && t.rule !== actualRule && !(t.rule === 'default' && e.by !== 'rule')) {
          ctx.report({ node: t, messageId: 'rule', data: { expected: t.rule, actual: actualRule, tool: t.tool, input } });
        }
      },
    };
  },
});
