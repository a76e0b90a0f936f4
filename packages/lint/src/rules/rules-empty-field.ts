import { createRule } from '../create-rule.ts';

export default createRule({
  id: 'rules/empty-field',
  meta: {
    description: 'a rule whose `field` is written but empty (`field: ""`, `field:`), which is no field at all',
    severity: 'error',
    category: 'rules',
    messages: {
      empty:
        'this {{list}} rule has an empty `field`, so its pattern searches the whole input instead of matching one value whole',
    },
    help: {
      empty: 'name the key the pattern is for (`field: command`), or delete `field` if the rule is meant to search the whole input',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      rule(rule, list) {
        // The compiler keeps the span of a `field` written empty, and drops the field itself: the
        // engine reads it as absent (semantics A4.3), so the pattern is searched for anywhere.
        if (rule.field !== undefined || rule.fieldSpan === undefined) return;
        ctx.report({ span: rule.fieldSpan, messageId: 'empty', data: { list } });
      },
    };
  },
});

