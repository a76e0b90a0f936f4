import { findInputWitness, ruleMatchesInput, stringKeys } from '@verdict/analysis';
import { createRule } from '../create-rule.ts';

/** Whitespace between two words of a decoded value: what a shell splits words on. */
const BETWEEN_WORDS = /(?<=\S)[ \t]+(?=\S)/g;

export default createRule({
  id: 'rules/canonical-whitespace',
  meta: {
    description:
      'a plain deny rule, under `input: canonical`, that needs a space between words and misses the same command with a tab: canonical text keeps `\\t` escaped',
    severity: 'warning',
    category: 'rules',
    messages: {
      tab: 'this deny rule misses the same input with a tab between words, e.g. `{{example}}`: canonical text writes a tab as `\\t`, which `\\s` and ` ` do not match, and a shell splits words on it',
    },
    help: {
      tab: 'match the decoded value with a `field` rule (`field: {{key}}`, where `\\s` sees the tab), or allow the escape between words: `(?:\\s|\\\\t)+`',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      rule(rule, list, _index, approver) {
        if (list !== 'deny' || approver.input !== 'canonical' || rule.field !== undefined || rule.match === '') return;
        const witness = findInputWitness(ctx.regexCache, rule, 'deny', 'canonical');
        if (witness === undefined) return;
        for (const key of stringKeys(witness.value)) {
          const value = witness.value[key] as string;
          const tabbed = value.replace(BETWEEN_WORDS, '\t');
          if (tabbed === value) continue;
          // JSON.stringify writes the tab as `\t`, as the canonical text does: the engine decides it.
          const example = JSON.stringify({ ...witness.value, [key]: tabbed });
          if (ruleMatchesInput(ctx.regexCache, rule, 'deny', 'canonical', example) === false) {
            ctx.report({ span: rule.matchSpan ?? rule.span, messageId: 'tab', data: { example, key } });
            return;
          }
        }
      },
    };
  },
});
