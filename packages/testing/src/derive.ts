/**
 * Inputs derived from a policy: strings that match a rule's regex (checked with the engine), strings
 * one edit away that do not, and tool calls aimed at each rule and at each inline example.
 */
import { compileRegex, type RuleIR } from '@verdict/engine';
import fc from 'fast-check';
import { type ToolCall, toolCall, toolInput, toolName } from './calls.ts';
import type { PolicyUnderTest } from './policy.ts';
import { mutations, parseRegex, proposals } from './regex-gen.ts';

export interface RegexSampleOptions {
  /** Match the whole string (`^(?:pattern)$`), as a `field` rule does; default: anywhere in it. */
  whole?: boolean;
}

const PROBE_RUNS = 120;

type Tester = (s: string) => boolean;

function tester(pattern: string, whole: boolean): Tester {
  const compiled = compileRegex(pattern);
  if (!compiled.ok) throw new Error(`cannot sample from an invalid regex: ${compiled.error}`);
  const re = compiled.regex;
  return whole ? (s) => re.testWhole(s) : (s) => re.test(s);
}

/**
 * A time budget for deriving calls: rules are probed until `deadline` (a `performance.now()` time);
 * the rules left without aimed calls when it passes are listed in `skipped`. A rule's regex can make
 * each probe slow (a program of a thousand instructions tests a thousand-character sample in ~0.2 s).
 */
export interface DeriveBudget {
  readonly deadline: number;
  readonly skipped: RuleIR[];
}

/** The budget ran out while probing. */
class OutOfTime extends Error {}

/**
 * `arb` filtered by `keep`, or `undefined` when a fixed-seed probe finds no sample to keep (the
 * filter would spin). Throws `OutOfTime` when `deadline` passes during the probe.
 */
function checked(arb: fc.Arbitrary<string>, keep: Tester, runs = PROBE_RUNS, deadline = Infinity): fc.Arbitrary<string> | undefined {
  const probe = fc.sample(arb, { numRuns: runs, seed: 7 });
  const kept: string[] = [];
  for (const s of probe) {
    if (performance.now() > deadline) throw new OutOfTime();
    if (keep(s)) kept.push(s);
  }
  if (kept.length === 0) return undefined;
  // Rare hits: draw among the probe's hits as well, so the filter never has to search long.
  const filtered = arb.filter(keep);
  return kept.length * 4 >= probe.length ? filtered : fc.oneof(filtered, fc.constantFrom(...new Set(kept)));
}

function matchingOrUndefined(pattern: string, options: RegexSampleOptions = {}, deadline = Infinity): fc.Arbitrary<string> | undefined {
  const test = tester(pattern, options.whole === true);
  if (pattern === '') return options.whole ? fc.constant('') : fc.string({ maxLength: 8 });
  const tree = parseRegex(pattern);
  const arb = tree ? proposals(tree) : fc.string({ maxLength: 8 });
  return checked(arb, test, PROBE_RUNS, deadline);
}

/** Strings the engine confirms `pattern` matches. Throws when the regex is invalid or no sample could be found. */
export function matching(pattern: string, options: RegexSampleOptions = {}): fc.Arbitrary<string> {
  const arb = matchingOrUndefined(pattern, options);
  if (!arb) throw new Error(`cannot generate strings that match \`${pattern}\``);
  return arb;
}

function nearMissOrUndefined(
  pattern: string,
  options: RegexSampleOptions = {},
  hits: fc.Arbitrary<string> | undefined = matchingOrUndefined(pattern, options),
  deadline = Infinity,
): fc.Arbitrary<string> | undefined {
  const test = tester(pattern, options.whole === true);
  const base = hits ?? fc.string({ maxLength: 8 });
  // Most one-edit mutations miss, so a short probe tells whether any can.
  return checked(mutations(base), (s) => !test(s), 40, deadline);
}

/**
 * Strings one edit (delete, insert, replace, re-case, double) away from a match that the engine
 * confirms do NOT match: the spellings a rule's author forgot. Throws when none can be found
 * (`.*` has no near miss).
 */
export function nearMiss(pattern: string, options: RegexSampleOptions = {}): fc.Arbitrary<string> {
  const arb = nearMissOrUndefined(pattern, options);
  if (!arb) throw new Error(`cannot generate near misses of \`${pattern}\``);
  return arb;
}

function recased(s: string): fc.Arbitrary<string> {
  return fc.constantFrom(s, s.toLowerCase(), s.toUpperCase(), s.charAt(0).toUpperCase() + s.slice(1));
}

/**
 * Calls aimed at one rule: its tool (re-cased), and inputs that match or nearly match its regex.
 * With a `budget` whose deadline passes while its regex is probed, `undefined` and the rule is
 * added to `budget.skipped`.
 */
export function callsForRule(rule: RuleIR, budget?: DeriveBudget): fc.Arbitrary<ToolCall> | undefined {
  const whole = rule.field !== undefined;
  const deadline = budget?.deadline ?? Infinity;
  let samples: fc.Arbitrary<string> | undefined;
  try {
    if (performance.now() > deadline) throw new OutOfTime();
    const hits = matchingOrUndefined(rule.match, { whole }, deadline);
    const misses = nearMissOrUndefined(rule.match, { whole }, hits, deadline);
    const all = [hits, misses].filter((a): a is fc.Arbitrary<string> => a !== undefined);
    samples = all.length === 0 ? undefined : all.length === 1 ? all[0] : fc.oneof(...all);
  } catch (e) {
    if (e instanceof OutOfTime) budget?.skipped.push(rule);
    return undefined; // an invalid regex: the compiler reports it
  }
  const tool = rule.tool === '' ? toolName() : fc.oneof({ weight: 3, arbitrary: recased(rule.tool) }, { weight: 1, arbitrary: toolName() });
  if (!samples) return toolCall({ tool });
  const field = rule.field;
  const inputs: fc.Arbitrary<string> = field !== undefined
    ? fc.tuple(samples, recased(field), fc.constantFrom('command', 'description', 'path')).map(([s, key, other]) =>
        JSON.stringify(key === other ? { [key]: s } : { [key]: s, [other]: 'x' }),
      )
    : fc.tuple(samples, fc.nat({ max: 4 })).map(([s, form]) => {
        switch (form) {
          case 0:
            return s; // the sample as the whole raw input
          case 1:
            return `{${s}}`; // a pattern written against raw JSON (`"command":"ls"`)
          case 2:
            return `{"command":"${s}"}`; // inserted verbatim: may not be JSON
          case 3:
            return JSON.stringify({ path: s });
          default:
            return JSON.stringify({ command: s });
        }
      });
  return fc.tuple(tool, inputs).map(([t, input]) => ({ tool: t, input }));
}

/**
 * Calls to explore `policies` with: generic agent calls, calls aimed at every rule of every policy,
 * and each inline example with one-edit variants of its input.
 */
export function callsFor(...policies: PolicyUnderTest[]): fc.Arbitrary<ToolCall> {
  return callsWithin(undefined, ...policies);
}

/** `callsFor` within a time budget: rules probed after its deadline get no aimed calls (`budget.skipped`). */
export function callsWithin(budget: DeriveBudget | undefined, ...policies: PolicyUnderTest[]): fc.Arbitrary<ToolCall> {
  const parts: fc.WeightedArbitrary<ToolCall>[] = [{ weight: 2, arbitrary: toolCall() }];
  const rules = policies.flatMap((p) => [...(p.config?.deny ?? []), ...(p.config?.ask ?? []), ...(p.config?.allow ?? [])]);
  const seen = new Set<string>();
  const aimed: fc.Arbitrary<ToolCall>[] = [];
  for (const r of rules) {
    const key = JSON.stringify([r.tool, r.match, r.field]);
    if (seen.has(key)) continue;
    seen.add(key);
    const arb = callsForRule(r, budget);
    if (arb) aimed.push(arb);
  }
  if (aimed.length) parts.push({ weight: 4, arbitrary: oneOfList(aimed) });
  const examples = policies.flatMap((p) => (p.tests ?? []).map((t) => ({ tool: t.tool, input: t.input })));
  if (examples.length) {
    const example = constantFromList(examples);
    parts.push({ weight: 1, arbitrary: example });
    parts.push({
      weight: 1,
      arbitrary: example.chain((c) => mutations(fc.constant(c.input)).map((input) => ({ tool: c.tool, input }))),
    });
  }
  return fc.oneof(...parts);
}

export { toolInput };

/**
 * Lists as long as a policy's rules or tests are never spread into arguments (V8 throws from about
 * 100,000): short ones keep `fc.oneof`'s and `fc.constantFrom`'s shrinking, long ones pick by index.
 */
const SPREAD_MAX = 1000;

function oneOfList<T>(arbs: readonly fc.Arbitrary<T>[]): fc.Arbitrary<T> {
  return arbs.length <= SPREAD_MAX ? fc.oneof(...arbs) : fc.integer({ min: 0, max: arbs.length - 1 }).chain((i) => arbs[i] as fc.Arbitrary<T>);
}

function constantFromList<T>(values: readonly T[]): fc.Arbitrary<T> {
  return values.length <= SPREAD_MAX ? fc.constantFrom(...values) : fc.integer({ min: 0, max: values.length - 1 }).map((i) => values[i] as T);
}
