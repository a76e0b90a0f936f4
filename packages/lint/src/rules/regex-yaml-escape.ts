import { createRule } from '../create-rule.ts';

/** Characters that, after a backslash, make a regex escape a YAML double-quoted string would need `\\` for. */
const ESCAPABLE = /[sSdDwWbBAzpPx.()[\]{}*+?|^$/"-]/;

const STYLE_NAMES: Record<string, string> = {
  PLAIN: 'an unquoted',
  QUOTE_SINGLE: 'a single-quoted',
  BLOCK_LITERAL: 'a block',
  BLOCK_FOLDED: 'a folded block',
};

export default createRule({
  id: 'regex/yaml-escape',
  meta: {
    description: 'a doubled backslash in a YAML string that keeps backslashes as written (single-quoted, plain, block)',
    severity: 'warning',
    category: 'regex',
    messages: {
      doubled:
        'in {{style}} YAML string `\\\\` stays two backslashes, so `{{escape}}` matches a literal backslash followed by `{{next}}`',
    },
    help: {
      doubled:
        'write `\\{{next}}` with one backslash here (only double-quoted YAML strings need it doubled), or use a double-quoted string',
    },
    docs: { recommended: true },
    // The static proof says the rule is dead; this rule says why, at the same place.
    supersedes: ['analysis/dead-rule'],
    fixable: 'code',
  },
  create(ctx) {
    if (ctx.syntax !== 'yaml') return;
    return {
      rule(rule) {
        if (rule.match === '' || rule.matchSpan === undefined) return;
        const p = rule.match;
        // The pattern text is checked first: most patterns have no doubled backslash, and the
        // scalar's style needs the YAML tree.
        if (!p.includes('\\\\')) return;
        for (let i = 0; i < p.length; i++) {
          if (p[i] !== '\\') continue;
          if (p[i + 1] === '\\') {
            const next = p[i + 2];
            if (next !== undefined && ESCAPABLE.test(next)) {
              const style = ctx.scalarStyleAt(rule.matchSpan);
              if (style === undefined || style === 'QUOTE_DOUBLE') return;
              const halved = halve(p);
              ctx.report({
                span: rule.matchSpan,
                messageId: 'doubled',
                data: { style: STYLE_NAMES[style] ?? 'this', escape: `\\\\${next}`, next },
                fix: halved !== undefined ? ctx.fixPattern(rule, halved) : undefined,
              });
              return;
            }
          }
          i++;
        }
      },
    };
  },
});

/**
 * The pattern as its author meant it, written for a double-quoted string: each `\\` before a
 * regex escape letter (`\\s`, `\\.`) halved, in the same quoting. Only when that reading is the
 * only one: a single backslash stays (it already escapes here), and a pattern with `\\` before
 * anything else (`\\n`, which may mean a literal backslash in raw JSON) or three or more
 * backslashes in a row gets no fix.
 */
function halve(p: string): string | undefined {
  // Inside `\Q…\E` backslashes are literal text: no fix.
  if (p.includes('\\Q')) return undefined;
  let out = '';
  for (let i = 0; i < p.length; i++) {
    if (p[i] !== '\\') {
      out += p[i];
      continue;
    }
    let run = 1;
    while (p[i + run] === '\\') run++;
    const next = p[i + run];
    if (run === 1) {
      out += next === undefined ? '\\' : `\\${next}`;
      i++;
      continue;
    }
    if (run !== 2 || next === undefined || !ESCAPABLE.test(next)) return undefined;
    out += `\\${next}`;
    i += 2;
  }
  return out;
}
