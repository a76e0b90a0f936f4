/**
 * The front door of a decision: one call in, the deciding rule out (`createDecider`). This is where
 * the tool's DFA, the per-rule steps and "unknown" meet, built for speed without changing a decision:
 * every answer is `definition.ts`'s `decidingRule`, and property tests check that it is.
 *
 * - `buildPlan(rules)` runs once at compile time. It groups the rules by case-folded tool name
 *   (wildcard rules, with an empty tool, are merged into every group in list order) into two tiers
 *   taken from the definition's `LIST_ORDER`: the lists before the last (deny, then ask) and the last
 *   (allow). Each group gets its steps (`steps.ts`) and, when every rule of the group can run in one,
 *   a DFA (`fast-dfa.ts`) that decides a call in one pass over its text.
 * - Per call: the group's DFA answers (the first matching rule of the first tier, else of the
 *   second, else none), or says it does not know (`UNKNOWN`: past one of its bounds); then the
 *   steps decide, the first tier's list first.
 *
 * Subjects are read by the definition's `readInput` (the text made well-formed, the field lookup
 * parsing the input on first use). The DFA reads lone surrogates as U+FFFD itself, so in raw mode it
 * runs on the input as sent and the subject is only made when the steps must decide.
 */
import type { RE2JS } from 're2js';
import { caseFold } from '../canonical/casefold.ts';
import type { InputMode, RuleList } from '../ir.ts';
import { LIST_ORDER, readInput } from './definition.ts';
import type { Rule, Subject } from './definition.ts';
import { buildDfa, MAX_DFA_INSTS, planBudget, runDfa } from './fast-dfa.ts';
import type { Dfa, StateBudget } from './fast-dfa.ts';
import { buildGate } from './fast-gate.ts';
import type { Gate } from './fast-gate.ts';
import { buildStepList, dfaProgram, firstMatch, keyOf } from './steps.ts';
import type { GateScratch, Step, StepList } from './steps.ts';

/** The two tiers of the plan, from the definition's order: the lists before the last, then the last. */
const FIRST_TIER: readonly RuleList[] = LIST_ORDER.slice(0, -1);
const LAST_TIER: readonly RuleList[] = LIST_ORDER.slice(-1);

interface Group {
  /** The first tier's steps (deny rules, then ask rules), and the last tier's (allow rules). */
  readonly first: StepList;
  readonly last: StepList;
  /** One pass over the text marks the keyed steps of both tiers that can match; `null`: no gate. */
  readonly gate: Gate | null;
  /** One pass over the text decides the call; `null`: the steps decide. */
  readonly dfa: Dfa | null;
  /** Per-call scratch of the steps (the gate scan of the current call). */
  readonly scratch: GateScratch;
}

/** Candidate rules of one tier: for each case-folded tool some rule names, wildcard rules included, in order. */
interface TierRules {
  readonly byTool: ReadonlyMap<string, readonly Rule[]>;
  /** Candidate rules for any other tool: the wildcard rules only. */
  readonly anyTool: readonly Rule[];
}

export interface Plan {
  /** The prepared group of each case-folded tool some rule names. */
  readonly groups: ReadonlyMap<string, Group>;
  /** The prepared group for any other tool: the wildcard rules only. */
  readonly anyGroup: Group;
  /** Tool name as sent → its group; bounded, so arbitrary names cannot grow it without limit. */
  readonly toolCache: Map<string, Group>;
}

export interface PlanOptions {
  /** The fewest keyed rules of a tool for which its group gets a gate (tests lower it). */
  readonly minGate?: number;
  /** `false` leaves out the DFA, so that the steps decide every call (tests of the steps). */
  readonly dfa?: boolean;
  /** Bounds each DFA's states (tests make it small, so that calls fall back to the steps midway). */
  readonly dfaStates?: number;
  /** Bounds all the plan's DFAs' states together. */
  readonly planStates?: number;
}

const TOOL_CACHE_MAX = 256;
/**
 * Fewer keyed steps than this in a group are cheaper to screen one by one (one native `includes`
 * each) than through a gate (a JavaScript pass over the text, ~2–3 ns per character here).
 */
const MIN_GATE = 32;

/** The group's DFA, when every rule of both tiers can run in one (no field rules, re2js programs). */
function dfaFor(first: StepList, last: StepList, maxStates: number | undefined, budget: StateBudget): Dfa | null {
  // Every rule's program holds at least two instructions (a fail and a match): more rules than half
  // the DFA's instructions cannot fit, and need not be looked at.
  if (first.steps.length + last.steps.length > MAX_DFA_INSTS / 2) return null;
  const programs = (list: StepList): (RE2JS | null)[] | undefined => {
    const out: (RE2JS | null)[] = [];
    for (const s of list.steps) {
      const p = dfaProgram(s);
      if (p === undefined) return undefined;
      out.push(p);
    }
    return out;
  };
  const d = programs(first);
  const a = programs(last);
  if (d === undefined || a === undefined) return null;
  return buildDfa(d, a, maxStates === undefined ? { budget } : { maxStates, budget });
}

function buildGroup(first: StepList, last: StepList, options: PlanOptions, budget: StateBudget): Group {
  const dfa = options.dfa ?? true ? dfaFor(first, last, options.dfaStates, budget) : null;
  const keys: (readonly string[])[] = [];
  const keyed = (list: StepList): StepList => ({
    ...list,
    steps: list.steps.map((s): Step => {
      const k = keyOf(s.test);
      if (k === null) return s;
      keys.push(k);
      return { ...s, gateId: keys.length - 1 };
    }),
  });
  const f = keyed(first);
  const l = keyed(last);
  const scratch: GateScratch = { scanned: false, scan: 0 };
  if (keys.length < (options.minGate ?? MIN_GATE)) return { first, last, gate: null, dfa, scratch };
  return { first: f, last: l, gate: buildGate(keys), dfa, scratch };
}

/** Two lists sorted by `index`, merged into one sorted list. */
function mergeByIndex(a: readonly Rule[], b: readonly Rule[]): Rule[] {
  if (b.length === 0) return [...a];
  if (a.length === 0) return [...b];
  const out: Rule[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]!.index <= b[j]!.index ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** `a`'s candidates of each tool, then `b`'s (both built over the same tools). */
function appendTier(a: TierRules, b: TierRules): TierRules {
  const byTool = new Map<string, readonly Rule[]>();
  for (const [t, rules] of a.byTool) byTool.set(t, [...rules, ...(b.byTool.get(t) ?? b.anyTool)]);
  return { byTool, anyTool: [...a.anyTool, ...b.anyTool] };
}

/** The plan of `rules` (see the file's comment). */
export function buildPlan(rules: readonly Rule[], options: PlanOptions = {}): Plan {
  // The DFAs of all the plan's tools share one bound on their states (memory).
  const budget: StateBudget = planBudget(options.planStates);
  const tools = new Set<string>();
  for (const r of rules) if (r.foldedTool !== '') tools.add(r.foldedTool);
  // One pass buckets each tool's own rules; each tool's list is then its rules merged in index order
  // with the rules that name no tool: linear in rules + tools × tool-less rules, not tools × rules.
  const listRules = (list: RuleList): TierRules => {
    const sorted = rules.filter((r) => r.list === list).sort((a, b) => a.index - b.index);
    const anyTool = sorted.filter((r) => r.foldedTool === '');
    const own = new Map<string, Rule[]>();
    for (const r of sorted) {
      if (r.foldedTool === '') continue;
      const bucket = own.get(r.foldedTool);
      if (bucket) bucket.push(r);
      else own.set(r.foldedTool, [r]);
    }
    const byTool = new Map<string, Rule[]>();
    for (const t of tools) byTool.set(t, mergeByIndex(own.get(t) ?? [], anyTool));
    return { byTool, anyTool };
  };
  // A tier is its lists one after the other: its first match is the first list's, else the next's.
  const tier = (lists: readonly RuleList[]): TierRules => lists.map(listRules).reduce(appendTier);
  const first = tier(FIRST_TIER);
  const last = tier(LAST_TIER);
  const cache = new Map<Rule, Step>();
  const groupFor = (tool: string): Group =>
    buildGroup(
      buildStepList(first.byTool.get(tool) ?? first.anyTool, cache),
      buildStepList(last.byTool.get(tool) ?? last.anyTool, cache),
      options,
      budget,
    );
  const groups = new Map<string, Group>();
  for (const t of tools) groups.set(t, groupFor(t));
  return { groups, anyGroup: groupFor(''), toolCache: new Map() };
}

/** The group's DFA's answer for `text`: the deciding rule, or `undefined` when it has none to give. */
function dfaAnswer(group: Group, text: string): Rule | null | undefined {
  const dfa = group.dfa;
  if (dfa === null) return undefined;
  const r = runDfa(dfa, text);
  if (r < 0) return undefined;
  if (r < dfa.deny) return group.first.steps[r]!.rule;
  return r < dfa.deny + dfa.allow ? group.last.steps[r - dfa.deny]!.rule : null;
}

function decideSteps(group: Group, subject: Subject): Rule | null {
  group.scratch.scanned = false;
  return firstMatch(group.first, group.gate, group.scratch, subject) ?? firstMatch(group.last, group.gate, group.scratch, subject);
}

function decideGroup(group: Group, subject: Subject): Rule | null {
  const answer = dfaAnswer(group, subject.text);
  return answer !== undefined ? answer : decideSteps(group, subject);
}

/** The deciding rule for a call to the tool whose case-folded name is `foldedTool`, or `null` (the default). */
export function decide(plan: Plan, foldedTool: string, subject: Subject): Rule | null {
  return decideGroup(plan.groups.get(foldedTool) ?? plan.anyGroup, subject);
}

function groupOf(plan: Plan, toolName: string): Group {
  let group = plan.toolCache.get(toolName);
  if (group === undefined) {
    group = plan.groups.get(caseFold(toolName)) ?? plan.anyGroup;
    if (plan.toolCache.size >= TOOL_CACHE_MAX) plan.toolCache.clear();
    plan.toolCache.set(toolName, group);
  }
  return group;
}

/** `decide` for a tool name as sent: its group is cached by name, so the case fold runs once per name. */
export function decideTool(plan: Plan, toolName: string, subject: Subject): Rule | null {
  return decideGroup(groupOf(plan, toolName), subject);
}

/** A compiled decision: the deciding rule of a call, `null` for the default, `undefined` for an input canonical mode refuses. */
export interface Decider {
  decide(toolName: string, input: string): Rule | null | undefined;
}

/** The front door over `rules`, reading inputs as `mode` says. */
export function createDecider(rules: readonly Rule[], mode: InputMode, options: PlanOptions = {}): Decider {
  const plan = buildPlan(rules, options);
  if (mode === 'canonical') {
    return {
      decide(toolName, input) {
        const subject = readInput(input, 'canonical');
        return subject === null ? undefined : decideTool(plan, toolName, subject);
      },
    };
  }
  return {
    decide(toolName, input) {
      const group = groupOf(plan, toolName);
      const answer = dfaAnswer(group, input);
      return answer !== undefined ? answer : decideSteps(group, readInput(input, 'raw')!);
    },
  };
}
