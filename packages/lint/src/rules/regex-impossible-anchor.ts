import { type Atom, canBeginWith, patternBranches } from '@verdict/analysis';
import { createRule } from '../create-rule.ts';

/**
 * Tool input is a JSON object: raw text starts with `{` and ends with `}` (JSON allows whitespace
 * around it); canonical text has no whitespace at all. Field rules are anchored on purpose and are
 * exempt; a `^` or `$` under `(?m)` also matches at line breaks, so it anchors nothing here.
 */
export default createRule({
  id: 'regex/impossible-anchor',
  meta: {
    description: 'a `^` or `$` anchor that tool input (a JSON object) can never satisfy',
    severity: 'error',
    category: 'regex',
    messages: {
      start: 'pattern `{{pattern}}` can never match: `^` anchors it to the start of the input, which is always `{`',
      end: 'pattern `{{pattern}}` can never match: `$` anchors it to the end of the input, which is always `}`',
      empty: 'pattern `{{pattern}}` matches only an empty input, and canonical input is never empty (it becomes `{}`)',
    },
    help: {
      start:
        'patterns search anywhere in the raw JSON text, so drop the `^`; to anchor on one value, use `field: <key>` with a pattern for the whole value',
      end: 'patterns search anywhere in the raw JSON text, so drop the `$`; to anchor on one value, use `field: <key>`',
      empty: 'drop the rule, or use `input: raw` if it is meant for empty inputs',
    },
    docs: { recommended: true },
    // The static proof says the rule is dead; this rule says why, at the same place.
    supersedes: ['analysis/dead-rule'],
    fixable: 'code',
  },
  create(ctx) {
    return {
      rule(rule, list, _index, approver) {
        if (rule.field !== undefined || rule.match === '') return;
        if (!ctx.regex(rule.match).ok) return;
        const canonical = approver.input === 'canonical';
        const branches = patternBranches(rule.match);
        if (branches === null) return;
        // Every branch must be dead for the rule to be dead.
        let verdict: 'start' | 'end' | 'empty' | undefined;
        for (const b of branches) {
          const dead = deadBranch(b.atoms, canonical);
          if (dead === undefined) return;
          verdict ??= dead;
        }
        if (verdict === undefined) return;
        const dropped = list === 'deny' && branches.length === 1 && verdict !== 'empty' ? withoutAnchor(rule.match, verdict) : undefined;
        const fix = dropped !== undefined && ctx.regex(dropped).ok ? ctx.fixPattern(rule, dropped) : undefined;
        ctx.report({ span: rule.matchSpan ?? rule.span, messageId: verdict, data: { pattern: rule.match }, fix });
      },
    };
  },
});

/**
 * The fix: the pattern without its `^` (or `$`), offered only for a deny rule with one branch
 * whose first (last) atom is that plain anchor. A pattern searches the whole input, so dropping the
 * anchor can only make the rule deny more, never less; in an allow or ask rule it would allow
 * (ask) more, which a person must decide, so those are reported without a fix.
 */
function withoutAnchor(pattern: string, which: 'start' | 'end'): string | undefined {
  const branches = patternBranches(pattern);
  if (branches === null || branches.length !== 1) return undefined;
  const body = branches[0]!.atoms.filter((a) => !isZeroWidth(a));
  const anchor = which === 'start' ? body[0] : body[body.length - 1];
  if (anchor === undefined || !(which === 'start' ? isStart(anchor) : isEnd(anchor)) || anchor.min !== 1 || anchor.max !== 1) return undefined;
  // Only the plain one-character spelling (`^`, `$`, not `\A`, `\z`), with no repetition after it.
  const { start, end } = anchor.node;
  if (pattern.slice(start, end) !== (which === 'start' ? '^' : '$') || /^[*+?{]/.test(pattern.slice(end))) return undefined;
  return pattern.slice(0, start) + pattern.slice(end);
}

const isStart = (a: Atom): boolean => a.kind === 'anchor-start' && a.line !== true;
const isEnd = (a: Atom): boolean => a.kind === 'anchor-end' && a.line !== true;
const isZeroWidth = (a: Atom): boolean => a.max === 0;

function deadBranch(list: readonly Atom[], canonical: boolean): 'start' | 'end' | 'empty' | undefined {
  const body = list.filter((a) => !isZeroWidth(a));
  const first = body[0];
  const last = body[body.length - 1];
  const anchoredStart = first !== undefined && isStart(first) && first.min >= 1;
  const anchoredEnd = last !== undefined && isEnd(last) && last.min >= 1;
  if (anchoredStart && anchoredEnd) {
    const inner = body.slice(1, -1);
    if (inner.every((a) => a.min === 0 || isStart(a) || isEnd(a))) {
      // `^$`, `^\s*$`: only an empty (or blank) input; raw input may be empty, canonical never is.
      return canonical ? 'empty' : undefined;
    }
  }
  if (anchoredStart && !canBeginWith(body.slice(1), ['{'], !canonical)) return 'start';
  if (anchoredEnd && !canBeginWith([...body.slice(0, -1)].reverse(), ['}'], !canonical)) return 'end';
  return undefined;
}
