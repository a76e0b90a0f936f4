/**
 * The baselines Verdict is measured against: the plain rule-by-rule loop of the reference approver
 * (semantics.md A3), once over re2js and once over JavaScript RegExp. Raw input mode only; the
 * benchmark policies use no `field` rules.
 */
import type { ApprovalRequest, ApproverIR, RuleIR } from '@verdict/engine';
import { RE2JS } from 're2js';

/** What every engine in the benchmark reports for one call; compared across engines. */
export interface Outcome {
  decision: 'allow' | 'deny';
  reason: string;
  /** `deny:3`, `allow:0` or `default`. */
  rule: string;
}

export interface BenchEngine {
  name: string;
  decide(call: ApprovalRequest): Outcome;
}

/**
 * Tool names compare under simple case folding. The benchmark's tool names are ASCII, where that is
 * exactly lower-casing; anything else is folded code point by code point the same way.
 */
export function foldTool(s: string): string {
  return s.toLowerCase();
}

interface LoopRule {
  list: 'deny' | 'allow';
  index: number;
  tool: string;
  test: ((input: string) => boolean) | null;
}

type Matcher = (pattern: string) => (input: string) => boolean;

function naiveLoop(name: string, policy: ApproverIR, matcher: Matcher): BenchEngine {
  const prep = (list: 'deny' | 'allow', rules: RuleIR[]): LoopRule[] =>
    rules.map((r, index) => ({ list, index, tool: foldTool(r.tool), test: r.match === '' ? null : matcher(r.match) }));
  const deny = prep('deny', policy.deny);
  const allow = prep('allow', policy.allow);
  const reason = policy.reason === '' ? 'denied by pattern policy' : policy.reason;
  const defaultAllow = policy.default.toLowerCase() === 'allow';
  const first = (rules: LoopRule[], tool: string, input: string): LoopRule | undefined => {
    for (const r of rules) {
      if (r.tool !== '' && r.tool !== tool) continue;
      if (r.test === null || r.test(input)) return r;
    }
    return undefined;
  };
  return {
    name,
    decide(call) {
      const tool = foldTool(call.toolName);
      const d = first(deny, tool, call.input);
      if (d) return { decision: 'deny', reason, rule: `deny:${d.index}` };
      const a = first(allow, tool, call.input);
      if (a) return { decision: 'allow', reason: '', rule: `allow:${a.index}` };
      return defaultAllow ? { decision: 'allow', reason: '', rule: 'default' } : { decision: 'deny', reason, rule: 'default' };
    },
  };
}

/** The naive baseline: each rule compiled alone with re2js and tried in order. */
export function naiveRe2js(policy: ApproverIR): BenchEngine {
  return naiveLoop('re2js rule by rule', policy, (p) => {
    const re = RE2JS.compile(p);
    return (s) => re.test(s);
  });
}

/**
 * RE2 syntax to a JavaScript RegExp, for the benchmark's patterns only: a leading `(?i)` becomes the
 * `i` flag and `\s` becomes RE2's `[\t\n\f\r ]`. Anything else is used as written (the corpus sticks to
 * the common subset; the decision check catches a pattern that means something else in JavaScript).
 */
export function toJsRegExp(pattern: string): RegExp {
  let flags = '';
  let p = pattern;
  if (p.startsWith('(?i)')) {
    flags = 'i';
    p = p.slice(4);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      const n = p[i + 1] ?? '';
      i++;
      if (n === 's') out += inClass ? '\\t\\n\\f\\r ' : '[\\t\\n\\f\\r ]';
      else if (n === 'z') out += '$(?![\\s\\S])';
      else out += `\\${n}`;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    out += c;
  }
  return new RegExp(out, flags);
}

/** The same loop over JavaScript's backtracking RegExp (fast, but exponential on some patterns). */
export function naiveRegExp(policy: ApproverIR): BenchEngine {
  return naiveLoop('JS RegExp rule by rule', policy, (p) => {
    const re = toJsRegExp(p);
    return (s) => re.test(s);
  });
}
