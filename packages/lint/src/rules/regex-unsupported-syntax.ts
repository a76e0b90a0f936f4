import { unsupportedConstruct } from '@verdict/analysis';
import { createRule } from '../create-rule.ts';

export default createRule({
  id: 'regex/unsupported-syntax',
  meta: {
    description: 'a pattern using Perl/PCRE syntax RE2 lacks (lookaround, backreferences, possessive quantifiers…)',
    severity: 'error',
    category: 'regex',
    messages: {
      lookahead: 'RE2 has no lookahead: `{{text}}` in `{{pattern}}` does not compile',
      lookbehind: 'RE2 has no lookbehind: `{{text}}` in `{{pattern}}` does not compile',
      atomic: 'RE2 has no atomic groups: `{{text}}` in `{{pattern}}` does not compile',
      backreference: 'RE2 has no backreferences: `{{text}}` in `{{pattern}}` does not compile',
      possessive: 'RE2 has no possessive quantifiers: `{{text}}` in `{{pattern}}` does not compile',
      bigZ: 'RE2 has no `\\Z`: `{{pattern}}` does not compile',
      unicodeEscape: 'RE2 has no `\\u` escapes: `{{text}}` in `{{pattern}}` does not compile',
      controlEscape: 'RE2 has no `\\c` escapes: `{{text}}` in `{{pattern}}` does not compile',
      repeatCount: 'RE2 allows at most 1000 repetitions: `{{text}}` in `{{pattern}}` does not compile',
    },
    help: {
      lookahead:
        'match the text itself instead; to exclude something, add a deny rule for it (deny always wins over allow)',
      lookbehind: 'match the preceding text as part of the pattern, or add a deny rule for what must not precede it',
      atomic: 'RE2 never backtracks, so `(?>…)` can simply be `(?:…)`',
      backreference: 'spell the repeated text out, or list the alternatives with `|`',
      possessive: 'RE2 never backtracks, so drop the extra `+`: `a*+` is just `a*`',
      bigZ: 'write `\\z` (end of text) or `$`',
      unicodeEscape: 'write `\\x{263a}` for a code point',
      controlEscape: 'write the control character as `\\x01`…`\\x1f`',
      repeatCount: 'use an open repetition such as `{1000,}` or `+`',
    },
    docs: { recommended: true },
    supersedes: ['regex/invalid'],
  },
  create(ctx) {
    return {
      rule(rule) {
        if (rule.match === '') return;
        if (ctx.regex(rule.match).ok) return;
        const found = unsupportedConstruct(rule.match);
        if (found === undefined) return;
        ctx.report({
          span: rule.matchSpan ?? rule.span,
          messageId: found.kind,
          data: { text: found.text, pattern: rule.match },
        });
      },
    };
  },
});
