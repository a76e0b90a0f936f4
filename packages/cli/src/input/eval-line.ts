/**
 * The eval line format, both ways of a request line's answer: which lines are no request
 * ({@link isBlank}), the deny of a bad line ({@link badRequest}), and a decision's output line
 * (`{"decision":…,"reason":…,"rule":…}`), cached per rule. `verdict eval` writes these lines and
 * `verdict serve`'s decide route answers with them.
 */
import type { RuledResult } from '@verdict/engine';

/**
 * A line of JSON white space only (space, tab, CR) is no request and gets no answer. Anything else
 * (a no-break space, a BOM, U+2028: white space to JS's `trim`, not to JSON) is a line the caller
 * sent, so it gets its deny: skipping it would shift every later answer onto the wrong request.
 * (A loop, not a regex: it runs on every line and nearly always stops at the first `{`.)
 */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** Why a request line is denied without asking the approver (fail closed: a bad line is never an allow). */
export function badRequest(reason: string): string {
  return `{"decision":"deny","reason":${JSON.stringify(`verdict: ${reason}`)},"rule":null}`;
}

function renderDecision(e: RuledResult): string {
  const rule = e.rule
    ? `{"list":"${e.rule.list}","index":${e.rule.index},"file":${JSON.stringify(e.rule.span?.file ?? null)},"line":${e.rule.span?.start.line ?? null},"column":${e.rule.span?.start.column ?? null}}`
    : 'null';
  return `{"decision":"${e.decision}","reason":${JSON.stringify(e.reason)},"rule":${rule}}`;
}

interface CachedLine {
  decision: string;
  reason: string;
  line: string;
}

/** Reasons are few per rule; internal-error texts must not grow the cache. */
const MAX_LINES_PER_RULE = 64;

/**
 * The output line of a decision, newline included. A compiled approver hands out the same rule
 * objects and a handful of reasons, so lines are cached per rule and found by comparing the decision
 * and reason (no key string built per call) instead of re-serialised per call.
 */
export function createLineFormatter(): (e: RuledResult) => string {
  const byRule = new WeakMap<object, CachedLine[]>();
  const noRule: CachedLine[] = [];
  return (e) => {
    let cache = noRule;
    if (e.rule) {
      const found = byRule.get(e.rule);
      if (found === undefined) byRule.set(e.rule, (cache = []));
      else cache = found;
    }
    for (let i = 0; i < cache.length; i++) {
      const c = cache[i]!;
      if (c.reason === e.reason && c.decision === e.decision) return c.line;
    }
    const line = renderDecision(e) + '\n';
    if (cache.length < MAX_LINES_PER_RULE) cache.push({ decision: e.decision, reason: e.reason, line });
    return line;
  };
}

/** The output line of a decision (no newline), cached as {@link createLineFormatter} does. */
export function createDecisionFormatter(): (e: RuledResult) => string {
  const format = createLineFormatter();
  return (e) => format(e).slice(0, -1);
}
