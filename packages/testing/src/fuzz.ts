/**
 * `verdict fuzz`'s logic: properties of a policy (and of a second one, for `equivalent` and
 * `stricter`) checked on generated calls within one time budget. The command parses its arguments
 * and prints what this returns, as it comes.
 */
import { caseFold, compileRegex, ruleWhere, type RuleIR } from '@verdict/engine';
import fc from 'fast-check';
import { toolCall, type ToolCall, toolInput, toolName } from './calls.ts';
import { checkProperty, type PropertyReport } from './check.ts';
import { callsWithin, type DeriveBudget, matching, nearMiss } from './derive.ts';
import { effective, parseJson } from './json.ts';
import type { PolicyUnderTest } from './policy.ts';
import {
  alwaysDenies,
  type CallPredicate,
  equivalent,
  invariantUnderRespelling,
  neverAllows,
  type PolicyProperty,
  stricterThan,
} from './properties.ts';
import { noDuplicateKeySmuggling } from './smuggling.ts';
import { dslTest, yamlTest } from './suggest.ts';
import { ruleName } from './properties.ts';

export const FUZZ_PROPERTIES = ['respelling', 'duplicate-keys', 'never-allows', 'always-denies', 'equivalent', 'stricter'] as const;
export type FuzzPropertyName = (typeof FUZZ_PROPERTIES)[number];

/** The properties that compare two policies (they need `other`), and those about a domain of calls (they need `where`). */
export const NEEDS_OTHER: readonly FuzzPropertyName[] = ['equivalent', 'stricter'];
export const NEEDS_WHERE: readonly FuzzPropertyName[] = ['never-allows', 'always-denies'];

/**
 * The calls a `where` regex is about: those (to `tool`, when given, case-insensitively) with a
 * string in their decoded input that the regex finds a match in (the raw input when it is not
 * JSON). `error` when the regex does not compile.
 */
export function wherePredicate(where: string, tool: string | undefined): { ok: true; predicate: CallPredicate } | { ok: false; error: string } {
  const compiled = compileRegex(where);
  if (!compiled.ok) return { ok: false, error: compiled.error };
  const re = compiled.regex;
  const folded = tool === undefined ? undefined : caseFold(tool);
  return { ok: true, predicate: (call) => (folded === undefined || caseFold(call.tool) === folded) && stringValues(call.input).some((s) => re.test(s)) };
}

function stringValues(text: string): string[] {
  const v = parseJson(text.trim() === '' ? '{}' : text);
  if (!v) return [text];
  const out: string[] = [];
  const walk = (x: ReturnType<typeof effective>) => {
    if (x.kind === 'string') out.push(x.value);
    else if (x.kind === 'array') x.items.forEach(walk);
    else if (x.kind === 'object') x.members.forEach(([, m]) => walk(m));
  };
  walk(effective(v));
  return out;
}

export interface FuzzOptions {
  policy: PolicyUnderTest;
  /** The second policy of `equivalent` and `stricter`. */
  other?: PolicyUnderTest;
  properties: readonly FuzzPropertyName[];
  /** The calls `never-allows` and `always-denies` are about: a regex (see `wherePredicate`) and a tool. */
  where?: string;
  tool?: string;
  /** The reason `always-denies` expects. */
  reason?: string;
  runs: number;
  seed: number;
  /** Seconds for the whole run: past it no new call is generated. */
  timeLimit: number;
  /** Called before a property runs; what it returns hears of the property's progress. */
  onStart?: (property: FuzzPropertyName) => ((done: number, total: number) => void) | undefined;
  /** Called with each report as its property finishes. */
  onReport?: (report: PropertyReport) => void;
}

/** What the time limit cut short. */
export interface FuzzSkipped {
  timeLimit: number;
  notRun: string[];
  stopped: string[];
  /** Rules that got no aimed calls, each as `deny[0] \`pattern\` (file:line:column)`. */
  unsampledRules: string[];
}

export interface FuzzRun {
  reports: PropertyReport[];
  failed: number;
  /** Properties that did not run at all. */
  notRun: string[];
  skipped?: FuzzSkipped;
}

/** `deny[0] \`\\pL{1000}\` (p.yaml:5:12)`: a rule by list, index, pattern and place. */
function ruleLabel(rule: RuleIR, policies: readonly (PolicyUnderTest | undefined)[]): string {
  for (const p of policies) {
    for (const list of ['deny', 'allow'] as const) {
      const index = p?.config?.[list].indexOf(rule) ?? -1;
      if (index < 0) continue;
      const span = rule.matchSpan ?? rule.span;
      const pattern = [...rule.match].length > 64 ? `${[...rule.match].slice(0, 60).join('')}…` : rule.match;
      return ruleWhere({ list, index, span }, 'parens', `\`${pattern}\``);
    }
  }
  return `\`${rule.match}\``;
}

/** Checks each property in turn within one budget (deriving calls from the rules spends it too). */
export function fuzzPolicy(options: FuzzOptions): FuzzRun {
  const { policy, other, runs, seed, timeLimit } = options;
  const where = options.where === undefined ? undefined : wherePredicate(options.where, options.tool);
  if (where !== undefined && !where.ok) throw new Error(`not a valid regex: ${where.error}`);
  const deadline = performance.now() + timeLimit * 1000;
  const budget: DeriveBudget = { deadline, skipped: [] };
  let derived: fc.Arbitrary<ToolCall> | undefined;
  const calls = (): fc.Arbitrary<ToolCall> => (derived ??= other === undefined ? callsWithin(budget, policy) : callsWithin(budget, policy, other));

  // never-allows / always-denies: besides the policy's own calls, calls aimed at `where` (strings
  // that match it and strings one edit away, as a command or a path, and as the whole raw input).
  const domainCalls = (): fc.Arbitrary<ToolCall> => {
    const parts: fc.Arbitrary<string>[] = [];
    for (const make of [matching, nearMiss]) {
      try {
        parts.push(make(options.where as string));
      } catch {
        // a regex the generator cannot sample: the policy's calls still run
      }
    }
    if (parts.length === 0) return calls();
    const samples = fc.oneof(...parts);
    const tool = options.tool === undefined ? toolName() : fc.constant(options.tool);
    const aimed = fc.oneof(
      toolCall({ tool, input: samples.map((s) => ({ command: s })) }),
      toolCall({ tool, input: samples.map((s) => ({ file_path: s })) }),
      toolCall({ tool, input: samples }),
      tool.chain((t) => toolCall({ tool: t, input: toolInput(t) })),
    );
    return fc.oneof(calls(), aimed);
  };
  const need = <T>(x: T | undefined, what: string): T => {
    if (x === undefined) throw new Error(`this property needs ${what}`);
    return x;
  };
  const predicate = (): CallPredicate => need(where?.ok ? where.predicate : undefined, 'a `where` regex');

  const property = (name: FuzzPropertyName): PolicyProperty<unknown> => {
    switch (name) {
      case 'respelling':
        return invariantUnderRespelling(policy, { calls: calls() }) as PolicyProperty<unknown>;
      case 'duplicate-keys':
        return noDuplicateKeySmuggling(policy) as PolicyProperty<unknown>;
      case 'never-allows':
        return neverAllows(policy, predicate(), { calls: domainCalls() }) as PolicyProperty<unknown>;
      case 'always-denies':
        return alwaysDenies(policy, predicate(), { calls: domainCalls(), ...(options.reason === undefined ? {} : { reason: options.reason }) }) as PolicyProperty<unknown>;
      case 'equivalent':
        return equivalent(policy, need(other, 'a second policy'), { calls: calls() }) as PolicyProperty<unknown>;
      case 'stricter':
        return stricterThan(policy, need(other, 'a second policy'), { calls: calls() }) as PolicyProperty<unknown>;
    }
  };

  const reports: PropertyReport[] = [];
  const notRun: string[] = [];
  for (const name of options.properties) {
    // Made first: deriving its calls spends the budget too (and lists the rules it had no time for).
    const made = property(name);
    const left = deadline - performance.now();
    if (left <= 0) {
      notRun.push(name);
      continue;
    }
    const onProgress = options.onStart?.(name);
    const report = checkProperty(made, { numRuns: runs, seed, timeLimit: left, ...(onProgress ? { onProgress } : {}) });
    reports.push(report);
    options.onReport?.(report);
  }
  const failed = reports.filter((r) => !r.ok).length;
  const stopped = reports.filter((r) => r.interrupted === true).map((r) => r.property);
  const unsampled = budget.skipped.map((r) => ruleLabel(r, [policy, other]));
  const skipped = notRun.length + stopped.length + unsampled.length > 0 ? { timeLimit, notRun, stopped, unsampledRules: unsampled } : undefined;
  return { reports, failed, notRun, ...(skipped ? { skipped } : {}) };
}

/** A property report as `verdict fuzz -f json` writes it. */
export function propertyReportJson(r: PropertyReport) {
  const c = r.counterexample;
  return {
    property: r.property,
    statement: r.statement,
    ok: r.ok,
    runs: r.runs,
    ...(r.relevant !== undefined ? { relevant: r.relevant } : {}),
    ...(r.interrupted === true ? { interrupted: true } : {}),
    shrinks: r.shrinks,
    ...(r.error !== undefined ? { error: r.error } : {}),
    ...(c
      ? {
          counterexample: {
            summary: c.summary,
            observations: c.observations.map((o) => ({
              policy: o.policy,
              tool: o.call.tool,
              input: o.call.input,
              decision: o.explanation.decision,
              reason: o.explanation.reason,
              rule: ruleName(o.explanation),
            })),
            tests: c.tests.map((t) => ({ tool: t.call.tool, input: t.call.input, expect: t.expect, yaml: yamlTest(t), verdict: dslTest(t) })),
          },
        }
      : {}),
  };
}
