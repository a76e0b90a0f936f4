import { LanguageCache, and, atom, findWitness as searchLanguage, makeBudget, ruleMatchesInput, type SearchDfa } from '@verdict/analysis';
import { createRule } from '../create-rule.ts';

/** Keys whose value a tool hands to a shell (compared case-insensitively). */
export const SHELL_FIELDS = ['command', 'commands', 'cmd', 'cmdline', 'command_line', 'commandline', 'script', 'shell', 'shell_command', 'bash_command'];

interface Separator {
  char: string;
  /** How a message names it. */
  name: string;
  /** A separator an author writes into a class on purpose; a line break is the one forgotten. */
  explicit: boolean;
}

const SEPARATORS: readonly Separator[] = [
  { char: '\n', name: 'a newline (`\\n`)', explicit: false },
  { char: '\r', name: 'a carriage return (`\\r`)', explicit: false },
  { char: ';', name: '`;`', explicit: true },
  { char: '&', name: '`&`', explicit: true },
  { char: '|', name: '`|`', explicit: true },
  { char: '`', name: '`` ` ``', explicit: true },
  { char: '$', name: '`$`', explicit: true },
];

/** `(?s).*X.*`: a value holding the separator somewhere. */
const containing = (s: Separator): string => `(?s).*\\x{${s.char.codePointAt(0)?.toString(16)}}.*`;

export default createRule({
  id: 'rules/shell-separator',
  meta: {
    description:
      'an allow rule on a shell command field whose pattern keeps some command separators out (`;`, `&`, `|`…) but lets others in, a newline most often',
    severity: 'error',
    category: 'rules',
    messages: {
      admits:
        'this allow rule on `{{field}}` keeps out {{excluded}} but lets in {{admitted}}, which a shell also runs as a command separator, e.g. `{{example}}`',
    },
    help: {
      admits: 'name every separator in the class, line breaks included: `[^;&|`$<>\\n\\r]`',
    },
    docs: { recommended: true },
    // The same hole in an allow rule, said once (as an error) where both rules see it.
    supersedes: ['rules/prefer-command-rule'],
    options: {
      fields: { description: 'Extra field names whose value is a shell command (compared case-insensitively).', default: [] },
    },
  },
  create(ctx) {
    const extra = Array.isArray(ctx.options.fields) ? ctx.options.fields.filter((f): f is string => typeof f === 'string') : [];
    const fields = new Set([...SHELL_FIELDS, ...extra.map((f) => f.toLowerCase())]);
    let cache: LanguageCache | undefined;
    return {
      rule(rule, list, _index, approver) {
        const field = rule.field;
        if (list !== 'allow' || field === undefined || !fields.has(field.toLowerCase()) || !ctx.regexCache.get(rule.match).ok) return;
        cache ??= new LanguageCache();
        // The rule's value language (`^(?:match)$` over the decoded value), from the analysis module.
        const value = cache.valueDfa(field, rule.match);
        if (value === null) return;
        const admitted: { sep: Separator; witness: string }[] = [];
        const excluded: Separator[] = [];
        for (const sep of SEPARATORS) {
          const holding = cache.valueDfa('\u0000separator', containing(sep));
          if (holding === null) return;
          const r = witnessOf(value, holding);
          if (r === 'limit') return; // undecided: say nothing rather than guess
          if (r === null) excluded.push(sep);
          else admitted.push({ sep, witness: r });
        }
        // No separator named on purpose: not a class meant to stop chaining (rules/shell-injection's business).
        if (admitted.length === 0 || !excluded.some((s) => s.explicit)) return;
        // Every witness is decided by the engine before it is shown.
        const mode = approver.input;
        const matches = (v: string): boolean => ruleMatchesInput(ctx.regexCache, rule, 'allow', mode, JSON.stringify({ [field]: v })) === true;
        const confirmed = admitted.filter((a) => matches(a.witness));
        const first = confirmed[0];
        if (first === undefined) return;
        const example = JSON.stringify({ [field]: withPayload(first.witness, first.sep.char, matches) });
        ctx.report({
          span: rule.matchSpan ?? rule.span,
          messageId: 'admits',
          data: { field, excluded: names(excluded.filter((s) => s.explicit)), admitted: names(confirmed.map((a) => a.sep)), example },
        });
      },
    };
  },
});

/** A shortest value in both languages, `null` when there is none, `'limit'` when the search gave up. */
function witnessOf(a: SearchDfa, b: SearchDfa): string | null | 'limit' {
  const r = searchLanguage(and(atom(a), atom(b)), makeBudget());
  return r.status === 'witness' ? r.text : r.status === 'empty' ? null : 'limit';
}

/** The witness with a command after its separator (`… \nid`), when the rule still matches it. */
function withPayload(witness: string, sep: string, matches: (v: string) => boolean): string {
  const at = witness.indexOf(sep);
  const longer = `${witness.slice(0, at + 1)}id${witness.slice(at + 1)}`;
  return at >= 0 && matches(longer) ? longer : witness;
}

function names(seps: readonly Separator[]): string {
  const n = seps.map((s) => s.name);
  return n.length <= 1 ? (n[0] ?? '') : `${n.slice(0, -1).join(', ')} and ${n[n.length - 1]}`;
}
