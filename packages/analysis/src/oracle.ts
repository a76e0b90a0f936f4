/**
 * The real engine as the judge of every witness: nothing is reported that the engine does not
 * confirm. "Does rule R match call X" has one answer, the engine's `ruleMatches` (the rule alone in
 * an approver of its own list); this module only adds the caches an analysis run and a lint run
 * share (regex validity, per run's `RegexCache`).
 */
import { canonicalize, compileApprover, compileRegex, ruleMatches, wellFormed } from '@verdict/engine';
import type { ApproverIR, CommandJudgeFactory, CompiledApprover, Explanation, InputMode, RuleIR, RuleList } from '@verdict/engine';
import type { RegexCache } from './regex-cache.ts';

const CACHE_MAX = 2_000;
const regexes = new Map<string, boolean>();

/**
 * Whether a rule (`match`, `field`; any tool) in `list` of an approver reading `mode` input matches
 * the input text: `undefined` when the pattern does not compile (as `regexes` says) or the input never
 * reaches the rules (canonical mode rejects it).
 */
export function ruleMatchesInput(
  regexes: RegexCache,
  rule: Pick<RuleIR, 'match' | 'field'>,
  list: RuleList,
  mode: InputMode,
  input: string,
): boolean | undefined {
  const compiled = regexes.get(rule.match);
  if (!compiled.ok) return undefined;
  if (rule.field === undefined) {
    // A rule without `field`, whatever its list, is its pattern searched in the text the approver
    // reads: the input made well-formed, or its canonical text. The run's compiled regex answers
    // without building an approver (lint probes thousands of inputs); oracle.test.ts keeps this
    // equal to `ruleMatches`.
    let text = input;
    if (mode === 'canonical') {
      const c = canonicalize(input);
      if (!c.ok) return undefined;
      text = c.text;
    }
    if (rule.match === '') return true;
    try {
      return compiled.regex.testWellFormed(wellFormed(text));
    } catch {
      return undefined; // a matcher failure is the approver's internal error
    }
  }
  return ruleMatches({ tool: '', match: rule.match, field: rule.field, list, input: mode }, { toolName: 'probe', input });
}

export class EngineOracle {
  private readonly regexes = regexes;

  constructor(
    private readonly compat = false,
    private readonly regexValid?: (pattern: string) => boolean,
    private readonly commandJudge?: CommandJudgeFactory,
  ) {}

  regexOk(pattern: string): boolean {
    if (this.regexValid !== undefined) return this.regexValid(pattern);
    let ok = this.regexes.get(pattern);
    if (ok === undefined) {
      ok = compileRegex(pattern).ok;
      if (this.regexes.size >= CACHE_MAX) this.regexes.clear();
      this.regexes.set(pattern, ok);
    }
    return ok;
  }

  /** Whether `rule`, in `list`, matches the call, as the engine decides it (undefined: cannot tell). */
  ruleMatches(rule: RuleIR, list: RuleList, input: InputMode, toolName: string, text: string): boolean | undefined {
    const probe = { tool: rule.tool, match: rule.match, list, input, ...(rule.field !== undefined ? { field: rule.field } : {}) };
    return ruleMatches(probe, { toolName, input: text });
  }

  /** The engine's explanation of a call under a whole approver configuration. */
  explain(approver: CompiledApprover, toolName: string, text: string): Explanation {
    return approver.explain({ toolName, input: text });
  }

  compile(ir: ApproverIR): CompiledApprover | undefined {
    return compileApprover(ir, { compat: this.compat, ...(this.commandJudge !== undefined ? { commandJudge: this.commandJudge } : {}) }).approver;
  }

  /** The canonical text of `text` (undefined when canonical input would reject it). */
  canonicalOf(text: string): string | undefined {
    const c = canonicalize(text);
    return c.ok ? c.text : undefined;
  }
}
