/**
 * The per-call decision loop of the pattern approver (semantics.md A3.2, A3.3, A4.3), built for speed
 * without changing a decision.
 *
 * Interface (kept narrow so it can be optimised without touching the approver):
 * - `buildPlan(rules)` runs once at compile time. It groups the rules of each list by case-folded tool
 *   name (wildcard rules, with an empty tool, are merged into every group in source order). A group
 *   whose rules are all regex rules gets a DFA (`fast-dfa.ts`) that decides a call in one pass over
 *   its text. Every group also gets its steps, which decide the calls its DFA cannot (field rules,
 *   programs too large, a call past the DFA's bounds): each rule's cheapest sound test
 *   (`fast-screen.ts`): a literal search, an anchored prefix, a few required literals, or a run of the
 *   regex; rules that only the regex can decide share one re2js `RE2Set` per tool and list, run at
 *   most once per call and only when such a rule is reached; large groups add a literal gate.
 * - `decide(plan, foldedTool, subject)` / `decideTool(plan, toolName, subject)` run per call and return
 *   the deciding rule: the first deny rule that matches, else the first ask rule that matches, else
 *   the first allow rule that matches, else `null` (the default decides). Ask rules run as the tail of
 *   each tool's deny list (steps, set, gate and DFA alike): the first match of deny-then-ask is the
 *   first deny rule, else the first ask rule; the rule's `list` says which. A plan without ask rules
 *   is exactly the two-list plan. `decideTool` caches the tool name's group, skipping the case fold;
 *   `decideToolText` takes a raw text and makes the subject only if the steps must decide.
 * - `matchesByDefinition(rule, subject)` is the one definition of "a rule matches"; `decide` and
 *   `ruleMatches` (what the approver's `explain` calls rule by rule, with the same shortcuts as the
 *   steps) must agree with it, and property tests check that they do, with and without the DFA.
 *
 * Subjects are prepared by the caller: `text` is already well-formed (see `wellFormed`), so screens
 * and the `*WellFormed` regex entry points need no check; field values come decoded from the JSON
 * parser and are well-formed too. (The DFA reads lone surrogates as U+FFFD itself.)
 */
import { RE2Set } from 're2js';
import type { RE2JS } from 're2js';
import { caseFold } from '../canonical/casefold.ts';
import type { RuleList } from '../ir.ts';
import type { CompiledRegex } from '../regex/regex.ts';
import { buildDfa, MAX_DFA_INSTS, planBudget, runDfa } from './fast-dfa.ts';
import type { Dfa, StateBudget } from './fast-dfa.ts';
import { buildGate, Q, scan } from './fast-gate.ts';
import type { Gate } from './fast-gate.ts';
import { find, findAll, needle } from './fast-find.ts';
import type { Needle } from './fast-find.ts';
import { literalPaths, matchesAtStart, screenFor } from './fast-screen.ts';

export interface FastRule {
  readonly list: RuleList;
  /** Position in its list as written. */
  readonly index: number;
  /** `caseFold(tool)`; `""` matches every tool. */
  readonly foldedTool: string;
  /**
   * Non-field rules: searched (unanchored) in `subject.text`; `null` (empty match) matches anything.
   * Field rules: must match the whole field value (`^(?:match)$`); never `null` for field rules.
   */
  readonly regex: CompiledRegex | null;
  /** `caseFold(field)` for a field rule, else `undefined`. */
  readonly field: string | undefined;
}

/** What a decision looks at. */
export interface FastSubject {
  /** The text non-field rules search: the raw input or the canonical text, already well-formed. */
  readonly text: string;
  /**
   * The top-level field whose key case-folds to `foldedKey`: its decoded string value; `undefined`
   * when the key is missing, its value is not a string, or the input is not an object; `null` when
   * the input cannot be read as JSON at all (raw mode only). On `null`, deny and ask field rules match and
   * allow field rules do not: an unreadable input is never let through by a field it lacks.
   */
  field(foldedKey: string): string | undefined | null;
}

// Step kinds, cheapest first.
const ALWAYS = 0; // empty match: matches every subject
const LITERAL = 1; // the pattern is a literal: matches iff the text contains it
const ONE = 2; // the text must contain `needle`, then the regex decides
const CHECK = 3; // the text must start with `needle` and hold one literal of each group, then the regex decides
const RUN = 4; // only the regex (or the list's set) can say
const FIELD = 5; // a field rule: `ruleMatches`
const FOLD = 6; // the text must match `fold` (the literals a match begins with, any case), then the regex decides

interface Step {
  readonly rule: FastRule;
  /** The literal every match starts with (`""`: none known). */
  readonly lead: string;
  /** Only a match at 0 is possible (`^…`): run anchored, which stops early. */
  readonly anchored: boolean;
  readonly kind: number;
  readonly needle: string;
  readonly groups: readonly (readonly string[])[];
  /** `needle`, `groups` and `lead` prepared for `find` (searched from their rarest character). */
  readonly needleN: Needle;
  readonly groupsN: readonly (readonly Needle[])[];
  readonly leadN: Needle;
  /** `FOLD` steps: a JavaScript RegExp every subject the rule matches also matches. */
  readonly fold: RegExp | null;
  /**
   * A JavaScript RegExp (literal paths, `fast-screen.ts` `literalPaths`) that decides exactly as the
   * rule's regex: it replaces the re2js run once the step's screens have passed; else `null`.
   * `undefined` until first needed (`exactOf`): most steps of a large policy never pass their screens.
   */
  exact: RegExp | null | undefined;
  /** The re2js program, when the regex exposes it; else `rule.regex` runs. */
  readonly re: RE2JS | null;
  /** Position in the list's set (`RUN` steps of a list with a set), else -1. */
  readonly setIndex: number;
  /** The step's id in its group's gate (it can match only when the gate marks it), else -1. */
  readonly gateId: number;
}

interface StepList {
  readonly steps: readonly Step[];
  /** One pass over the text answers every `RUN` step of the list; `null` when there are too few. */
  readonly set: RE2Set | null;
}

interface Group {
  readonly deny: StepList;
  readonly allow: StepList;
  /** One pass over the text marks the keyed steps of both lists that can match; `null`: no gate. */
  readonly gate: Gate | null;
  /** One pass over the text decides the call (`fast-dfa.ts`); `null`: the steps decide. */
  readonly dfa: Dfa | null;
}

export interface FastList {
  /** Candidate rules for each case-folded tool some rule names, wildcard rules included, in order. */
  readonly byTool: ReadonlyMap<string, readonly FastRule[]>;
  /** Candidate rules for any other tool: the wildcard rules only. */
  readonly anyTool: readonly FastRule[];
}

export interface FastPlan {
  /** The candidate rules of each list, as written: `deny` holds the deny rules, then the ask rules. */
  readonly deny: FastList;
  readonly allow: FastList;
  /** The prepared steps of each case-folded tool some rule names. */
  readonly groups: ReadonlyMap<string, Group>;
  /** The prepared steps for any other tool: the wildcard rules only. */
  readonly anyGroup: Group;
  /** Whether some rule looks at a field (the caller then provides a field lookup). */
  readonly usesFields: boolean;
  /** Tool name as sent → its group; bounded, so arbitrary names cannot grow it without limit. */
  readonly toolCache: Map<string, Group>;
}

/** Fewer `RUN` rules than this are cheaper to run one by one than as a set. */
const MIN_SET = 4;
/**
 * DFA memory budget of one set (the re2js default). A set of hundreds of `(?i)` rules has states of
 * hundreds of program counters: at 1 MiB its state cache reset every few calls and rebuilt states
 * (`closure`) on every call (10,000-rule policy: 0.6k decisions/s; at 8 MiB 2.0k/s).
 */
const SET_MAX_MEM = 8 << 20;
const TOOL_CACHE_MAX = 256;

function engineOf(regex: CompiledRegex | null): RE2JS | null {
  const e = (regex as { engine?: RE2JS } | null)?.engine;
  return e === undefined ? null : e;
}

type PreparedStep = Omit<Step, 'setIndex' | 'gateId'>;

function makeStep(rule: FastRule): PreparedStep {
  const s = makeStepOf(rule);
  return { ...s, needleN: needle(s.needle), groupsN: s.groups.map((g) => g.map(needle)), leadN: needle(s.lead) };
}

function makeStepOf(rule: FastRule): Omit<PreparedStep, 'needleN' | 'groupsN' | 'leadN'> {
  const base = { rule, needle: '', groups: [] as readonly (readonly string[])[], re: engineOf(rule.regex), lead: '', anchored: false, fold: null, exact: null };
  if (rule.field !== undefined) return { ...base, kind: FIELD };
  if (rule.regex === null) return { ...base, kind: ALWAYS };
  if (base.re === null) return { ...base, kind: RUN };
  const s = screenFor(base.re);
  if (s.kind === 'literal') return { ...base, kind: LITERAL, needle: s.needle };
  if (s.kind === 'run') {
    const paths = literalPaths(base.re);
    return paths === null ? { ...base, kind: RUN } : { ...base, kind: FOLD, fold: paths.regex, exact: paths.exact ? paths.regex : null };
  }
  const only = s.groups[0];
  if (s.prefix === '' && s.lead === '' && !s.anchored && s.groups.length === 1 && only !== undefined && only.length === 1) {
    return { ...base, kind: ONE, needle: only[0]!, exact: undefined };
  }
  return { ...base, kind: CHECK, needle: s.prefix, groups: s.groups, lead: s.lead, anchored: s.anchored, exact: undefined };
}

function buildStepList(rules: readonly FastRule[], cache: Map<FastRule, PreparedStep>): StepList {
  const prepared = rules.map((r) => {
    let s = cache.get(r);
    if (s === undefined) {
      s = makeStep(r);
      cache.set(r, s);
      preparedSteps.set(r, s);
    }
    return s;
  });
  // Nothing after a rule that always matches can decide.
  const cut = prepared.findIndex((s) => s.kind === ALWAYS);
  const live = cut < 0 ? prepared : prepared.slice(0, cut + 1);
  // `FOLD` steps are `RUN` steps with a screen: with enough of them one set pass is cheaper.
  const runs = live.filter((s) => (s.kind === RUN || s.kind === FOLD) && s.re !== null);
  let set: RE2Set | null = null;
  const setIndex = new Map<PreparedStep, number>();
  if (runs.length >= MIN_SET) {
    try {
      const candidate = new RE2Set(RE2Set.UNANCHORED, 0, SET_MAX_MEM);
      for (const s of runs) setIndex.set(s, candidate.add(s.rule.regex!.source));
      candidate.compile();
      set = candidate;
    } catch {
      // Too large for one program (or refused): the rules run one by one, as without a set.
      set = null;
      setIndex.clear();
    }
  }
  return { steps: live.map((s) => ({ ...s, setIndex: setIndex.get(s) ?? -1, gateId: -1 })), set };
}

/** Whether every literal of `group` is a JSON key (`"file_path":"`): found in almost every input. */
function jsonKeys(group: readonly string[]): boolean {
  return group.every((n) => /^"[\w-]*":?"?$/.test(n));
}

/**
 * Literals one of which every match of the step contains, each at least `Q` long, or `null` (the
 * step is not keyed): the literal itself, the anchored prefix, a required group, the leading literal.
 */
export function keyOf(s: PreparedStep): readonly string[] | null {
  if (s.kind === LITERAL || s.kind === ONE) return s.needle.length >= Q ? [s.needle] : null;
  if (s.kind !== CHECK) return null;
  const options: (readonly string[])[] = [...s.groups];
  if (s.needle !== '') options.push([s.needle]);
  if (s.lead !== '') options.push([s.lead]);
  let best: readonly string[] | null = null;
  let bestScore = -Infinity;
  for (const o of options) {
    if (o.length === 0 || o.some((n) => n.length < Q)) continue;
    const score = Math.min(...o.map((n) => n.length)) - o.length - (jsonKeys(o) ? 1000 : 0);
    if (score > bestScore) {
      best = o;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Fewer keyed steps than this in a group are cheaper to screen one by one (one native `includes`
 * each) than through a gate (a JavaScript pass over the text, ~2–3 ns per character here).
 */
const MIN_GATE = 32;

/** The group's DFA, when every rule of both lists can run in one (no field rules, re2js programs). */
function dfaFor(deny: StepList, allow: StepList, maxStates: number | undefined, budget: StateBudget): Dfa | null {
  // Every rule's program holds at least two instructions (a fail and a match): more rules than half
  // the DFA's instructions cannot fit, and need not be looked at.
  if (deny.steps.length + allow.steps.length > MAX_DFA_INSTS / 2) return null;
  const programs = (list: StepList) => list.steps.map((s) => (s.kind === ALWAYS ? null : s.kind === FIELD ? undefined : s.re));
  const d = programs(deny);
  const a = programs(allow);
  if ([...d, ...a].some((p) => p === undefined)) return null;
  return buildDfa(d as (RE2JS | null)[], a as (RE2JS | null)[], maxStates === undefined ? { budget } : { maxStates, budget });
}

function buildGroup(deny: StepList, allow: StepList, minGate: number, dfa: boolean, dfaStates: number | undefined, budget: StateBudget): Group {
  const machine = dfa ? dfaFor(deny, allow, dfaStates, budget) : null;
  const keys: (readonly string[])[] = [];
  const keyed = (list: StepList): StepList => ({
    set: list.set,
    steps: list.steps.map((s) => {
      const k = keyOf(s);
      if (k === null) return s;
      keys.push(k);
      return { ...s, gateId: keys.length - 1 };
    }),
  });
  const d = keyed(deny);
  const a = keyed(allow);
  if (keys.length < minGate) return { deny, allow, gate: null, dfa: machine };
  return { deny: d, allow: a, gate: buildGate(keys), dfa: machine };
}

/** Two lists sorted by `index`, merged into one sorted list. */
function mergeByIndex(a: readonly FastRule[], b: readonly FastRule[]): FastRule[] {
  if (b.length === 0) return [...a];
  if (a.length === 0) return [...b];
  const out: FastRule[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]!.index <= b[j]!.index ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/**
 * `minGate`: the fewest keyed rules of a tool for which its group gets a gate (tests lower it);
 * `dfa: false` leaves out the DFA, so that the steps decide every call (tests of the steps);
 * `dfaStates` bounds each DFA's states and `planStates` all of them together (tests make them small,
 * so that calls fall back to the steps).
 */
export function buildPlan(
  rules: readonly FastRule[],
  options: { readonly minGate?: number; readonly dfa?: boolean; readonly dfaStates?: number; readonly planStates?: number } = {},
): FastPlan {
  const minGate = options.minGate ?? MIN_GATE;
  const useDfa = options.dfa ?? true;
  // The DFAs of all the plan's tools share one bound on their states (memory).
  const budget: StateBudget = planBudget(options.planStates);
  const sorted = (list: RuleList) => rules.filter((r) => r.list === list).sort((a, b) => a.index - b.index);
  const deny = sorted('deny');
  const allow = sorted('allow');
  const tools = new Set<string>();
  for (const r of rules) if (r.foldedTool !== '') tools.add(r.foldedTool);
  // One pass buckets each tool's own rules; each tool's list is then its rules merged in index order
  // with the rules that name no tool: linear in rules + tools × tool-less rules, not tools × rules.
  const fastList = (list: readonly FastRule[]): FastList => {
    const anyTool = list.filter((r) => r.foldedTool === '');
    const own = new Map<string, FastRule[]>();
    for (const r of list) {
      if (r.foldedTool === '') continue;
      const bucket = own.get(r.foldedTool);
      if (bucket) bucket.push(r);
      else own.set(r.foldedTool, [r]);
    }
    const byTool = new Map<string, FastRule[]>();
    for (const t of tools) byTool.set(t, mergeByIndex(own.get(t) ?? [], anyTool));
    return { byTool, anyTool };
  };
  const ask = sorted('ask');
  // Ask rules follow each tool's deny rules: one list whose first match is the deny > ask answer.
  const denyList = ask.length === 0 ? fastList(deny) : appendList(fastList(deny), fastList(ask));
  const allowList = fastList(allow);
  const cache = new Map<FastRule, PreparedStep>();
  const groupFor = (tool: string): Group =>
    buildGroup(
      buildStepList(denyList.byTool.get(tool) ?? denyList.anyTool, cache),
      buildStepList(allowList.byTool.get(tool) ?? allowList.anyTool, cache),
      minGate,
      useDfa,
      options.dfaStates,
      budget,
    );
  const groups = new Map<string, Group>();
  for (const t of tools) groups.set(t, groupFor(t));
  return {
    deny: denyList,
    allow: allowList,
    groups,
    anyGroup: groupFor(''),
    usesFields: rules.some((r) => r.field !== undefined),
    toolCache: new Map(),
  };
}

/** `a`'s candidates of each tool, then `b`'s (both built over the same tools). */
function appendList(a: FastList, b: FastList): FastList {
  const byTool = new Map<string, readonly FastRule[]>();
  for (const [t, rules] of a.byTool) byTool.set(t, [...rules, ...(b.byTool.get(t) ?? b.anyTool)]);
  return { byTool, anyTool: [...a.anyTool, ...b.anyTool] };
}

/**
 * Whether `rule` matches `subject` (its tool has already been checked): the definition, with no
 * shortcut. The fast loop must agree with it; property tests check that it does.
 */
export function matchesByDefinition(rule: FastRule, subject: FastSubject): boolean {
  if (rule.field !== undefined) {
    const value = subject.field(rule.field);
    if (value === null) return rule.list !== 'allow';
    if (value === undefined) return false;
    return rule.regex === null ? value === '' : rule.regex.testWholeWellFormed(value);
  }
  return rule.regex === null || rule.regex.testWellFormed(subject.text);
}

/** Each planned rule's prepared test, so `ruleMatches` (what `explain` calls) gets the same shortcuts. */
const preparedSteps = new WeakMap<FastRule, PreparedStep>();

/**
 * Whether `rule` matches `subject` (its tool has already been checked). For a rule of a plan this
 * takes the rule's screens and anchored runs, as `decide` does; otherwise the definition.
 */
export function ruleMatches(rule: FastRule, subject: FastSubject): boolean {
  const step = preparedSteps.get(rule);
  return step === undefined ? matchesByDefinition(rule, subject) : stepMatches(step, subject);
}

/**
 * Longest text an unanchored `exact` RegExp runs on: its alternatives are literal paths of up to 64
 * characters, which a backtracking matcher may compare at every position; past this the DFA's one
 * pass (bounded per character) is the safer run.
 */
const EXACT_MAX = 8192;

/** The step's exact RegExp, computed on first use. */
function exactOf(s: PreparedStep): RegExp | null {
  if (s.exact === undefined) {
    const paths = s.re === null ? null : literalPaths(s.re);
    s.exact = paths !== null && paths.exact ? paths.regex : null;
  }
  return s.exact;
}

/** One step alone (no set): screens, then the cheapest exact run. */
function stepMatches(s: PreparedStep, subject: FastSubject): boolean {
  const text = subject.text;
  switch (s.kind) {
    case ALWAYS:
      return true;
    case LITERAL:
      return find(text, s.needleN) >= 0;
    case ONE:
      if (find(text, s.needleN) < 0) return false;
      if (text.length <= EXACT_MAX) {
        const exact = exactOf(s);
        if (exact !== null) return exact.test(text);
      }
      break;
    case CHECK: {
      if (s.needle !== '' && !text.startsWith(s.needle)) return false;
      // Anchored and exact: a test that reads no further than the pattern reaches, no group search.
      const exact = s.anchored || text.length <= EXACT_MAX ? exactOf(s) : null;
      if (s.anchored && exact !== null) return exact.test(text);
      if (!findAll(s.groupsN, text)) return false;
      if (exact !== null) return exact.test(text);
      if (s.lead !== '') return fromLead(s, text);
      if (s.anchored && s.re !== null) return matchesAtStart(s.re, text);
      break;
    }
    case FOLD:
      if (!s.fold!.test(text)) return false;
      if (s.exact !== null && s.exact !== undefined) return true; // the screen was the exact test
      break;
    case FIELD:
      return matchesByDefinition(s.rule, subject);
  }
  return s.re !== null ? s.re.test(text) : s.rule.regex!.testWellFormed(text);
}

// Set results of the current call, stamped with a call number instead of cleared (no allocation).
let stamp = new Int32Array(64);
let callNo = 0;

/** The current call's gate scan: the group it was made for and its number (`scanGroup === null`: none). */
let scanGroup: Group | null = null;
let scanNumber = 0;

function firstMatch(group: Group, list: StepList, subject: FastSubject): FastRule | null {
  const text = subject.text;
  const steps = list.steps;
  const gate = group.gate;
  let setDone = false;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    if (s.gateId >= 0) {
      if (scanGroup !== group) {
        scanGroup = group;
        scanNumber = scan(gate!, text);
      }
      if (gate!.marks[s.gateId] !== scanNumber) continue;
      if (stepMatches(s, subject)) return s.rule;
    } else if (s.setIndex >= 0) {
      if (!setDone) {
        setDone = true;
        markSet(list.set!, text);
      }
      if (stamp[s.setIndex] === callNo) return s.rule;
    } else if (stepMatches(s, subject)) return s.rule;
  }
  return null;
}

/** Anchored tries at the first occurrences of `lead`; more than this and one unanchored pass decides. */
const MAX_LEAD_TRIES = 8;

/**
 * A pattern that begins with the literal `lead` can only match where `lead` occurs. An anchored
 * match tried at each occurrence reads only the attempt, not the rest of the text; nothing before a
 * match start is looked at (the pattern begins with a character, not an assertion), so a slice
 * starting there decides as the whole text would. After a few tries one unanchored pass decides.
 */
function fromLead(s: PreparedStep, text: string): boolean {
  let at = find(text, s.leadN);
  const re = s.re;
  if (re === null) return at >= 0 && s.rule.regex!.testWellFormed(text);
  for (let tries = 0; at >= 0; tries++) {
    const rest = at === 0 ? text : text.slice(at);
    if (tries === MAX_LEAD_TRIES) return re.test(rest);
    if (matchesAtStart(re, rest)) return true;
    at = find(text, s.leadN, at + 1);
  }
  return false;
}

function markSet(set: RE2Set, text: string): void {
  callNo = (callNo + 1) | 0;
  if (callNo === 0) {
    stamp.fill(-1);
    callNo = 1;
  }
  const hits = set.match(text);
  for (let k = 0; k < hits.length; k++) {
    const h = hits[k]!;
    if (h >= stamp.length) {
      const grown = new Int32Array(Math.max(h + 1, stamp.length * 2));
      grown.set(stamp);
      stamp = grown;
    }
    stamp[h] = callNo;
  }
}

/** The group's DFA's answer for `text`: the deciding rule, or `undefined` when it has none to give. */
function dfaAnswer(group: Group, text: string): FastRule | null | undefined {
  const dfa = group.dfa;
  if (dfa === null) return undefined;
  const r = runDfa(dfa, text);
  if (r < 0) return undefined;
  if (r < dfa.deny) return group.deny.steps[r]!.rule;
  return r < dfa.deny + dfa.allow ? group.allow.steps[r - dfa.deny]!.rule : null;
}

function decideGroup(group: Group, subject: FastSubject): FastRule | null {
  const answer = dfaAnswer(group, subject.text);
  return answer !== undefined ? answer : decideSteps(group, subject);
}

function decideSteps(group: Group, subject: FastSubject): FastRule | null {
  scanGroup = null;
  return firstMatch(group, group.deny, subject) ?? firstMatch(group, group.allow, subject);
}

/** The deciding rule for a call: first matching deny, else ask, else allow, else `null`. */
export function decide(plan: FastPlan, foldedTool: string, subject: FastSubject): FastRule | null {
  return decideGroup(plan.groups.get(foldedTool) ?? plan.anyGroup, subject);
}

function groupOf(plan: FastPlan, toolName: string): Group {
  let group = plan.toolCache.get(toolName);
  if (group === undefined) {
    group = plan.groups.get(caseFold(toolName)) ?? plan.anyGroup;
    if (plan.toolCache.size >= TOOL_CACHE_MAX) plan.toolCache.clear();
    plan.toolCache.set(toolName, group);
  }
  return group;
}

/** `decide` for a tool name as sent: its group is cached by name, so the case fold runs once per name. */
export function decideTool(plan: FastPlan, toolName: string, subject: FastSubject): FastRule | null {
  return decideGroup(groupOf(plan, toolName), subject);
}

/**
 * `decideTool` for a raw text, which may hold lone surrogates (the DFA reads them as U+FFFD, as
 * `wellFormed` would make them): the subject is only made, by `subject(text)`, when the steps must decide.
 */
export function decideToolText(plan: FastPlan, toolName: string, text: string, subject: (text: string) => FastSubject): FastRule | null {
  const group = groupOf(plan, toolName);
  const answer = dfaAnswer(group, text);
  return answer !== undefined ? answer : decideSteps(group, subject(text));
}
