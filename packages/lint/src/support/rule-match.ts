/**
 * Whether one approver rule matches a crafted tool input: the rule alone in an engine pattern
 * approver (same list, the opposite default), so probes follow the engine's semantics exactly
 * (input mode, `field` lookup, fail-closed parsing). Each probe approver is built once per run
 * (pattern, field, list, mode) and only for patterns the run's cache already compiled.
 */
import { compileApprover } from '@verdict/engine';
import type { CompiledApprover, InputMode, RuleIR, RuleList } from '@verdict/engine';
import type { RegexCache } from './regex-cache.ts';

export interface ProbeRule {
  tool: string;
  match: string;
  field?: string | undefined;
}

const approvers = new WeakMap<RegexCache, Map<string, CompiledApprover | null>>();

function singleRuleApprover(regexes: RegexCache, rule: ProbeRule, list: RuleList, mode: InputMode): CompiledApprover | null {
  let byKey = approvers.get(regexes);
  if (byKey === undefined) {
    byKey = new Map();
    approvers.set(regexes, byKey);
  }
  const key = JSON.stringify([rule.match, rule.field ?? null, list, mode]);
  let approver = byKey.get(key);
  if (approver === undefined) {
    approver = null;
    if (regexes.get(rule.match).ok) {
      const probe = { tool: '', match: rule.match, ...(rule.field !== undefined ? { field: rule.field } : {}) };
      approver =
        compileApprover({
          mode: 'pattern',
          default: list === 'allow' ? 'deny' : 'allow',
          reason: '',
          input: mode,
          allow: list === 'allow' ? [probe] : [],
          deny: list === 'deny' ? [probe] : [],
        }).approver ?? null;
    }
    byKey.set(key, approver);
  }
  return approver;
}

/** `true`/`false`, or `undefined` when the pattern does not compile or canonical mode rejects the input. */
export function ruleMatchesInput(
  regexes: RegexCache,
  rule: Pick<RuleIR, 'match' | 'field'>,
  list: RuleList,
  mode: InputMode,
  input: string,
): boolean | undefined {
  const approver = singleRuleApprover(regexes, { tool: '', match: rule.match, field: rule.field }, list, mode);
  if (approver === null) return undefined;
  const e = approver.explain({ toolName: 'probe', input });
  if (e.by === 'invalid-input' || e.by === 'internal-error') return undefined;
  return e.by === 'rule';
}
