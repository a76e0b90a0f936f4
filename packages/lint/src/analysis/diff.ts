/**
 * Semantic difference of two approver configurations: which calls one allows and the other
 * denies, in both directions, each with a witness call the engine confirms.
 *
 * Per tool (every tool either policy names, compared under case folding, plus one "other tool"),
 * a pattern approver's decision is: deny if any applicable deny rule matches, else allow if any
 * applicable allow rule matches, else the default. Both decisions are formulas over the rules'
 * search DFAs; their disagreement is searched in the product. The domain is JSON object inputs
 * (raw text, or canonical text under `input: canonical`), over-approximated for proofs.
 */
import type { ApproverIR, CompiledApprover, Decision, RuleIR, RuleRef } from '@verdict/engine';
import { type Approx, type Domain, matches, misses } from './model.ts';
import { fieldAtoms } from './fields.ts';
import { and, FALSE, type Formula, not, or, TRUE } from './search.ts';
import {
  type AnalysisOptions,
  appliesTo,
  normalizeDefault,
  normalizeMode,
  type Outcome,
  presentable,
  Session,
  shapesFor,
  toolClasses,
  type ToolClass,
} from './session.ts';

export type DiffVerdict = 'stricter' | 'looser' | 'equivalent' | 'neither' | 'unknown';

export interface DecisionSummary {
  decision: Decision;
  reason: string;
  rule: RuleRef | null;
}

export interface DiffWitness {
  toolName: string;
  input: string;
  old: DecisionSummary;
  new: DecisionSummary;
}

export interface PolicyDiff {
  /**
   * `stricter`: the new policy denies some call the old allowed and allows nothing new;
   * `looser`: the reverse; `equivalent`: no JSON-object call is decided differently;
   * `neither`: both directions have a witness; `unknown`: a direction could not be decided.
   */
  verdict: DiffVerdict;
  /** A call the old policy allows and the new one denies; `null` when none exists or unknown. */
  newlyDenied: DiffWitness | null;
  /** A call the old policy denies and the new one allows. */
  newlyAllowed: DiffWitness | null;
  /** Why a direction is undecided (empty when the verdict is decided). */
  unknown: string[];
  /**
   * Every tool whose decisions changed, one witness per tool and direction (named tools first, in
   * the order the policies name them; "other tools" last): what a reviewer reads.
   */
  changes: DiffChange[];
}

export interface DiffChange extends DiffWitness {
  direction: 'newly-denied' | 'newly-allowed';
}

type Model =
  | { kind: 'const'; decision: Decision; approver: CompiledApprover }
  | { kind: 'pattern'; def: Decision; domain: Domain; allow: RuleIR[]; deny: RuleIR[]; approver: CompiledApprover }
  | { kind: 'invalid'; why: string };

function model(ir: ApproverIR, session: Session, label: string): Model {
  const approver = session.oracle.compile(ir);
  if (approver === undefined) return { kind: 'invalid', why: `the ${label} policy does not load` };
  const mode = normalizeMode(ir.mode);
  if (mode === 'allow_all') return { kind: 'const', decision: 'allow', approver };
  if (mode === 'deny_all') return { kind: 'const', decision: 'deny', approver };
  const rules = [...ir.allow, ...ir.deny];
  // Loaded in compatibility mode with an invalid regex: every call is denied.
  if (rules.some((r) => (r.match !== '' || r.field !== undefined) && !session.oracle.regexOk(r.match))) {
    return { kind: 'const', decision: 'deny', approver };
  }
  const def = normalizeDefault(ir.default);
  if (def === undefined) return { kind: 'invalid', why: `the ${label} policy has an unknown default` };
  return { kind: 'pattern', def, domain: ir.input === 'canonical' ? 'canonical' : 'raw', allow: ir.allow, deny: ir.deny, approver };
}

/** The literals of a rule: the formula for "it matches" and for "it does not". */
type Literals = (rule: RuleIR) => { pos: Formula; neg: Formula };

function allows(m: Model, cls: ToolClass, lit: Literals): Formula {
  if (m.kind === 'const') return m.decision === 'allow' ? TRUE : FALSE;
  if (m.kind === 'invalid') return FALSE;
  const ds = m.deny.filter((r) => appliesTo(r, cls)).map(lit);
  const as = m.allow.filter((r) => appliesTo(r, cls)).map(lit);
  return and(...ds.map((d) => d.neg), or(...as.map((a) => a.pos), m.def === 'allow' ? TRUE : FALSE));
}

function denies(m: Model, cls: ToolClass, lit: Literals): Formula {
  if (m.kind === 'const') return m.decision === 'deny' ? TRUE : FALSE;
  if (m.kind === 'invalid') return FALSE;
  const ds = m.deny.filter((r) => appliesTo(r, cls)).map(lit);
  const as = m.allow.filter((r) => appliesTo(r, cls)).map(lit);
  return or(...ds.map((d) => d.pos), and(...as.map((a) => a.neg), m.def === 'deny' ? TRUE : FALSE));
}

/** Rules with the same pattern and field have the same language, whatever their tool and place. */
const ruleKey = (r: RuleIR): string => `${r.field ?? '\u0001'}\u0000${r.match}`;

/** The rules of a list that apply to `cls`, one per language. */
function applying(rules: readonly RuleIR[], cls: ToolClass): Map<string, RuleIR> {
  const out = new Map<string, RuleIR>();
  for (const r of rules) if (appliesTo(r, cls) && !out.has(ruleKey(r))) out.set(ruleKey(r), r);
  return out;
}

/** The rules of `a` whose language is not in `b`. */
function minus(a: Map<string, RuleIR>, b: Map<string, RuleIR>): RuleIR[] {
  const out: RuleIR[] = [];
  for (const [k, r] of a) if (!b.has(k)) out.push(r);
  return out;
}

/** Questions asked one by one before the whole rule sets are (see `differenceParts`). */
const MAX_PARTS = 4_096;

/**
 * "`first` allows and `second` denies" as small questions over the rules the two policies do not
 * share: their union contains every such call (so all of them empty proves there is none), and
 * each has a handful of rules, so two versions of a large policy compare in time linear in their
 * size (a policy against itself at once). With C the shared deny rules, X and Y the other deny
 * rules of `first` and `second`, K the shared allow rules, P and Q the other allow rules, and dA,
 * dD the defaults:
 *   ¬C ∧ ¬X ∧ (K ∨ P ∨ dA) ∧ (C ∨ Y ∨ (¬K ∧ ¬Q ∧ dD))
 *   = ¬C ∧ ¬X ∧ ([(K ∨ P ∨ dA) ∧ Y] ∨ [(P ∨ dA) ∧ ¬K ∧ ¬Q ∧ dD])
 *   ⊆ ⋁_{y∈Y} ¬X ∧ y ∧ (K ∨ P ∨ dA)  ∨  ¬X ∧ (P ∨ dA) ∧ ¬Q ∧ dD,
 * each disjunction split into one question per rule. Witnesses are re-checked by the engine on
 * both whole policies like any other (the dropped `¬C`, `¬K` are checked there). `null` when a
 * policy is not a pattern approver or the questions would be more than `MAX_PARTS`.
 */
function differenceParts(first: Model, second: Model, cls: ToolClass): Array<(lit: Literals) => Formula> | null {
  if (first.kind !== 'pattern' || second.kind !== 'pattern') return null;
  const d1 = applying(first.deny, cls);
  const d2 = applying(second.deny, cls);
  const a1 = applying(first.allow, cls);
  const a2 = applying(second.allow, cls);
  const X = minus(d1, d2);
  const Y = minus(d2, d1);
  const P = minus(a1, a2);
  const Q = minus(a2, a1);
  const K = [...a1.keys()].filter((k) => a2.has(k)).map((k) => a1.get(k) as RuleIR);
  const dA = first.def === 'allow';
  const dD = second.def === 'deny';
  const allowing = dA ? [null] : [...K, ...P];
  const count = Y.length * allowing.length + (dD ? (dA ? 1 : P.length) : 0);
  if (count > MAX_PARTS) return null;
  const notX = (lit: Literals): Formula[] => X.map((x) => lit(x).neg);
  const parts: Array<(lit: Literals) => Formula> = [];
  for (const y of Y) {
    for (const a of allowing) parts.push((lit) => and(...notX(lit), lit(y).pos, a === null ? TRUE : lit(a).pos));
  }
  if (dD) {
    for (const p of dA ? [null] : P) parts.push((lit) => and(...notX(lit), p === null ? TRUE : lit(p).pos, ...Q.map((q) => lit(q).neg)));
  }
  return parts;
}

/**
 * Asks the parts in turn: the first confirmed witness answers; all empty is empty; otherwise
 * unknown, with the first reason met.
 */
function askParts(parts: ReadonlyArray<(lit: Literals) => Formula>, ask: (f: (lit: Literals) => Formula) => Outcome): Outcome {
  let unknown: string | undefined;
  for (const part of parts) {
    const r = ask(part);
    if (r.status === 'witness') return r;
    if (r.status === 'unknown') unknown ??= r.why;
  }
  return unknown === undefined ? { status: 'empty' } : { status: 'unknown', why: unknown };
}

function summary(approver: CompiledApprover, toolName: string, input: string): DecisionSummary {
  const e = approver.explain({ toolName, input });
  return { decision: e.decision, reason: e.reason, rule: e.rule };
}

type Direction = { status: 'none' } | { status: 'witness'; witnesses: DiffWitness[] } | { status: 'unknown'; why: string };

/** Compares two approver configurations (see `PolicyDiff`). Never throws: a failure is "unknown". */
export function diffPolicies(oldIr: ApproverIR, newIr: ApproverIR, options: AnalysisOptions = {}): PolicyDiff {
  const session = new Session(options);
  try {
    return diff(oldIr, newIr, session);
  } catch (e) {
    const why = `internal error: ${e instanceof Error ? e.message : String(e)}`;
    return { verdict: 'unknown', newlyDenied: null, newlyAllowed: null, unknown: [why], changes: [] };
  } finally {
    session.close();
  }
}

function diff(oldIr: ApproverIR, newIr: ApproverIR, session: Session): PolicyDiff {
  const oldM = model(oldIr, session, 'old');
  const newM = model(newIr, session, 'new');
  session.startClock();
  const invalid = [oldM, newM].flatMap((m) => (m.kind === 'invalid' ? [m.why] : []));
  if (invalid.length > 0) return { verdict: 'unknown', newlyDenied: null, newlyAllowed: null, unknown: invalid, changes: [] };
  const domains = new Set([oldM, newM].flatMap((m) => (m.kind === 'pattern' ? [m.domain] : [])));
  if (domains.size > 1) {
    const why = 'the policies read the input differently (`input: raw` and `input: canonical`)';
    return { verdict: 'unknown', newlyDenied: null, newlyAllowed: null, unknown: [why], changes: [] };
  }
  const domain: Domain = domains.has('canonical') ? 'canonical' : 'raw';
  const shapes = shapesFor(domain);
  const rules = [oldM, newM].flatMap((m) => (m.kind === 'pattern' ? [...m.allow, ...m.deny] : []));
  const classes = toolClasses(rules.map((r) => r.tool));
  const oldA = (oldM as { approver: CompiledApprover }).approver;
  const newA = (newM as { approver: CompiledApprover }).approver;

  const fields = fieldAtoms(session);
  const direction = (from: Model, to: Model, want: Decision): Direction => {
    const reasons: string[] = [];
    const witnesses: DiffWitness[] = [];
    for (const cls of classes) {
      const confirm = (w: string): string | null => {
        const v = presentable(session, domain, w);
        if (v === null) return null;
        const ok =
          oldA.explain({ toolName: cls.name, input: v }).decision === (want === 'deny' ? 'allow' : 'deny') &&
          newA.explain({ toolName: cls.name, input: v }).decision === want;
        return ok ? v : null;
      };
      const disagree = (lit: Literals): Formula =>
        want === 'deny' ? and(allows(from, cls, lit), denies(to, cls, lit)) : and(denies(from, cls, lit), allows(to, cls, lit));
      const applicable = [from, to].flatMap((m) => (m.kind === 'pattern' ? [...m.allow, ...m.deny] : [])).filter((x) => appliesTo(x, cls));
      let ask: (f: (lit: Literals) => Formula) => Outcome;
      if (domain === 'canonical' && applicable.every((x) => fields.of(x) !== null)) {
        // Only field rules decide for this tool: reason over values, exactly.
        ask = (build) => {
          const s = fields.solve(
            build((x) => {
              const a = fields.of(x) as Formula;
              return { pos: a, neg: not(a) };
            }),
          );
          const shown = s.status === 'witness' ? confirm(s.text) : null;
          if (s.status !== 'witness') return s;
          return shown === null ? { status: 'unknown', why: 'a witness failed the engine re-check' } : { status: 'witness', text: shown };
        };
      } else {
        ask = (build) =>
          session.solve(
            (mode: Approx) =>
              build((x) => {
                const l = session.language(x, domain);
                return { pos: matches(l, mode), neg: misses(l, mode) };
              }),
            shapes.object,
            shapes.flat,
            confirm,
          );
      }
      // Small questions over the rules the policies do not share first; the whole rule sets only
      // when those cannot settle it (a witness the shared rules decide otherwise, or too many).
      const parts = want === 'deny' ? differenceParts(from, to, cls) : differenceParts(to, from, cls);
      let r: Outcome = parts === null ? { status: 'unknown', why: '' } : askParts(parts, ask);
      if (r.status === 'unknown') r = ask(disagree);
      if (r.status === 'witness') {
        witnesses.push({ toolName: cls.name, input: r.text, old: summary(oldA, cls.name, r.text), new: summary(newA, cls.name, r.text) });
      }
      if (r.status === 'unknown') reasons.push(`tool \`${cls.key === null ? 'other tools' : cls.name}\`: ${r.why}`);
    }
    // One witness settles the direction (tools left undecided cannot unsettle it).
    if (witnesses.length > 0) return { status: 'witness', witnesses };
    return reasons.length === 0 ? { status: 'none' } : { status: 'unknown', why: reasons.join('; ') };
  };

  const denied = direction(oldM, newM, 'deny');
  const allowed = direction(oldM, newM, 'allow');
  const unknown = [denied, allowed].flatMap((d, i) =>
    d.status === 'unknown' ? [`${i === 0 ? 'newly denied calls' : 'newly allowed calls'}: ${d.why}`] : [],
  );
  const has = (d: Direction): boolean => d.status === 'witness';
  const none = (d: Direction): boolean => d.status === 'none';
  let verdict: DiffVerdict = 'unknown';
  if (has(denied) && has(allowed)) verdict = 'neither';
  else if (none(denied) && none(allowed)) verdict = 'equivalent';
  else if (has(denied) && none(allowed)) verdict = 'stricter';
  else if (none(denied) && has(allowed)) verdict = 'looser';
  return {
    verdict,
    newlyDenied: denied.status === 'witness' ? (denied.witnesses[0] ?? null) : null,
    newlyAllowed: allowed.status === 'witness' ? (allowed.witnesses[0] ?? null) : null,
    unknown,
    changes: [
      ...(denied.status === 'witness' ? denied.witnesses.map((w) => ({ direction: 'newly-denied' as const, ...w })) : []),
      ...(allowed.status === 'witness' ? allowed.witnesses.map((w) => ({ direction: 'newly-allowed' as const, ...w })) : []),
    ],
  };
}
