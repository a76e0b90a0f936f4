/**
 * Semantic difference of two approver configurations: which calls one allows and the other
 * denies, in both directions, each with a witness call the engine confirms; with ask rules, also
 * the calls the new policy asks about and the old one did not.
 *
 * Per tool (every tool either policy names, compared under case folding, plus one "other tool"),
 * a pattern approver's decision is: deny if any applicable deny rule matches, else ask if any
 * applicable ask rule matches, else allow if any applicable allow rule matches, else the default. Both decisions are formulas over the rules'
 * search DFAs; their disagreement is searched in the product. The domain is JSON object inputs
 * (raw text, or canonical text under `input: canonical`), over-approximated for proofs.
 *
 * A shell tool with command rules in either policy is compared apart (`command-side.ts`): the
 * moves the two policies' differences allow prove the other directions empty, and example calls
 * (and the regex rules' own witnesses), run through both approvers, find witnesses; a direction
 * left is "unknown". Command rules need the caller's judge (`AnalysisOptions.commandJudge`).
 */
import { isCommandRule, normalizeApproverDefault, normalizeApproverMode } from '@verdict/engine';
import type { ApproverIR, CompiledApprover, Decision, RuleIR, RuledDecision, RuleRef } from '@verdict/engine';
import { type ClassSide, type CommandSide, commandSides, exampleCommands, hasMove, type Moves, possibleMoves, type RegexSide } from './command-side.ts';
import { type Approx, type Domain, matches, misses } from './model.ts';
import { fieldAtoms } from './fields.ts';
import { and, andOf, FALSE, type Formula, not, or, orOf, TRUE } from './search.ts';
import {
  type AnalysisOptions,
  appliesTo,
  type Outcome,
  presentable,
  Session,
  shapesFor,
  toolClasses,
  type ToolClass,
} from './session.ts';

export type DiffVerdict = 'stricter' | 'looser' | 'equivalent' | 'neither' | 'unknown';

export interface DecisionSummary {
  decision: RuledDecision;
  reason: string;
  rule: RuleRef | null;
  /** Present when the command rules of a shell tool decided (with `rule: null`: text they cannot judge). */
  by?: 'command';
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
   * With ask rules, decisions are ordered allow < ask < deny: a call that moves up the order
   * (allowed → asked, asked → denied) makes the new policy stricter, one that moves down looser.
   */
  verdict: DiffVerdict;
  /** A call the old policy allows (or asks about) and the new one denies; `null` when none exists or unknown. */
  newlyDenied: DiffWitness | null;
  /** A call the old policy denies (or asks about) and the new one allows. */
  newlyAllowed: DiffWitness | null;
  /**
   * A call the new policy asks about and the old one allows or denies (present only when one of
   * the policies has ask rules; `null` when none exists or unknown).
   */
  newlyAsked?: DiffWitness | null;
  /** Why a direction is undecided (empty when the verdict is decided). */
  unknown: string[];
  /**
   * Every tool whose decisions changed, one witness per tool and direction (named tools first, in
   * the order the policies name them; "other tools" last): what a reviewer reads.
   */
  changes: DiffChange[];
}

export interface DiffChange extends DiffWitness {
  /** The new decision, which the old policy did not take (`newly-asked` only with ask rules). */
  direction: 'newly-denied' | 'newly-allowed' | 'newly-asked';
}

type Model =
  | { kind: 'const'; decision: Decision; approver: CompiledApprover }
  | {
      kind: 'pattern';
      def: Decision;
      domain: Domain;
      /** The regex rules (command rules are the `commands` side). */
      allow: RuleIR[];
      deny: RuleIR[];
      ask: RuleIR[];
      /** The command side of each shell tool, by folded name (empty without command rules). */
      commands: Map<string, CommandSide>;
      /** Every tool the policy names (its rules' tools in order, then its shell tools with command rules). */
      tools: string[];
      approver: CompiledApprover;
    }
  | { kind: 'invalid'; why: string };

function model(ir: ApproverIR, session: Session, label: string): Model {
  const rules = [...ir.allow, ...ir.deny, ...(ir.ask ?? [])];
  const approver = session.oracle.compile(ir);
  if (approver === undefined) {
    // Without a judge, command rules cannot be compared: no answer rather than a wrong one.
    if (session.options.commandJudge === undefined && rules.some(isCommandRule)) {
      return { kind: 'invalid', why: `the ${label} policy has command rules on shell tools, and no command judge was given to compare them` };
    }
    return { kind: 'invalid', why: `the ${label} policy does not load` };
  }
  const mode = normalizeApproverMode(ir.mode);
  if (mode === 'allow_all') return { kind: 'const', decision: 'allow', approver };
  if (mode === 'deny_all') return { kind: 'const', decision: 'deny', approver };
  // Loaded in compatibility mode with an invalid regex (a command rule's `args` or `redirect` too): every call is denied.
  const patterns = rules.flatMap((r) => [...(r.match !== '' || r.field !== undefined ? [r.match] : []), ...(r.args !== undefined ? [r.args] : []), ...(r.redirect !== undefined ? [r.redirect] : [])]);
  if (patterns.some((p) => !session.oracle.regexOk(p))) {
    return { kind: 'const', decision: 'deny', approver };
  }
  const def = normalizeApproverDefault(ir.default);
  if (def === undefined) return { kind: 'invalid', why: `the ${label} policy has an unknown default` };
  const domain = ir.input === 'canonical' ? 'canonical' : 'raw';
  const regex = (list: readonly RuleIR[]): RuleIR[] => list.filter((r) => !isCommandRule(r));
  const commands = commandSides(ir);
  return {
    kind: 'pattern',
    def,
    domain,
    allow: regex(ir.allow),
    deny: regex(ir.deny),
    ask: regex(ir.ask ?? []),
    commands,
    tools: [...rules.map((r) => r.tool), ...[...commands.values()].map((c) => c.tool)],
    approver,
  };
}

/** The literals of a rule: the formula for "it matches" and for "it does not". */
type Literals = (rule: RuleIR) => { pos: Formula; neg: Formula };

/** The calls `m` decides `d` for tool class `cls` (without ask rules: exactly the two-list formulas). */
function decides(m: Model, cls: ToolClass, lit: Literals, d: RuledDecision): Formula {
  if (m.kind === 'const') return m.decision === d ? TRUE : FALSE;
  if (m.kind === 'invalid') return FALSE;
  const ds = m.deny.filter((r) => appliesTo(r, cls)).map(lit);
  const ks = m.ask.filter((r) => appliesTo(r, cls)).map(lit);
  if (d === 'ask') return andOf([...ds.map((x) => x.neg), orOf(ks.map((k) => k.pos))]);
  const as = m.allow.filter((r) => appliesTo(r, cls)).map(lit);
  if (d === 'allow') return andOf([...ds.map((x) => x.neg), ...ks.map((k) => k.neg), orOf([...as.map((a) => a.pos), m.def === 'allow' ? TRUE : FALSE])]);
  return orOf([...ds.map((x) => x.pos), andOf([...ks.map((k) => k.neg), ...as.map((a) => a.neg), m.def === 'deny' ? TRUE : FALSE])]);
}

/** Whether `m` can decide `ask` at all (by an ask rule, or for a command it cannot judge under `unknown: ask`). */
function asks(m: Model): boolean {
  if (m.kind !== 'pattern') return false;
  return m.ask.length > 0 || [...m.commands.values()].some((c) => c.lists.ask.size > 0 || c.unknown === 'ask');
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
 * policy is not a pattern approver, either has ask rules, or the questions would be more than
 * `MAX_PARTS`.
 */
function differenceParts(first: Model, second: Model, cls: ToolClass): Array<(lit: Literals) => Formula> | null {
  if (first.kind !== 'pattern' || second.kind !== 'pattern') return null;
  // The cover above is over two lists: ask rules are merged into one of them first (`directionParts`).
  if (first.ask.length > 0 || second.ask.length > 0) return null;
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

/** `m` with its ask rules moved into its allow or its deny list (a two-list view of three decisions). */
function merged(m: Model, askAs: 'allow' | 'deny'): Model {
  if (m.kind !== 'pattern' || m.ask.length === 0) return m;
  return askAs === 'allow' ? { ...m, allow: [...m.allow, ...m.ask], ask: [] } : { ...m, deny: [...m.deny, ...m.ask], ask: [] };
}

/** The two-list views of a pair of policies, made once per direction (see `directionParts`). */
interface Views {
  fromAllow: Model;
  toAllow: Model;
  fromDeny: Model;
  toDeny: Model;
}

/**
 * Small questions whose union contains every call `from` decides as one of `was` and `to` decides
 * `want` (three decisions, deny > ask > allow), from `differenceParts` over two-list views: with a
 * policy's ask rules merged into its allow list, "allows" is "allows or asks" and "denies" is
 * "denies"; merged into its deny list, "allows" is "allows" and "denies" is "denies or asks". So
 *   newly denied ({allow, ask} → deny): ask as allow, `from` allows and `to` denies;
 *   newly allowed ({deny, ask} → allow): ask as deny, `to` allows and `from` denies;
 *   asked, allowed before (allow → ask ⊆ allow → {ask, deny}): ask as deny, `from` allows, `to` denies;
 *   asked, denied before (deny → ask ⊆ deny → {ask, allow}): ask as allow, `to` allows, `from` denies.
 * Without ask rules the views are the policies and the first two are the two-decision questions.
 * A witness is still re-checked against `was` and `want` exactly; `null`: ask the whole question.
 */
function directionParts(v: Views, was: readonly RuledDecision[], want: RuledDecision, cls: ToolClass): Array<(lit: Literals) => Formula> | null {
  const only = (d: RuledDecision): boolean => was.every((x) => x === d);
  if (want === 'deny' && !was.includes('deny')) return differenceParts(v.fromAllow, v.toAllow, cls);
  if (want === 'allow' && !was.includes('allow')) return differenceParts(v.toDeny, v.fromDeny, cls);
  if (want === 'ask' && only('allow')) return differenceParts(v.fromDeny, v.toDeny, cls);
  if (want === 'ask' && only('deny')) return differenceParts(v.toAllow, v.fromAllow, cls);
  return null;
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
  return { decision: e.decision, reason: e.reason, rule: e.rule, ...(e.by === 'command' ? { by: 'command' as const } : {}) };
}

/** A shell tool with command rules in either policy (see `command-side.ts`). */
interface ShellClass {
  /** The (old, new) decision pairs a call may show; any other pair is proven impossible. */
  moves: Moves;
  /** Whether the regex rules applying to the tool (or the default) differ. */
  regexDiffers: boolean;
  /** An example call the old policy decides as one of `was` and the new one `want`, as both approvers explain it; `null`: none. */
  example(was: readonly RuledDecision[], want: RuledDecision): string | null;
  /** Why a direction the examples did not show stays unknown. */
  why(): string;
}

function regexSide(m: Model & { kind: 'pattern' }, cls: ToolClass): RegexSide {
  const keys = (list: readonly RuleIR[]): Set<string> => new Set(applying(list, cls).keys());
  return { lists: { deny: keys(m.deny), ask: keys(m.ask), allow: keys(m.allow) }, def: m.def };
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((k) => b.has(k));
}

/** The shell classes of a diff, made once per tool class. */
function shellClasses(oldM: Model, newM: Model, oldA: CompiledApprover, newA: CompiledApprover, session: Session, domain: Domain): { of(cls: ToolClass): ShellClass | null } {
  const made = new Map<string, ShellClass>();
  const sideOf = (m: Model, cls: ToolClass, command: CommandSide | null): ClassSide =>
    m.kind === 'const' ? { kind: 'const', decision: m.decision } : { kind: 'pattern', regex: regexSide(m as Model & { kind: 'pattern' }, cls), command };
  const commandOf = (m: Model, key: string): CommandSide | null => (m.kind === 'pattern' ? (m.commands.get(key) ?? null) : null);
  const make = (cls: ToolClass & { key: string }): ShellClass => {
    const co = commandOf(oldM, cls.key);
    const cn = commandOf(newM, cls.key);
    const so = sideOf(oldM, cls, co);
    const sn = sideOf(newM, cls, cn);
    const regexDiffers =
      so.kind !== 'pattern' ||
      sn.kind !== 'pattern' ||
      so.regex.def !== sn.regex.def ||
      (['deny', 'ask', 'allow'] as const).some((l) => !sameSet(so.regex.lists[l], sn.regex.lists[l]));
    let table: { input: string; old: RuledDecision; new: RuledDecision }[] | undefined;
    let timedOut = false;
    const examples = (): { input: string; old: RuledDecision; new: RuledDecision }[] => {
      if (table !== undefined) return table;
      table = [];
      const regexRules = [oldM, newM].flatMap((m) => (m.kind === 'pattern' ? [...m.deny, ...m.ask, ...m.allow].filter((r) => appliesTo(r, cls)) : []));
      const texts = exampleCommands([co, cn], regexRules, session.cache, session.questionBudget());
      const fieldNames = [...new Map([co, cn].flatMap((c) => (c === null ? [] : [[c.foldedField, c.field] as const]))).values()];
      const raw: string[] = [];
      for (const t of texts) for (const f of fieldNames) raw.push(JSON.stringify({ [f]: t }));
      raw.push('{}', ...fieldNames.map((f) => JSON.stringify({ [f]: 1 })));
      for (const r of raw) {
        if (table.length % 64 === 0 && session.outOfTime()) {
          timedOut = true;
          break;
        }
        const input = presentable(session, domain, r);
        if (input === null) continue;
        const request = { toolName: cls.name, input };
        table.push({ input, old: oldA.decide(request).decision, new: newA.decide(request).decision });
      }
      return table;
    };
    return {
      moves: possibleMoves(so, sn),
      regexDiffers,
      example(was, want) {
        for (const e of examples()) {
          if (!was.includes(e.old) || e.new !== want) continue;
          const request = { toolName: cls.name, input: e.input };
          if (was.includes(oldA.explain(request).decision) && newA.explain(request).decision === want) return e.input;
        }
        return null;
      },
      why() {
        if (timedOut) return 'the analysis ran out of time while trying example commands';
        return `command rules are compared by examples only, and none of ${examples().length} example calls is such a call`;
      },
    };
  };
  return {
    of(cls) {
      if (cls.key === null || (commandOf(oldM, cls.key) === null && commandOf(newM, cls.key) === null)) return null;
      let c = made.get(cls.key);
      if (c === undefined) {
        c = make(cls as ToolClass & { key: string });
        made.set(cls.key, c);
      }
      return c;
    },
  };
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
  const classes = toolClasses([oldM, newM].flatMap((m) => (m.kind === 'pattern' ? m.tools : [])));
  const oldA = (oldM as { approver: CompiledApprover }).approver;
  const newA = (newM as { approver: CompiledApprover }).approver;
  const shell = shellClasses(oldM, newM, oldA, newA, session, domain);

  const fields = fieldAtoms(session);
  /** Calls `from` decides as one of `was` and `to` decides `want`. */
  const direction = (from: Model, to: Model, was: readonly RuledDecision[], want: RuledDecision): Direction => {
    const reasons: string[] = [];
    const shellReasons = new Map<string, string[]>();
    const witnesses: DiffWitness[] = [];
    const views: Views = { fromAllow: merged(from, 'allow'), toAllow: merged(to, 'allow'), fromDeny: merged(from, 'deny'), toDeny: merged(to, 'deny') };
    for (const cls of classes) {
      const shellClass = shell.of(cls);
      // A shell tool with command rules on either side: only the moves its changes allow are
      // looked for, by examples (see `command-side.ts`).
      if (shellClass !== null && !was.some((a) => hasMove(shellClass.moves, a, want))) continue;
      const confirm = (w: string): string | null => {
        const v = presentable(session, domain, w);
        if (v === null) return null;
        const ok =
          was.includes(oldA.explain({ toolName: cls.name, input: v }).decision) &&
          newA.explain({ toolName: cls.name, input: v }).decision === want;
        return ok ? v : null;
      };
      const disagree = (lit: Literals): Formula => and(or(...was.map((d) => decides(from, cls, lit, d))), decides(to, cls, lit, want));
      const applicable = [from, to].flatMap((m) => (m.kind === 'pattern' ? [...m.allow, ...m.deny, ...m.ask] : [])).filter((x) => appliesTo(x, cls));
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
      if (shellClass !== null) {
        // The regex rules' own witness first (confirmed on the whole approvers), then examples.
        let text: string | null = null;
        if (shellClass.regexDiffers) {
          const r = ask(disagree);
          if (r.status === 'witness') text = r.text;
        }
        text ??= shellClass.example(was, want);
        if (text !== null) witnesses.push({ toolName: cls.name, input: text, old: summary(oldA, cls.name, text), new: summary(newA, cls.name, text) });
        else {
          // Shell tools left unknown for the same reason (the default table's three) share one line.
          const why = shellClass.why();
          const same = shellReasons.get(why);
          if (same === undefined) {
            shellReasons.set(why, [cls.name]);
            reasons.push(why);
          } else same.push(cls.name);
        }
        continue;
      }
      // Small questions over the rules the policies do not share first; the whole rule sets only
      // when those cannot settle it (a witness the shared rules decide otherwise, or too many).
      const parts = directionParts(views, was, want, cls);
      let r: Outcome = parts === null ? { status: 'unknown', why: '' } : askParts(parts, ask);
      if (r.status === 'unknown') r = ask(disagree);
      if (r.status === 'witness') {
        witnesses.push({ toolName: cls.name, input: r.text, old: summary(oldA, cls.name, r.text), new: summary(newA, cls.name, r.text) });
      }
      if (r.status === 'unknown') reasons.push(`tool \`${cls.key === null ? 'other tools' : cls.name}\`: ${r.why}`);
    }
    // One witness settles the direction (tools left undecided cannot unsettle it).
    if (witnesses.length > 0) return { status: 'witness', witnesses };
    const named = (why: string): string => {
      const tools = shellReasons.get(why);
      if (tools === undefined) return why;
      return `${tools.length === 1 ? 'tool' : 'tools'} ${tools.map((t) => `\`${t}\``).join(', ')}: ${why}`;
    };
    return reasons.length === 0 ? { status: 'none' } : { status: 'unknown', why: reasons.map(named).join('; ') };
  };

  // Without ask rules on either side, the two directions of the two-decision diff, as they were.
  const withAsk = asks(oldM) || asks(newM);
  const notDenied: RuledDecision[] = withAsk ? ['allow', 'ask'] : ['allow'];
  const notAllowed: RuledDecision[] = withAsk ? ['deny', 'ask'] : ['deny'];
  const denied = direction(oldM, newM, notDenied, 'deny');
  const allowed = direction(oldM, newM, notAllowed, 'allow');
  // Newly asked, split by what the old policy did: up from allow (stricter), down from deny (looser).
  const none: Direction = { status: 'none' };
  const askedUp = asks(newM) ? direction(oldM, newM, ['allow'], 'ask') : none;
  const askedDown = asks(newM) ? direction(oldM, newM, ['deny'], 'ask') : none;
  const unknown = [
    ['newly denied calls', denied],
    ['newly allowed calls', allowed],
    ['newly asked calls (allowed before)', askedUp],
    ['newly asked calls (denied before)', askedDown],
  ].flatMap(([what, d]) => ((d as Direction).status === 'unknown' ? [`${what as string}: ${(d as { why: string }).why}`] : []));
  const has = (...ds: Direction[]): boolean => ds.some((d) => d.status === 'witness');
  const settled = (...ds: Direction[]): boolean => ds.every((d) => d.status === 'none');
  // Up: a call's decision moves towards deny; down: towards allow. (Asked → denied is a newly
  // denied call, asked → allowed a newly allowed one.)
  const up = [denied, askedUp];
  const down = [allowed, askedDown];
  let verdict: DiffVerdict = 'unknown';
  if (has(...up) && has(...down)) verdict = 'neither';
  else if (settled(...up, ...down)) verdict = 'equivalent';
  else if (has(...up) && settled(...down)) verdict = 'stricter';
  else if (settled(...up) && has(...down)) verdict = 'looser';
  const witnesses = (d: Direction): DiffWitness[] => (d.status === 'witness' ? d.witnesses : []);
  const asked = [...witnesses(askedUp), ...witnesses(askedDown)];
  return {
    verdict,
    newlyDenied: witnesses(denied)[0] ?? null,
    newlyAllowed: witnesses(allowed)[0] ?? null,
    ...(withAsk ? { newlyAsked: asked[0] ?? null } : {}),
    unknown,
    changes: [
      ...witnesses(denied).map((w) => ({ direction: 'newly-denied' as const, ...w })),
      ...witnesses(allowed).map((w) => ({ direction: 'newly-allowed' as const, ...w })),
      ...asked.map((w) => ({ direction: 'newly-asked' as const, ...w })),
    ],
  };
}
