import { patternBranches } from '@verdict/analysis';
import { createRule } from '../create-rule.ts';

/** A branch that starts with a quoted JSON key: `"path":`, `\"path\"\s*:\s*"`. */
const KEY_PREFIX = /^\\?"([^"\\]+)\\?"(?:\\s[*+?]?|[ \t])*:(?:\\s[*+?]?|[ \t])*(?:\\?")?/;

export default createRule({
  id: 'regex/mixed-alternation',
  meta: {
    description: 'a top-level `|` where some branches start with a quoted JSON key and others do not',
    severity: 'warning',
    category: 'regex',
    messages: {
      mixed:
        'the top-level `|` in `{{pattern}}` makes `{{branch}}` a pattern of its own, matched anywhere in the input, not only in the `{{key}}` value',
    },
    help: { mixed: 'group the alternatives after the key: `{{fix}}`' },
    docs: { recommended: true },
    fixable: 'code',
  },
  create(ctx) {
    return {
      rule(rule, list) {
        if (rule.match === '' || !ctx.regex(rule.match).ok) return;
        const branches = patternBranches(rule.match);
        if (branches === null || branches.length < 2) return;
        const keyed = branches.map((b) => KEY_PREFIX.exec(b.text));
        const firstKeyed = keyed.find((m) => m !== null);
        if (firstKeyed === undefined || firstKeyed === null) return;
        const bare = branches.find((_, i) => keyed[i] === null);
        if (bare === undefined) return;
        const prefix = firstKeyed[0];
        const rests = branches.map((b, i) => (keyed[i]?.[0] === prefix ? b.text.slice(prefix.length) : b.text));
        const grouped = `${prefix}(?:${rests.join('|')})`;
        // Fix: only in an allow rule, where grouping can only allow less (in a deny or ask rule it
        // would deny or ask less, which a person must decide).
        const fix = list === 'allow' && ctx.regex(grouped).ok ? ctx.fixPattern(rule, grouped) : undefined;
        ctx.report({
          span: rule.matchSpan ?? rule.span,
          messageId: 'mixed',
          data: {
            pattern: rule.match,
            branch: bare.text,
            key: firstKeyed[1] ?? '',
            fix: grouped,
          },
          fix,
        });
      },
    };
  },
});
