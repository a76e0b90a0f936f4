import { programSize } from '@verdict/engine';
import { createRule } from '../create-rule.ts';

/** Instructions above which a pattern is flagged (option `maxInstructions`). */
const MAX_INSTRUCTIONS = 300;
/**
 * Nanoseconds one NFA step costs, measured with re2js on the benchmark machine (a shared 2-core VM)
 * in a quiet stretch (~35 ns when it is loaded): `(?i)k[\pL]{N}!` on text where every position
 * starts a partial match, N from 50 to 500.
 */
const NS_PER_STEP = 12;

/**
 * The cost of a decision grows with the input and with the pattern's compiled program: when no DFA
 * can hold the states a text leads to, re2js's NFA steps every live instruction at every character.
 * The program size (re2js's instruction count, the same program that decides) bounds the steps per
 * character; a counted repeat copies its body (`\pL{1000}` is 1,000 instructions).
 */
export default createRule({
  id: 'regex/large-program',
  meta: {
    description: 'a pattern whose compiled program is so large that a hostile input costs many steps per character to decide',
    severity: 'warning',
    category: 'regex',
    messages: {
      large:
        'pattern `{{pattern}}` compiles to {{size}} instructions: a decision on a hostile input may cost {{size}} steps per input character (about {{seconds}} s per megabyte)',
    },
    help: {
      large:
        'a counted repeat copies its body ({{size}} instructions here): in a deny rule a shorter prefix denies every call the long one did (`k\\pL{20}` for `k\\pL{500}!`); in an allow rule, bound the repeat lower only where it allows nothing more',
    },
    docs: { recommended: true },
    options: {
      maxInstructions: { description: 'Patterns whose program has more instructions than this are flagged.', default: MAX_INSTRUCTIONS },
    },
  },
  create(ctx) {
    const max = typeof ctx.options.maxInstructions === 'number' ? ctx.options.maxInstructions : MAX_INSTRUCTIONS;
    return {
      rule(rule) {
        if (rule.match === '') return;
        const compiled = ctx.regex(rule.match);
        if (!compiled.ok) return;
        const size = programSize(compiled.regex);
        if (size === undefined || size <= max) return;
        const seconds = (size * NS_PER_STEP) / 1000;
        ctx.report({
          span: rule.matchSpan ?? rule.span,
          messageId: 'large',
          data: { pattern: shortened(rule.match), size: String(size), seconds: seconds < 10 ? seconds.toFixed(1) : String(Math.round(seconds)) },
        });
      },
    };
  },
});

/** A long pattern quoted by its first 60 code points and an ellipsis (the span shows where it is). */
function shortened(pattern: string): string {
  const cps = [...pattern];
  return cps.length <= 64 ? pattern : `${cps.slice(0, 60).join('')}…`;
}
