import { findInputWitness, ruleMatchesInput } from '@verdict/analysis';
import { createRule } from '../create-rule.ts';

export default createRule({
  id: 'rules/escape-evasion',
  meta: {
    description: 'a deny (or ask) rule, in raw input mode, that the same call written with JSON escapes (`\\u0072m`, `\\/`) gets past',
    severity: 'warning',
    category: 'rules',
    messages: {
      evaded:
        'this {{list}} rule misses the same input written with JSON escapes, e.g. `{{example}}`: raw input is matched as the model wrote it',
    },
    help: {
      evaded: 'set `input: canonical` on the approver (escapes are decoded before matching), or use `field` rules',
    },
    docs: { recommended: true },
  },
  create(ctx) {
    return {
      rule(rule, list, _index, approver) {
        // An ask rule guards as a deny rule does: a call that gets past it is allowed without asking.
        if (list === 'allow' || approver.input === 'canonical' || rule.field !== undefined || rule.match === '') return;
        const witness = findInputWitness(ctx.regexCache, rule, list, 'raw');
        if (witness === undefined) return;
        for (const variant of [escapeFirstLetters, escapeAllLetters, escapeSlashes]) {
          const text = variant(witness.value);
          if (text === undefined) continue;
          if (ruleMatchesInput(ctx.regexCache, rule, list, 'raw', text) === false) {
            ctx.report({ span: rule.matchSpan ?? rule.span, messageId: 'evaded', data: { example: text, list } });
            return;
          }
        }
      },
    };
  },
});

type Encoder = (s: string) => string;

function encode(value: Record<string, unknown>, encodeString: Encoder): string | undefined {
  let changed = false;
  const parts = Object.entries(value).map(([k, v]) => {
    if (typeof v !== 'string') return `${JSON.stringify(k)}:${JSON.stringify(v)}`;
    const e = encodeString(v);
    if (e !== JSON.stringify(v).slice(1, -1)) changed = true;
    return `${JSON.stringify(k)}:"${e}"`;
  });
  return changed ? `{${parts.join(',')}}` : undefined;
}

const u = (c: string): string => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
const plain = (s: string): string => JSON.stringify(s).slice(1, -1);

/** `rm -rf /` → `\u0072m -\u0072f /`: the first letter of each word escaped. */
function escapeFirstLetters(value: Record<string, unknown>): string | undefined {
  return encode(value, (s) => plain(s).replace(/(^|[^A-Za-z\\])([A-Za-z])/g, (_m, pre: string, c: string) => pre + u(c)));
}

function escapeAllLetters(value: Record<string, unknown>): string | undefined {
  return encode(value, (s) => [...s].map((c) => (/[A-Za-z]/.test(c) ? u(c) : plain(c))).join(''));
}

function escapeSlashes(value: Record<string, unknown>): string | undefined {
  return encode(value, (s) => plain(s).replace(/\//g, '\\/'));
}
