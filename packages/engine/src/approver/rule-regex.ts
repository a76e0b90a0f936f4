/**
 * The compiled pattern of one approver rule (semantics.md A3.1, A4.3), shared by everything that
 * compiles rules: the configuration loader (`config.ts`) and the public `ruleMatches` oracle
 * (`definition.ts`).
 *
 * Compiled patterns are shared by every configuration checked or compiled in this process: the
 * compiler's validate stage checks a file's patterns and its compile stage builds the approver from
 * the same ones, and reloading a policy compiles them again. Results are immutable values. Bounded:
 * dropped whole when full, and very long patterns are not kept.
 */
import { compileRegex } from '../regex/regex.ts';
import type { CompileRegexResult } from '../regex/regex.ts';

const shared = new Map<string, CompileRegexResult>();
const SHARED_MAX_ENTRIES = 4096;
const SHARED_MAX_PATTERN = 64 * 1024;

/** `compileRegex(pattern)`, remembered for the process (bounded). */
export function compileShared(pattern: string): CompileRegexResult {
  let compiled = shared.get(pattern);
  if (compiled === undefined) {
    compiled = compileRegex(pattern);
    if (pattern.length <= SHARED_MAX_PATTERN) {
      if (shared.size >= SHARED_MAX_ENTRIES) shared.clear();
      shared.set(pattern, compiled);
    }
  }
  return compiled;
}

/**
 * The regex of a rule with `match` (and `field`, when it is a field rule), or `null` when the rule
 * has none (no field and an empty match: it matches everything). A field rule runs `^(?:match)$`
 * (A4.3): matching uses the pattern whole, but the wrapped text must compile too (`\Qa`, with no
 * `\E`, quotes the `)$` and leaves the group open, as it would there); its error is the wrapped one.
 */
export function compileRuleRegex(match: string, field: string | undefined): CompileRegexResult | null {
  if (match === '' && field === undefined) return null;
  const compiled = compileShared(match);
  if (compiled.ok && field !== undefined) {
    const wrapped = compileShared(`^(?:${match})$`);
    if (!wrapped.ok) return wrapped;
  }
  return compiled;
}
