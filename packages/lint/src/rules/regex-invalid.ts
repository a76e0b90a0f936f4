import { unsupportedConstruct } from '@verdict/analysis';
import { createRule } from '../create-rule.ts';

export default createRule({
  id: 'regex/invalid',
  meta: {
    description: 'a `match` pattern that does not compile as an RE2 (Go) regular expression',
    severity: 'error',
    category: 'regex',
    messages: { invalid: 'pattern `{{pattern}}` does not compile: {{error}}' },
    help: {
      invalid:
        'the reference agent still loads this policy, then denies every call with `approver: pattern compile: {{error}}`; check the pattern against the Go flavour of regex101.com',
    },
    docs: { recommended: true },
    supersedes: ['regex/invalid'],
  },
  create(ctx) {
    return {
      rule(rule) {
        if (rule.match === '' && rule.field === undefined) return;
        const compiled = ctx.regex(rule.match);
        if (compiled.ok) return;
        ctx.report({
          span: rule.matchSpan ?? rule.span,
          messageId: 'invalid',
          data: { pattern: rule.match, error: compiled.error },
        });
      },
    };
  },
});
