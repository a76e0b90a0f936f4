import { type UnsupportedConstruct, unsupportedConstruct } from '@verdict/analysis';
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
    fixable: 'code',
    supersedes: ['regex/invalid'],
  },
  create(ctx) {
    return {
      rule(rule) {
        if (rule.match === '') return;
        if (ctx.regex(rule.match).ok) return;
        const found = unsupportedConstruct(rule.match);
        if (found === undefined) return;
        const fixed = respellAll(rule.match, found, (p) => ctx.regex(p).ok);
        ctx.report({
          span: rule.matchSpan ?? rule.span,
          messageId: found.kind,
          data: { text: found.text, pattern: rule.match },
          fix: fixed !== undefined ? ctx.fixPattern(rule, fixed) : undefined,
        });
      },
    };
  },
});

/**
 * The pattern with the reported construct and every later one that has an RE2 spelling respelled,
 * in one fix (a pattern of twenty `\\u` escapes is one pass, not twenty); it stops at the first
 * construct without one, which stays reported. `undefined` when the reported one has none.
 */
function respellAll(pattern: string, first: UnsupportedConstruct, compiles: (p: string) => boolean): string | undefined {
  let out = pattern;
  let found: UnsupportedConstruct | undefined = first;
  // Each step respells one construct; a pattern holds fewer constructs than characters.
  for (let steps = 0; found !== undefined && steps <= pattern.length; steps++) {
    const respelled = respell(found);
    if (respelled === undefined) break;
    out = out.slice(0, found.offset) + respelled + out.slice(found.offset + found.text.length);
    if (compiles(out)) break;
    found = unsupportedConstruct(out);
  }
  return out === pattern ? undefined : out;
}

/**
 * The RE2 spelling of a construct, where there is exactly one: `\u263a` is `\x{263a}`, `\cA` is
 * `\x01`, `(?>` is `(?:` and a possessive `*+` is `*` (RE2 never backtracks, so it matches what
 * the group or the repeat matches). Lookaround, backreferences, `\Z` (end, or before a final
 * newline) and repeat counts over 1000 have no equivalent: no fix.
 */
function respell(found: UnsupportedConstruct): string | undefined {
  switch (found.kind) {
    case 'atomic':
      return '(?:';
    case 'possessive':
      return found.text.slice(0, -1);
    case 'unicodeEscape': {
      const m = /^\\u([0-9a-fA-F]{4})$/.exec(found.text);
      // A lone surrogate is no character RE2 can match.
      if (m === null || /^d[89a-f]/i.test(m[1] ?? '')) return undefined;
      return `\\x{${m[1]}}`;
    }
    case 'controlEscape': {
      const m = /^\\c([A-Za-z])$/.exec(found.text);
      if (m === null) return undefined;
      return `\\x${((m[1] ?? 'A').toUpperCase().charCodeAt(0) ^ 0x40).toString(16).padStart(2, '0')}`;
    }
    default:
      return undefined;
  }
}
