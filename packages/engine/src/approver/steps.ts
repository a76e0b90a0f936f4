/**
 * The steps: each rule's cheapest sound test, run rule by rule in list order. They decide the calls
 * a tool's DFA cannot (field rules, programs too large, a call past the DFA's bounds; `decide.ts`).
 *
 * A step is a rule and its test, a tagged union (`StepTest`), cheapest first: `always` (empty
 * match), `literal` (the pattern is a literal: matches iff the text contains it), `one` (the text
 * must contain one literal, then the regex decides), `check` (an anchored prefix, a few required
 * literals, a leading literal: then the regex decides), `fold` (a JavaScript RegExp of the literals
 * a match begins with, any case: then the regex decides), `run` (only the regex, or the list's set,
 * can say), `field` (a field rule: the definition). Screens come from `fast-screen.ts`. Rules that only
 * the regex can decide share one re2js `RE2Set` per tool and list, run at most once per call and
 * only when such a rule is reached; large groups add a literal gate (`fast-gate.ts`). A new kind of
 * rule adds a variant here and its case in `testMatches`.
 *
 * Every step must answer exactly as `definition.ts`'s `matches` does; the property tests check it.
 * Subjects are prepared by the caller: `text` is already well-formed (see `wellFormed`).
 */
import { RE2Set } from 're2js';
import type { RE2JS } from 're2js';
import type { CompiledRegex } from '../regex/regex.ts';
import { matches } from './definition.ts';
import type { Rule, Subject } from './definition.ts';
import { Q, scan } from './fast-gate.ts';
import type { Gate } from './fast-gate.ts';
import { find, findAll, needle } from './fast-find.ts';
import type { Needle } from './fast-find.ts';
import { literalPaths, matchesAtStart, screenFor } from './fast-screen.ts';

/** How a step tests its rule. `exact`: a RegExp deciding exactly as the regex (`undefined`: not yet looked for). */
export type StepTest =
  | { readonly kind: 'always' }
  | { readonly kind: 'literal'; readonly needle: Needle }
  | { readonly kind: 'one'; readonly needle: Needle; exact: RegExp | null | undefined }
  | {
      readonly kind: 'check';
      /** The text must start with this (`""`: no anchor known). */
      readonly prefix: string;
      /** For each group, the text must contain one of its literals. */
      readonly groups: readonly (readonly Needle[])[];
      /** The literal every match starts with (`""`: none known). */
      readonly lead: Needle;
      /** Only a match at 0 is possible (`^…`): run anchored, which stops early. */
      readonly anchored: boolean;
      exact: RegExp | null | undefined;
    }
  | {
      readonly kind: 'fold';
      /** Every subject the rule matches also matches this. */
      readonly fold: RegExp;
      /** `fold` itself when it decides exactly, else `null`. */
      readonly exact: RegExp | null;
    }
  | { readonly kind: 'run' }
  | { readonly kind: 'field' };

export interface Step {
  readonly rule: Rule;
  readonly test: StepTest;
  /** The re2js program, when the regex exposes it; else `rule.regex` runs. */
  readonly re: RE2JS | null;
  /** Position in the list's set (`run` and `fold` steps of a list with a set), else -1. */
  readonly setIndex: number;
  /** The step's id in its group's gate (it can match only when the gate marks it), else -1. */
  readonly gateId: number;
}

/** A list's set results: the call that last marked each set index (no clearing, no allocation). */
export interface SetScratch {
  hits: Int32Array;
  call: number;
}

export interface StepList {
  readonly steps: readonly Step[];
  /** One pass over the text answers every set step of the list; `null` when there are too few. */
  readonly set: RE2Set | null;
  readonly setScratch: SetScratch;
}

/** A group's per-call scratch: whether this call's gate scan was made, and its number. */
export interface GateScratch {
  scanned: boolean;
  scan: number;
}

/** Fewer set-able rules than this are cheaper to run one by one than as a set. */
const MIN_SET = 4;
/**
 * DFA memory budget of one set (the re2js default). A set of hundreds of `(?i)` rules has states of
 * hundreds of program counters: at 1 MiB its state cache reset every few calls and rebuilt states
 * (`closure`) on every call (10,000-rule policy: 0.6k decisions/s; at 8 MiB 2.0k/s).
 */
const SET_MAX_MEM = 8 << 20;

function engineOf(regex: CompiledRegex | null): RE2JS | null {
  return regex?.engine ?? null;
}

const NO_LEAD = needle('');

/**
 * `test` with every field of every variant present (`undefined` where the variant has none), in one
 * order: all tests then share one hidden class, so the decision loop's `switch (t.kind)` reads a field
 * of one shape, not of seven (a megamorphic read in the per-rule loop cost ~10 % on policies whose
 * steps decide every call).
 */
function oneShape(test: StepTest): StepTest {
  return Object.assign(
    { kind: test.kind, needle: undefined, prefix: undefined, groups: undefined, lead: undefined, anchored: undefined, fold: undefined, exact: undefined },
    test,
  ) as StepTest;
}

/** The cheapest sound test of `rule`. */
export function testFor(rule: Rule, re: RE2JS | null): StepTest {
  return oneShape(testOf(rule, re));
}

function testOf(rule: Rule, re: RE2JS | null): StepTest {
  if (rule.field !== undefined) return { kind: 'field' };
  if (rule.regex === null) return { kind: 'always' };
  if (re === null) return { kind: 'run' };
  const s = screenFor(re);
  if (s.kind === 'literal') return { kind: 'literal', needle: needle(s.needle) };
  if (s.kind === 'run') {
    const paths = literalPaths(re);
    return paths === null ? { kind: 'run' } : { kind: 'fold', fold: paths.regex, exact: paths.exact ? paths.regex : null };
  }
  const only = s.groups[0];
  if (s.prefix === '' && s.lead === '' && !s.anchored && s.groups.length === 1 && only !== undefined && only.length === 1) {
    return { kind: 'one', needle: needle(only[0]!), exact: undefined };
  }
  return {
    kind: 'check',
    prefix: s.prefix,
    groups: s.groups.map((g) => g.map((t) => needle(t))),
    lead: s.lead === '' ? NO_LEAD : needle(s.lead),
    anchored: s.anchored,
    exact: undefined,
  };
}

/** The step of `rule` alone: its test, outside any set or gate. */
export function stepOf(rule: Rule): Step {
  const re = engineOf(rule.regex);
  return { rule, test: testFor(rule, re), re, setIndex: -1, gateId: -1 };
}

/**
 * What the DFA runs for step `s`: its re2js program, `null` when the rule matches every text, or
 * `undefined` when the DFA cannot run it (a field rule, a regex with no program exposed): then the
 * group has no DFA and the steps decide every call. A new kind of step must say which.
 */
export function dfaProgram(s: Step): RE2JS | null | undefined {
  const kind = s.test.kind;
  switch (kind) {
    case 'always':
      return null;
    case 'field':
      return undefined;
    case 'literal':
    case 'one':
    case 'check':
    case 'fold':
    case 'run':
      return s.re ?? undefined;
    default: {
      const unknown: never = kind;
      return unknown;
    }
  }
}

/** Whether the step runs in its list's set when the list has one. */
function setAble(s: Step): boolean {
  return (s.test.kind === 'run' || s.test.kind === 'fold') && s.re !== null;
}

/**
 * The steps of `rules` (one list of one tool, in order), each rule's test made once per plan
 * (`cache`). Nothing after a rule that always matches can decide: the list stops there.
 */
export function buildStepList(rules: readonly Rule[], cache: Map<Rule, Step>): StepList {
  const prepared = rules.map((r) => {
    let s = cache.get(r);
    if (s === undefined) {
      s = stepOf(r);
      cache.set(r, s);
    }
    return s;
  });
  const cut = prepared.findIndex((s) => s.test.kind === 'always');
  const live = cut < 0 ? prepared : prepared.slice(0, cut + 1);
  // `fold` steps are `run` steps with a screen: with enough of them one set pass is cheaper.
  const runs = live.filter(setAble);
  let set: RE2Set | null = null;
  const setIndex = new Map<Step, number>();
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
  return {
    steps: live.map((s) => (setIndex.has(s) ? { ...s, setIndex: setIndex.get(s)! } : s)),
    set,
    setScratch: { hits: new Int32Array(setIndex.size).fill(-1), call: 0 },
  };
}

/** Whether every literal of `group` is a JSON key (`"file_path":"`): found in almost every input. */
function jsonKeys(group: readonly string[]): boolean {
  return group.every((n) => /^"[\w-]*":?"?$/.test(n));
}

/**
 * Needles one of which every match of the step contains, each at least `Q` long, or `null` (the
 * step is not keyed): the literal itself, the anchored prefix, a required group, the leading literal.
 */
export function keyOf(test: StepTest): readonly string[] | null {
  if (test.kind === 'literal' || test.kind === 'one') return test.needle.text.length >= Q ? [test.needle.text] : null;
  if (test.kind !== 'check') return null;
  const options: (readonly string[])[] = test.groups.map((g) => g.map((n) => n.text));
  if (test.prefix !== '') options.push([test.prefix]);
  if (test.lead.text !== '') options.push([test.lead.text]);
  let best: readonly string[] | null = null;
  let bestScore = -Infinity;
  for (const o of options) {
    if (o.length === 0 || o.some((n) => n.length < Q)) continue;
    const score = o.reduce((m, n) => Math.min(m, n.length), Infinity) - o.length - (jsonKeys(o) ? 1000 : 0);
    if (score > bestScore) {
      best = o;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Longest text an unanchored `exact` RegExp runs on: its alternatives are literal paths of up to 64
 * characters, which a backtracking matcher may compare at every position; past this the regex's
 * run (bounded per character) is the safer one.
 */
const EXACT_MAX = 8192;

/** The step's exact RegExp, looked for on first use (most steps of a large policy never pass their screens). */
function exactOf(test: { exact: RegExp | null | undefined }, re: RE2JS | null): RegExp | null {
  if (test.exact === undefined) {
    const paths = re === null ? null : literalPaths(re);
    test.exact = paths !== null && paths.exact ? paths.regex : null;
  }
  return test.exact;
}

/** Whether step `s` (alone: no set, no gate) matches `subject`: screens, then the cheapest exact run. */
export function stepMatches(s: Step, subject: Subject): boolean {
  const text = subject.text;
  const t = s.test;
  switch (t.kind) {
    case 'always':
      return true;
    case 'literal':
      return find(text, t.needle) >= 0;
    case 'one':
      if (find(text, t.needle) < 0) return false;
      if (text.length <= EXACT_MAX) {
        const exact = exactOf(t, s.re);
        if (exact !== null) return exact.test(text);
      }
      break;
    case 'check': {
      if (t.prefix !== '' && !text.startsWith(t.prefix)) return false;
      // Anchored and exact: a test that reads no further than the pattern reaches, no group search.
      const exact = t.anchored || text.length <= EXACT_MAX ? exactOf(t, s.re) : null;
      if (t.anchored && exact !== null) return exact.test(text);
      if (!findAll(t.groups, text)) return false;
      if (exact !== null) return exact.test(text);
      if (t.lead.text !== '') return fromLead(s, t.lead, text);
      if (t.anchored && s.re !== null) return matchesAtStart(s.re, text);
      break;
    }
    case 'fold':
      if (!t.fold.test(text)) return false;
      if (t.exact !== null) return true; // the screen was the exact test
      break;
    case 'field':
      return matches(s.rule, subject);
    case 'run':
      break;
  }
  return s.re !== null ? s.re.test(text) : s.rule.regex!.testWellFormed(text);
}

/** Anchored tries at the first occurrences of `lead`; more than this and one unanchored pass decides. */
const MAX_LEAD_TRIES = 8;

/**
 * A pattern that begins with the literal `lead` can only match where `lead` occurs. An anchored
 * match tried at each occurrence reads only the attempt, not the rest of the text; nothing before a
 * match start is looked at (the pattern begins with a character, not an assertion), so a slice
 * starting there decides as the whole text would. After a few tries one unanchored pass decides.
 */
function fromLead(s: Step, lead: Needle, text: string): boolean {
  let at = find(text, lead);
  const re = s.re;
  if (re === null) return at >= 0 && s.rule.regex!.testWellFormed(text);
  for (let tries = 0; at >= 0; tries++) {
    const rest = at === 0 ? text : text.slice(at);
    if (tries === MAX_LEAD_TRIES) return re.test(rest);
    if (matchesAtStart(re, rest)) return true;
    at = find(text, lead, at + 1);
  }
  return false;
}

/** Runs the list's set over `text`, marking the set indexes that match with a new call number. */
function markSet(list: StepList, text: string): number {
  const scratch = list.setScratch;
  scratch.call = (scratch.call + 1) | 0;
  if (scratch.call <= 0) {
    scratch.hits.fill(-1);
    scratch.call = 1;
  }
  const hits = list.set!.match(text);
  for (let k = 0; k < hits.length; k++) scratch.hits[hits[k]!] = scratch.call;
  return scratch.call;
}

/**
 * The first step of `list` that matches `subject`, or `null`. `gate` (the group's, or `null`) and
 * its scratch `g` (reset by the caller for each call) let keyed steps be skipped after one scan.
 */
export function firstMatch(list: StepList, gate: Gate | null, g: GateScratch, subject: Subject): Rule | null {
  const text = subject.text;
  const steps = list.steps;
  let setCall = -1;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    if (s.gateId >= 0) {
      if (!g.scanned) {
        g.scanned = true;
        g.scan = scan(gate!, text);
      }
      if (gate!.marks[s.gateId] !== g.scan) continue;
      if (stepMatches(s, subject)) return s.rule;
    } else if (s.setIndex >= 0) {
      if (setCall < 0) setCall = markSet(list, text);
      if (list.setScratch.hits[s.setIndex] === setCall) return s.rule;
    } else if (stepMatches(s, subject)) return s.rule;
  }
  return null;
}
