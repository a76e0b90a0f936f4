/**
 * Findings about one approver's rules: dead rules, rules shadowed by rules that win over them
 * (an allow rule by deny and ask rules, an ask rule by deny rules: deny > ask > allow), and pairs of
 * such rules that overlap. Every "dead" and "shadowed" verdict is an emptiness proof over a
 * sound over-approximation; every witness has been confirmed by the engine; anything else is
 * reported as `unknown` (or, for overlaps, not reported).
 */
import { caseFold, isCommandRule, normalizeApproverMode } from '@verdict/engine';
import type { ApproverIR, CompiledApprover, InputMode, RuleIR, RuleList, Span } from '@verdict/engine';
import type { Domain, RuleLanguage } from './model.ts';
import { matches, misses } from './model.ts';
import { fieldAtoms } from './fields.ts';
import { and, andOf, type Formula, not } from './search.ts';
import {
  type AnalysisOptions,
  appliesTo,
  presentable,
  type Outcome,
  Session,
  shapesFor,
  type ToolClass,
  toolClasses,
} from './session.ts';

export interface RuleLocation {
  list: RuleList;
  index: number;
  span?: Span;
}

/** A tool call: the tool name and the raw input text to send. */
export interface Witness {
  toolName: string;
  input: string;
}

export type AnalysisQuestion = 'dead-rule' | 'shadowed-rule' | 'overlap';

export type AnalysisFinding =
  | {
      kind: 'dead-rule';
      rule: RuleLocation;
      /** `any-input`: the rule matches no text at all; `json-object`: no JSON object text. */
      scope: 'any-input' | 'json-object';
      /** For `json-object`: a non-object input the rule does match, confirmed by the engine. */
      example?: Witness;
    }
  | {
      kind: 'shadowed-rule';
      /** An allow rule, or an ask rule. */
      rule: RuleLocation;
      /** The rules that win over it (deny rules; for an allow rule, ask rules too) and cover it. */
      by: RuleLocation[];
      /** A call the rule matches and a rule of `by`'s lists decides, confirmed by the engine. */
      example?: Witness;
    }
  | {
      kind: 'overlap';
      /** The rule that loses: an allow rule, or an ask rule under a deny rule. */
      allow: RuleLocation;
      /** The rule that wins: a deny rule, or an ask rule over an allow rule. */
      deny: RuleLocation;
      witness: Witness;
    }
  | { kind: 'unknown'; question: AnalysisQuestion; rule: RuleLocation; related?: RuleLocation; reason: string }
  /**
   * The run's time budget (`totalTimeMs`) was spent: `unchecked` of the `total` rules were not
   * analysed at all (no finding about them means nothing). One per question at most.
   */
  | { kind: 'budget'; question: AnalysisQuestion; unchecked: number; total: number; timeMs: number };

/** Winning rules a shadowing question is asked over at once; past it the question is unknown. */
const MAX_COVER_RULES = 256;
/** Counterexamples tried when looking for the winning rules that cover a rule. */
const MAX_COVER_ROUNDS = 32;

interface Indexed {
  rule: RuleIR;
  loc: RuleLocation;
}

function locate(list: RuleList, index: number, rule: RuleIR): RuleLocation {
  return rule.span === undefined ? { list, index } : { list, index, span: rule.span };
}

/**
 * Analyses the rules of a pattern-mode approver. Other modes have no rules that take effect and
 * yield no findings; rules whose regex does not compile are left to the regex rules.
 */
export function analyzeApprover(ir: ApproverIR, options: AnalysisOptions = {}): AnalysisFinding[] {
  if (normalizeApproverMode(ir.mode) !== 'pattern') return [];
  const session = new Session(options);
  try {
    return analyze(ir, options, session);
  } finally {
    session.close();
  }
}

function analyze(ir: ApproverIR, options: AnalysisOptions, session: Session): AnalysisFinding[] {
  const input: InputMode = ir.input === 'canonical' ? 'canonical' : 'raw';
  const domain: Domain = input;
  const shapes = shapesFor(domain);
  // Command rules judge executed commands, not the text: the regex model leaves them out (it may then
  // miss a finding about them, never state a wrong one about a regex rule they decide before).
  const valid = (r: RuleIR): boolean =>
    isCommandRule(r) ? false : r.match === '' && r.field === undefined ? true : session.oracle.regexOk(r.match);
  const allows: Indexed[] = ir.allow.map((rule, i) => ({ rule, loc: locate('allow', i, rule) })).filter((x) => valid(x.rule));
  const denies: Indexed[] = ir.deny.map((rule, i) => ({ rule, loc: locate('deny', i, rule) })).filter((x) => valid(x.rule));
  const asks: Indexed[] = (ir.ask ?? []).map((rule, i) => ({ rule, loc: locate('ask', i, rule) })).filter((x) => valid(x.rule));
  const classes = toolClasses([...ir.allow, ...ir.deny, ...(ir.ask ?? [])].map((r) => r.tool));
  // A call to show for rules without a tool: any tool will do; a named one reads better.
  const toolFor = (...rules: RuleIR[]): string => rules.find((r) => r.tool !== '')?.tool ?? (classes[0] as ToolClass).name;
  const findings: AnalysisFinding[] = [];
  // The whole approver, compiled only when a shadowed rule needs an example.
  let compiled: { approver: CompiledApprover | undefined } | undefined;
  const whole = (): CompiledApprover | undefined => (compiled ??= { approver: session.oracle.compile(ir) }).approver;

  const show = (w: string): string | null => presentable(session, domain, w);

  const checks = { dead: true, shadowed: true, overlap: true, ...options.checks };

  // Under canonical input, questions about field rules alone are decided exactly over values.
  const fields = fieldAtoms(session);
  const exactFields = (...rules: RuleIR[]): Formula[] | null => {
    if (domain !== 'canonical') return null;
    const out: Formula[] = [];
    for (const r of rules) {
      const f = fields.of(r);
      if (f === null) return null;
      out.push(f);
    }
    return out;
  };

  const budget = (question: AnalysisQuestion, unchecked: number, total: number): void => {
    findings.push({ kind: 'budget', question, unchecked, total, timeMs: options.totalTimeMs ?? 5_000 });
  };

  // Dead rules (also needed, unreported, by the other questions: a dead rule shadows nothing).
  const dead = new Set<Indexed>();
  // A text each live rule matches (a candidate: the engine confirms it before use).
  const sample = new Map<Indexed, string>();
  const everyRule = [...allows, ...denies, ...asks];
  for (const [i, x] of everyRule.entries()) {
    if (session.outOfTime()) {
      // Every rule left is unchecked; a rule not proven dead is taken as live by the questions below.
      budget('dead-rule', everyRule.length - i, everyRule.length);
      break;
    }
    // A field rule under canonical input whose value language is not empty matches the flat
    // object holding such a value: decided over values, without the rule's text language.
    const exact = exactFields(x.rule);
    if (exact !== null) {
      const v = fields.solve(exact[0] as Formula);
      if (v.status === 'witness') {
        sample.set(x, v.text);
        continue;
      }
    }
    const lang = session.language(x.rule, domain);
    const tool = toolFor(x.rule);
    // An example must be a text the rule really sees: under canonical input, a canonical text.
    const hit = (w: string): string | null =>
      (input === 'raw' || session.oracle.canonicalOf(w) === w) && session.oracle.ruleMatches(x.rule, x.loc.list, input, tool, w) === true ? w : null;
    const onObjects = session.solve((m) => matches(lang, m), shapes.object, shapes.flat, (w) => w);
    if (onObjects.status === 'witness') {
      sample.set(x, onObjects.text);
      continue;
    }
    if (onObjects.status === 'unknown') {
      findings.push({ kind: 'unknown', question: 'dead-rule', rule: x.loc, reason: reasonOf(onObjects, lang.note) });
      continue;
    }
    dead.add(x);
    if (!checks.dead) continue;
    const anyText = session.solve((m) => matches(lang, m), shapes.any, shapes.any, hit);
    if (anyText.status === 'empty') findings.push({ kind: 'dead-rule', rule: x.loc, scope: 'any-input' });
    else if (anyText.status === 'witness') {
      findings.push({ kind: 'dead-rule', rule: x.loc, scope: 'json-object', example: { toolName: tool, input: anyText.text } });
    } else findings.push({ kind: 'dead-rule', rule: x.loc, scope: 'json-object' });
  }

  // Shadowed rules and overlaps: allow rules under deny and ask rules, ask rules under deny rules.
  // What every such rule shares is computed once: the live winning rules of each list kind, per
  // tool class, and the classes of each tool name.
  const liveDenies = denies.filter((d) => !dead.has(d));
  const liveWinners = [...liveDenies, ...asks.filter((k) => !dead.has(k))];
  const byClass = (ws: readonly Indexed[]): Map<ToolClass, Indexed[]> => new Map(classes.map((c) => [c, ws.filter((d) => appliesTo(d.rule, c))]));
  const liveDeniesByClass = byClass(liveDenies);
  const liveWinnersByClass = byClass(liveWinners);
  const at = (list: RuleList, index: number): string => `${list}:${index}`;
  const ruleAt = new Map<string, Indexed>([...denies, ...asks].map((d) => [at(d.loc.list, d.loc.index), d]));
  // A cover is named in list order (deny rules, then ask rules), as the whole question names it.
  const rank = new Map<Indexed, number>(liveWinners.map((d, i) => [d, i]));
  const classesOf = new Map<string, ToolClass[]>();
  const mineOf = (tool: string): ToolClass[] => {
    const key = tool === '' ? '' : caseFold(tool);
    let m = classesOf.get(key);
    if (m === undefined) {
      m = classes.filter((c) => (tool === '' ? true : c.key === key));
      classesOf.set(key, m);
    }
    return m;
  };
  const wanted = checks.shadowed || checks.overlap;
  const losers = [...allows, ...asks];
  for (const [ai, a] of losers.entries()) {
    if (dead.has(a) || !wanted) continue;
    if (session.outOfTime()) {
      budget(checks.shadowed ? 'shadowed-rule' : 'overlap', losers.length - ai, losers.length);
      break;
    }
    // The rules that win over `a`: deny and ask rules over an allow rule, deny rules over an ask rule.
    const isAllow = a.loc.list === 'allow';
    const winners = isAllow ? [...denies, ...asks] : denies;
    const winnerLists: readonly RuleList[] = isAllow ? ['deny', 'ask'] : ['deny'];
    const winnersNamed = isAllow ? 'deny and ask' : 'deny';
    const live = isAllow ? liveWinners : liveDenies;
    const liveByClass = isAllow ? liveWinnersByClass : liveDeniesByClass;
    let langA: RuleLanguage | undefined;
    const langOfA = (): RuleLanguage => (langA ??= session.language(a.rule, domain));
    const mine = mineOf(a.rule.tool);
    /** Whether the winning rules `ds` cover `a` for every tool it applies to. */
    const covered = (ds: readonly Indexed[]): Outcome => {
      for (const cls of mine) {
        const mineDs = ds === live ? (liveByClass.get(cls) as Indexed[]) : ds.filter((d) => appliesTo(d.rule, cls));
        if (mineDs.length === 0) return { status: 'witness', text: '' };
        if (mineDs.length > MAX_COVER_RULES) {
          return { status: 'unknown', why: `${mineDs.length} ${winnersNamed} rules apply to the tool, over the ${MAX_COVER_RULES} one question takes` };
        }
        const fa = exactFields(a.rule, ...mineDs.map((d) => d.rule));
        if (fa !== null) {
          const r = fields.solve(and(fa[0] as Formula, ...fa.slice(1).map((x) => not(x))));
          if (r.status === 'empty') continue;
          return r;
        }
        const A = langOfA();
        const langs = mineDs.map((d) => session.language(d.rule, domain));
        const r = session.solve((m) => and(matches(A, m), ...langs.map((D) => misses(D, m))), shapes.object, shapes.flat, (w) => w);
        if (r.status === 'witness') return r;
        if (r.status === 'unknown') return { status: 'unknown', why: reasonOf(r, [A, ...langs].find((l) => !l.exact)?.note) };
      }
      return { status: 'empty' };
    };
    /**
     * Shadowing found from counterexamples: a call `a` matches is decided by the whole approver;
     * if no winning rule decides it, no winning rule matches it (deny > ask > allow, and the engine
     * names the first rule of the strongest list that matches), so `a` is not shadowed; otherwise
     * the winning rule that decided joins a candidate cover, and a call `a` matches outside the
     * cover is looked for. An empty search proves the cover. Each question holds only the cover's
     * rules, so a large policy costs little more per rule than a small one. `null`: undecided this
     * way (and then the whole question is asked).
     */
    const byCounterexamples = (): { shadowed: false } | { shadowed: true; cover: Indexed[] } | null => {
      if (a.rule.tool === '') return null;
      const approver = whole();
      if (approver === undefined) return null;
      const tool = a.rule.tool;
      const cover: Indexed[] = [];
      let w = sample.get(a);
      for (let round = 0; round < MAX_COVER_ROUNDS && w !== undefined && w !== ''; round++) {
        const v = show(w);
        if (v === null || session.oracle.ruleMatches(a.rule, a.loc.list, input, tool, v) !== true) return null;
        const decided = approver.decide({ toolName: tool, input: v });
        // Decided by a rule of a list that does not win over `a` (an allow rule, or for an ask rule
        // an ask rule): no winning rule matches this call. Anything else not by a winning rule (a
        // default, an input failure) leaves it undecided.
        if (decided.rule === null) return null;
        const list = decided.rule.list;
        if (!winnerLists.includes(list)) return decided.decision === list ? { shadowed: false } : null;
        if (decided.decision !== list) return null;
        const d = ruleAt.get(at(list, decided.rule.index));
        if (d === undefined || dead.has(d) || cover.includes(d)) return null;
        cover.push(d);
        const r = covered(cover);
        if (r.status === 'empty') return { shadowed: true, cover };
        if (r.status === 'unknown') return null;
        w = r.text;
      }
      return null;
    };
    let shadowed = false;
    let cover: Indexed[] | undefined;
    if (checks.shadowed) {
      const quick = byCounterexamples();
      if (quick !== null) {
        shadowed = quick.shadowed;
        if (quick.shadowed) cover = quick.cover;
      } else {
        const c = covered(live);
        if (c.status === 'unknown') findings.push({ kind: 'unknown', question: 'shadowed-rule', rule: a.loc, reason: c.why });
        shadowed = c.status === 'empty';
      }
    }
    // Pairs: which winning rules share inputs with this rule (not needed for a cover found above
    // unless overlaps are asked for, and a shadowed rule reports no overlap).
    const by: RuleLocation[] = [];
    for (const d of cover === undefined ? winners : []) {
      if (dead.has(d) || !(shadowed || checks.overlap)) continue;
      if (a.rule.tool !== '' && d.rule.tool !== '' && caseFold(a.rule.tool) !== caseFold(d.rule.tool)) continue;
      const langD = (): RuleLanguage => session.language(d.rule, domain);
      const tool = toolFor(a.rule, d.rule);
      const both = (w: string): string | null => {
        const v = show(w);
        if (v === null) return null;
        const ok = session.oracle.ruleMatches(a.rule, a.loc.list, input, tool, v) === true && session.oracle.ruleMatches(d.rule, d.loc.list, input, tool, v) === true;
        return ok ? v : null;
      };
      const fa = exactFields(a.rule, d.rule);
      let r: Outcome;
      if (fa === null) {
        const A = langOfA();
        const D = langD();
        r = session.solve((m) => and(matches(A, m), matches(D, m)), shapes.object, shapes.flat, both);
      }
      else {
        const s = fields.solve(andOf(fa));
        const shown = s.status === 'witness' ? both(s.text) : null;
        if (s.status !== 'witness') r = s;
        else r = shown === null ? { status: 'unknown', why: 'a witness failed the engine re-check' } : { status: 'witness', text: shown };
      }
      if (r.status === 'witness') {
        by.push(d.loc);
        if (!shadowed) findings.push({ kind: 'overlap', allow: a.loc, deny: d.loc, witness: { toolName: tool, input: r.text } });
      } else if (r.status === 'unknown' && !shadowed) {
        findings.push({ kind: 'unknown', question: 'overlap', rule: a.loc, related: d.loc, reason: reasonOf(r, [langOfA(), langD()].find((l) => !l.exact)?.note) });
      }
    }
    if (!shadowed) continue;
    // An example: a call the rule matches that the whole approver decides by a winning rule.
    const tool = toolFor(a.rule);
    const denied = (w: string): string | null => {
      const v = show(w);
      if (v === null || session.oracle.ruleMatches(a.rule, a.loc.list, input, tool, v) !== true) return null;
      const approver = whole();
      if (approver === undefined) return null;
      const e = session.oracle.explain(approver, tool, v);
      return e.by === 'rule' && e.rule !== null && winners.some((w) => w.loc.list === e.rule!.list) ? v : null;
    };
    const A = langOfA();
    const ex = session.solve((m) => matches(A, m), shapes.object, shapes.flat, denied);
    // Name a minimal set of winning rules that still covers it: the overlapping ones (or the cover
    // found from counterexamples), less any that the others make unnecessary.
    let minimal: Indexed[] = cover !== undefined ? [...cover].sort((x, y) => (rank.get(x) ?? 0) - (rank.get(y) ?? 0)) : live.filter((d) => by.includes(d.loc));
    if (cover === undefined && covered(minimal).status !== 'empty') minimal = live;
    for (const d of [...minimal]) {
      const rest: Indexed[] = minimal.filter((x) => x !== d);
      if (rest.length > 0 && covered(rest).status === 'empty') minimal = rest;
    }
    const finding: AnalysisFinding = { kind: 'shadowed-rule', rule: a.loc, by: minimal.map((d) => d.loc) };
    if (ex.status === 'witness') finding.example = { toolName: tool, input: ex.text };
    findings.push(finding);
  }
  return findings;
}

function reasonOf(o: Outcome, note: string | undefined): string {
  const why = o.status === 'unknown' ? o.why : 'undecided';
  return note === undefined ? why : `${why}; ${note}`;
}
