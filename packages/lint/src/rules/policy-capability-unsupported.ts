import { PolicyCapabilityUnsupportedError } from '@verdict/engine';
import { createRule } from '../create-rule.ts';
import { capabilityErrors, fieldNode, policyOf } from '../support/policy-facts.ts';

export default createRule({
  id: 'policy/capability-unsupported',
  meta: {
    description: 'a `sandbox`, `web_search` or `browser` value the driver does not model (the SDK rejects the run)',
    severity: 'error',
    category: 'policy',
    messages: {
      unsupported: 'driver `{{driver}}` does not support `{{dimension}}: {{value}}`',
    },
    help: {
      unsupported:
        'the SDK refuses to start the run (`{{sdk}}`); remove the key to inherit the driver’s behaviour, or pick a driver that supports it',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      policy(ir) {
        const policy = policyOf(ctx);
        if (policy === undefined || ctx.descriptor === undefined) return;
        for (const err of capabilityErrors(policy, ctx.descriptor)) {
          if (!(err instanceof PolicyCapabilityUnsupportedError)) continue;
          ctx.report({
            node: fieldNode(ir, err.dimension) ?? ir,
            messageId: 'unsupported',
            data: { driver: err.driver, dimension: err.dimension, value: err.value, sdk: err.message },
          });
        }
      },
    };
  },
});
