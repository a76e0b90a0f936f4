/**
 * The real engine as the judge of every witness: nothing is reported that the engine does not
 * confirm. Single-rule approvers and regex validity are cached per rule across analyses (the
 * engine is deterministic; the caches are bounded).
 */
import { compileApprover, compileRegex } from '@verdict/engine';
import type { ApproverIR, CompiledApprover, Explanation, InputMode, RuleIR } from '@verdict/engine';

const CACHE_MAX = 2_000;
const singles = new Map<string, CompiledApprover | undefined>();
const regexes = new Map<string, boolean>();
let probe: { approver: CompiledApprover | undefined } | undefined;

export class EngineOracle {
  private readonly single = singles;
  private readonly regexes = regexes;

  constructor(
    private readonly compat = false,
    private readonly regexValid?: (pattern: string) => boolean,
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

  /** Whether `rule` alone matches the call, as the engine decides it (undefined: cannot tell). */
  ruleMatches(rule: RuleIR, input: InputMode, toolName: string, text: string): boolean | undefined {
    const key = `${input}\u0000${rule.tool}\u0000${rule.field ?? '\u0001'}\u0000${rule.match}`;
    let approver = this.single.get(key);
    if (!this.single.has(key)) {
      const ir: ApproverIR = {
        mode: 'pattern',
        default: 'deny',
        reason: '',
        input,
        allow: [stripSpans(rule)],
        deny: [],
      };
      approver = compileApprover(ir).approver;
      if (this.single.size >= CACHE_MAX) this.single.clear();
      this.single.set(key, approver);
    }
    if (approver === undefined) return undefined;
    const e = approver.explain({ toolName, input: text });
    return e.decision === 'allow' && e.by === 'rule';
  }

  /** The engine's explanation of a call under a whole approver configuration. */
  explain(approver: CompiledApprover, toolName: string, text: string): Explanation {
    return approver.explain({ toolName, input: text });
  }

  compile(ir: ApproverIR): CompiledApprover | undefined {
    return compileApprover(ir, { compat: this.compat }).approver;
  }

  /** The canonical text of `text` (undefined when canonical input would reject it). */
  canonicalOf(text: string): string | undefined {
    return this.canonicalProbe()?.explain({ toolName: 'x', input: text }).canonical;
  }

  private canonicalProbe(): CompiledApprover | undefined {
    // A pattern approver reports the canonical text it decided on.
    probe ??= {
      approver: compileApprover({ mode: 'pattern', default: 'deny', reason: '', input: 'canonical', allow: [], deny: [] }).approver,
    };
    return probe.approver;
  }
}

function stripSpans(rule: RuleIR): RuleIR {
  const out: RuleIR = { tool: rule.tool, match: rule.match };
  if (rule.field !== undefined) out.field = rule.field;
  return out;
}
