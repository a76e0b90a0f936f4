import { HumanDecisionModeUnsupportedError } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { advertisedModesText, capabilityErrors, fieldNode, policyOf } from '../support/policy-facts.ts';

export default createRule({
  id: 'policy/mode-unsupported',
  meta: {
    description: 'an approval mode (`permission`, `plan_review`, `question`) the driver does not advertise (the SDK rejects the run)',
    severity: 'error',
    category: 'policy',
    messages: {
      unsupported: 'driver `{{driver}}` has no `{{mode}}` mode for `{{kind}}` requests',
    },
    help: {
      unsupported:
        'the SDK refuses to start the run (`{{sdk}}`); the driver advertises {{supported}} for `{{kind}}`, or leave it unset to use the SDK default',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      policy(ir) {
        const policy = policyOf(ctx);
        const descriptor = ctx.descriptor;
        if (policy === undefined || descriptor === undefined) return;
        for (const err of capabilityErrors(policy, descriptor)) {
          if (!(err instanceof HumanDecisionModeUnsupportedError)) continue;
          ctx.report({
            node: fieldNode(ir, err.kind) ?? ir,
            messageId: 'unsupported',
            data: {
              driver: err.driver,
              kind: err.kind,
              mode: err.mode,
              sdk: err.message,
              supported: advertisedModesText(descriptor, err.kind),
            },
          });
        }
      },
    };
  },
});
