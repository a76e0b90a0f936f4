/**
 * Properties of compiled policies. Each is a fast-check property over generated tool calls (usable
 * with `fc.assert`), plus what a counterexample means: the decisions that broke it, and the inline
 * tests to paste so the example stays fixed once the rule is.
 */
import { decidedBy } from '@verdict/engine';
import type { Explanation, RuledDecision } from '@verdict/engine';
import fc from 'fast-check';
import type { ToolCall } from './calls.ts';
import { callsFor } from './derive.ts';
import { compact, parseJson, type Json } from './json.ts';
import { decide, type PolicyUnderTest } from './policy.ts';
import { PLAIN_SPELLING, respell, type Spelling, spelling } from './respell.ts';
import type { SuggestedTest } from './suggest.ts';

/** One decision taken while checking a counterexample, for the report. */
export interface Observation {
  policy: string;
  call: ToolCall;
  explanation: Explanation;
}

export interface Counterexample {
  /** One sentence: what went wrong. */
  summary: string;
  observations: Observation[];
  /** Tests that fail today and pass once the policy is fixed (or that pin the reference's behaviour). */
  tests: SuggestedTest[];
}

export interface PolicyProperty<T = ToolCall> {
  name: string;
  /** What holds, in words. */
  statement: string;
  arbitrary: fc.Arbitrary<T>;
  /** Whether the property holds for one sample. */
  holds(sample: T): boolean;
  /** Whether a sample was in the property's domain (a predicate's calls); counted in reports. */
  relevant?(sample: T): boolean;
  explain(sample: T): Counterexample;
  /** The same property, for `fc.assert(p.property)`. */
  property: fc.IPropertyWithHooks<[T]>;
}

/** A property from its parts; `property` (for `fc.assert`) is built from `arbitrary` and `holds`. */
export function defineProperty<T>(p: Omit<PolicyProperty<T>, 'property'>): PolicyProperty<T> {
  return { ...p, property: fc.property(p.arbitrary, (x) => p.holds(x)) };
}

function observe(policy: PolicyUnderTest, call: ToolCall): Observation {
  return { policy: policy.name, call, explanation: decide(policy, call) };
}

export type CallPredicate = (call: ToolCall) => boolean;

export interface DomainOptions {
  /** The calls to try (default: `callsFor(policy)`, aimed at the policy's rules and examples). */
  calls?: fc.Arbitrary<ToolCall>;
}

/** No call for which `predicate` holds is allowed. */
export function neverAllows(policy: PolicyUnderTest, predicate: CallPredicate, options: DomainOptions = {}): PolicyProperty {
  return defineProperty({
    name: 'neverAllows',
    statement: `${policy.name} never allows a call the predicate flags`,
    arbitrary: options.calls ?? callsFor(policy),
    relevant: predicate,
    holds: (call) => !predicate(call) || decide(policy, call).decision !== 'allow',
    explain: (call) => ({
      summary: `${policy.name} allows a call the predicate flags`,
      observations: [observe(policy, call)],
      tests: [{ call, expect: 'deny' }],
    }),
  });
}

export interface AlwaysDeniesOptions extends DomainOptions {
  /** The reason every deny must give (exactly, or matching). */
  reason?: string | RegExp;
  /** The rule that must decide (`deny[0]`, `default`). */
  rule?: string;
}

/** The deciding rule as the tests write it: `deny[0]`, `allow[2]`, `default`, or what decided instead. */
export function ruleName(e: Explanation): string {
  return decidedBy(e);
}

/**
 * Every call in the domain is denied, and for the stated reason or by the stated rule: given calls
 * (an arbitrary), or the policy's calls the predicate flags.
 */
export function alwaysDenies(
  policy: PolicyUnderTest,
  domain: CallPredicate | fc.Arbitrary<ToolCall>,
  options: AlwaysDeniesOptions = {},
): PolicyProperty {
  const predicate: CallPredicate = typeof domain === 'function' ? domain : () => true;
  const arbitrary = domain instanceof fc.Arbitrary ? domain : (options.calls ?? callsFor(policy));
  const reasonOk = (r: string) =>
    options.reason === undefined ? true : typeof options.reason === 'string' ? r === options.reason : options.reason.test(r);
  const ok = (e: Explanation) => e.decision === 'deny' && reasonOk(e.reason) && (options.rule === undefined || ruleName(e) === options.rule);
  const wanted = [options.reason !== undefined ? `with reason ${String(options.reason)}` : '', options.rule ? `by ${options.rule}` : '']
    .filter(Boolean)
    .join(' ');
  return defineProperty({
    name: 'alwaysDenies',
    statement: `${policy.name} denies every call in the domain${wanted ? ` ${wanted}` : ''}`,
    arbitrary,
    relevant: predicate,
    holds: (call) => !predicate(call) || ok(decide(policy, call)),
    explain: (call) => {
      const o = observe(policy, call);
      const e = o.explanation;
      const summary =
        e.decision === 'allow'
          ? `${policy.name} allows a call it should deny`
          : e.decision === 'ask'
            ? `${policy.name} asks about a call it should deny`
            : `${policy.name} denies the call, but not ${wanted}`;
      const test: SuggestedTest = { call, expect: 'deny' };
      return { summary, observations: [o], tests: [test] };
    },
  });
}

export interface EquivalentOptions extends DomainOptions {
  /** Compare the deny reasons too (default: decisions only). */
  reasons?: boolean;
}

/** `b` decides every call as `a` does: a refactor that changes no decision. */
export function equivalent(a: PolicyUnderTest, b: PolicyUnderTest, options: EquivalentOptions = {}): PolicyProperty {
  const same = (x: Explanation, y: Explanation) => x.decision === y.decision && (!options.reasons || x.reason === y.reason);
  return defineProperty({
    name: 'equivalent',
    statement: `${b.name} decides every call as ${a.name} does`,
    arbitrary: options.calls ?? callsFor(a, b),
    holds: (call) => same(decide(a, call), decide(b, call)),
    explain: (call) => {
      const oa = observe(a, call);
      const ob = observe(b, call);
      return {
        summary: `${a.name} and ${b.name} decide a call differently`,
        observations: [oa, ob],
        tests: [{ call, expect: oa.explanation.decision }],
      };
    },
  });
}

/** How strict a decision is: allow < ask < deny. */
const STRICTNESS: Record<RuledDecision, number> = { allow: 0, ask: 1, deny: 2 };

const VERB: Record<RuledDecision, string> = { allow: 'allows', ask: 'asks about', deny: 'denies' };

/**
 * `a` is at least as strict as `b` on every call (it may deny more): it allows nothing `b` denies,
 * and, with ask rules, allows nothing `b` asks about and asks about nothing `b` denies.
 */
export function stricterThan(a: PolicyUnderTest, b: PolicyUnderTest, options: DomainOptions = {}): PolicyProperty {
  return defineProperty({
    name: 'stricterThan',
    statement: `${a.name} allows nothing ${b.name} denies`,
    arbitrary: options.calls ?? callsFor(a, b),
    holds: (call) => STRICTNESS[decide(a, call).decision] >= STRICTNESS[decide(b, call).decision],
    explain: (call) => {
      const oa = observe(a, call);
      const ob = observe(b, call);
      return {
        summary: `${a.name} ${VERB[oa.explanation.decision]} a call ${b.name} ${VERB[ob.explanation.decision]}`,
        observations: [oa, ob],
        tests: [{ call, expect: ob.explanation.decision }],
      };
    },
  });
}

/** A JSON value under a tool name, and one other way to spell it. */
export interface RespelledCall {
  tool: string;
  /** The compact spelling (members in source order). */
  value: Json;
  spelling: Spelling;
}

export function respelledCalls(calls: fc.Arbitrary<ToolCall>): fc.Arbitrary<RespelledCall> {
  const values = calls.map((c) => {
    // A raw input that is not JSON has no other spelling: use it as a string inside a JSON input.
    const v = parseJson(c.input);
    const value: Json = v ?? { kind: 'object', members: [['command', { kind: 'string', value: c.input }]] };
    return { tool: c.tool, value };
  });
  return fc.tuple(values, spelling()).map(([v, s]) => ({ ...v, spelling: s }));
}

/** The two calls a respelled sample compares: the compact spelling and the other one. */
export function respelledPair(sample: RespelledCall): [ToolCall, ToolCall] {
  return [
    { tool: sample.tool, input: compact(sample.value) },
    { tool: sample.tool, input: respell(sample.value, sample.spelling) },
  ];
}

/**
 * The decision does not change when the same JSON value is spelled differently (key order,
 * whitespace, `\uXXXX` and `\/` escapes). Raw-mode rule sets often fail it: a regex sees spelling.
 */
export function invariantUnderRespelling(policy: PolicyUnderTest, options: DomainOptions = {}): PolicyProperty<RespelledCall> {
  return defineProperty({
    name: 'invariantUnderRespelling',
    statement: `${policy.name} decides the same JSON value the same way however it is spelled`,
    arbitrary: respelledCalls(options.calls ?? callsFor(policy)),
    holds: (sample) => {
      const [plain, other] = respelledPair(sample);
      return decide(policy, plain).decision === decide(policy, other).decision;
    },
    explain: (sample) => {
      const [plain, other] = respelledPair(sample);
      const op = observe(policy, plain);
      const oo = observe(policy, other);
      // The compact spelling's decision is taken as the intended one: it is how the author wrote the example.
      const expect: RuledDecision = op.explanation.decision;
      return {
        summary: `${policy.name} decides two spellings of the same input differently`,
        observations: [op, oo],
        tests: [
          { call: plain, expect },
          { call: other, expect },
        ],
      };
    },
  });
}

export { PLAIN_SPELLING };
