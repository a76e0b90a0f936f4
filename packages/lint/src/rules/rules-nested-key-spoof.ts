import { findInputWitness, ruleMatchesInput, stringKeys } from '@verdict/analysis';
import { createRule } from '../create-rule.ts';

/** A pattern that names a JSON key: `"path":`, `\"path\"\s*:`. */
const KEY_IN_PATTERN = /\\?"([^"\\]+)\\?"(?:\\s[*+?]?|[ \t])*:/;
/** An unquoted well-known key name followed by a colon somewhere after it: `path.{0,4}:`. */
const BARE_KEY_IN_PATTERN = /(?:^|[^A-Za-z0-9_])(path|file_path|command|cmd|url|file|filename)(?![A-Za-z0-9_]).{0,12}:/;
const SPOOF = 'spoofed-value-xyz';

export default createRule({
  id: 'rules/nested-key-spoof',
  meta: {
    description: 'an allow rule keyed on a JSON field that a nested object or a string value can satisfy',
    severity: 'warning',
    category: 'rules',
    messages: {
      nested: 'this allow rule for `{{key}}` also matches when `{{key}}` sits in a nested object, e.g. `{{example}}`',
      inString: 'this allow rule for `{{key}}` also matches text inside another string value, e.g. `{{example}}`',
    },
    help: {
      nested: 'use `field: {{key}}` with a pattern for the whole value: only the top-level key counts then',
      inString: 'use `field: {{key}}` with a pattern for the whole value: only the top-level key counts then',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      rule(rule, list, _index, approver) {
        if (list !== 'allow' || rule.field !== undefined || rule.match === '') return;
        const key = KEY_IN_PATTERN.exec(rule.match)?.[1] ?? BARE_KEY_IN_PATTERN.exec(rule.match)?.[1];
        if (key === undefined) return;
        const mode = approver.input;
        const witness = findInputWitness(ctx.regexCache, rule, 'allow', mode);
        if (witness === undefined) return;
        const control: Record<string, unknown> = {};
        for (const k of stringKeys(witness.value)) control[k] = SPOOF;
        if (!(key in control)) control[key] = SPOOF;
        // The top-level values alone must not match, or there is nothing to spoof.
        if (ruleMatchesInput(ctx.regexCache, rule, 'allow', mode, JSON.stringify(control)) !== false) return;
        const nestedKey = key === 'x' ? 'y' : 'x';
        const spoofs: { messageId: 'nested' | 'inString'; text: string }[] = [
          { messageId: 'inString', text: JSON.stringify({ ...control, content: witness.text }) },
          { messageId: 'nested', text: JSON.stringify({ [nestedKey]: witness.value, ...control }) },
          { messageId: 'nested', text: JSON.stringify({ ...control, [nestedKey]: witness.value }) },
        ];
        for (const s of spoofs) {
          if (ruleMatchesInput(ctx.regexCache, rule, 'allow', mode, s.text) === true) {
            ctx.report({ span: rule.matchSpan ?? rule.span, messageId: s.messageId, data: { key, example: s.text } });
            return;
          }
        }
      },
    };
  },
});
