import { createNativeRule } from '../create-rule.ts';

/**
 * Gemini CLI's own check before it keeps a rule's regular expression: it must compile in
 * JavaScript, be at most 2,048 characters, and hold no group that contains a quantifier and is
 * itself quantified (its heuristic against catastrophic backtracking, which also catches
 * harmless patterns such as `( -[a-z]+)*`).
 */
export function geminiDropsRegex(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
  } catch (e) {
    return `does not compile as a JavaScript regular expression (${(e instanceof Error ? e.message : String(e)).replace(/^Invalid regular expression: /, '')})`;
  }
  if (pattern.length > 2048) return 'is longer than 2,048 characters';
  if (/\([^)]*[*+?{].*\)[*+?{]/.test(pattern)) return 'has a quantified group that holds a quantifier, which Gemini CLI refuses as unsafe';
  return undefined;
}

export default createNativeRule({
  id: 'native/regex-dropped',
  meta: {
    description: 'a Gemini CLI rule whose `argsPattern` or `commandRegex` the agent drops at load (it does not compile in JavaScript, or looks unsafe to its nested-quantifier check): the rule is gone, and for a deny that fails open',
    severity: 'error',
    category: 'native',
    messages: {
      dropped: 'this {{decision}} rule is dropped by Gemini CLI: its `{{key}}` {{why}}{{effect}}',
    },
    help: {
      dropped: 'rewrite the pattern without a quantified group that holds a quantifier (`( -[a-z]+)*` → `( -[a-z]+)?( -[a-z]+)?`, or `(?: -[a-z]+)*` does not help: write the cases apart), or as several rules',
    },
    docs: { recommended: true },
  },
  check(ctx) {
    const file = ctx.native;
    if (file.format !== 'gemini-policy') return;
    for (const rule of file.rules) {
      for (const key of ['argsPattern', 'commandRegex'] as const) {
        const v = rule[key];
        if (v === undefined) continue;
        for (const pattern of typeof v.value === 'string' ? [v.value] : v.value) {
          const why = geminiDropsRegex(pattern);
          if (why === undefined) continue;
          const decision = rule.decision?.value ?? '';
          const effect = decision === 'deny' ? ': the calls it denies are then decided by the other rules (it fails open)' : decision === 'allow' ? ': the calls it allows then wait for a person' : '';
          ctx.report({ span: v.span, messageId: 'dropped', data: { decision, key, why, effect } });
          break;
        }
      }
    }
  },
});
