/**
 * Whether one approver rule matches a crafted tool input: the rule alone in an engine pattern
 * approver (same list, the opposite default), so probes follow the engine's semantics exactly
 * (input mode, `field` lookup, fail-closed parsing). Each probe approver is built once per run
 * (pattern, field, list, mode) and only for patterns the run's cache already compiled.
 */
import { canonicalize, compileApprover, wellFormed } from '@verdict/engine';
import type { CompiledApprover, InputMode, RuleIR, RuleList } from '@verdict/engine';
import type { RegexCache } from './regex-cache.ts';

export interface ProbeRule {
  tool: string;
  match: string;
  field?: string | undefined;
}

/** Per run: probe approvers by `list|mode|field`, then by pattern. */
const approvers = new WeakMap<RegexCache, Map<string, Map<string, CompiledApprover | null>>>();

function singleRuleApprover(
  regexes: RegexCache,
  match: string,
  field: string | undefined,
  list: RuleList,
  mode: InputMode,
): CompiledApprover | null {
  let byKind = approvers.get(regexes);
  if (byKind === undefined) {
    byKind = new Map();
    approvers.set(regexes, byKind);
  }
  // `list` and `mode` never contain `|`, so the field (last) keeps the key unambiguous.
  const kind = `${list}|${mode}|${field === undefined ? 'n' : `f${field}`}`;
  let byPattern = byKind.get(kind);
  if (byPattern === undefined) {
    byPattern = new Map();
    byKind.set(kind, byPattern);
  }
  let approver = byPattern.get(match);
  if (approver === undefined) {
    approver = null;
    if (regexes.get(match).ok) {
      const probe = { tool: '', match, ...(field !== undefined ? { field } : {}) };
      approver =
        compileApprover({
          mode: 'pattern',
          default: list === 'allow' ? 'deny' : 'allow',
          reason: '',
          input: mode,
          allow: list === 'allow' ? [probe] : [],
          deny: list === 'deny' ? [probe] : [],
          ...(list === 'ask' ? { ask: [probe] } : {}),
        }).approver ?? null;
    }
    byPattern.set(match, approver);
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
  if (rule.field === undefined) {
    if (mode === 'raw') return rawRuleMatches(regexes, rule.match, input);
    // Canonical input: the text the rule searches is the canonical form; an input canonical mode
    // rejects is denied before any rule runs.
    const c = canonicalize(input);
    return c.ok ? rawRuleMatches(regexes, rule.match, c.text) : undefined;
  }
  return ruleMatchesInputByApprover(regexes, rule, list, mode, input);
}

/**
 * A rule without `field`, without building an approver: the engine matches the pattern against
 * the input made well-formed (raw) or its canonical text (an empty pattern matches everything),
 * whichever the list, and a matcher error is an internal error. `ruleMatchesInputByApprover` is
 * the reference (a property test keeps the two equal in both modes).
 */
function rawRuleMatches(regexes: RegexCache, match: string, input: string): boolean | undefined {
  const compiled = regexes.get(match);
  if (!compiled.ok) return undefined;
  if (match === '') return true;
  try {
    return compiled.regex.testWellFormed(wellFormed(input));
  } catch {
    return undefined;
  }
}

/** `ruleMatchesInput` through a one-rule engine approver (every mode and rule shape). */
export function ruleMatchesInputByApprover(
  regexes: RegexCache,
  rule: Pick<RuleIR, 'match' | 'field'>,
  list: RuleList,
  mode: InputMode,
  input: string,
): boolean | undefined {
  const approver = singleRuleApprover(regexes, rule.match, rule.field, list, mode);
  if (approver === null) return undefined;
  const e = approver.explain({ toolName: 'probe', input });
  if (e.by === 'invalid-input' || e.by === 'internal-error') return undefined;
  return e.by === 'rule';
}
