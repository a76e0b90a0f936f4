/**
 * What one analysis run shares: the language cache, the engine oracle, limits, and the
 * "solve" step that turns a formula into a verdict: proven empty, a witness the engine confirmed,
 * or unknown.
 */
import { caseFold, type CommandJudgeFactory, type RuleIR } from '@verdict/engine';
import { cpuNow, makeBudget } from './automaton.ts';
import {
  type Approx,
  type Domain,
  LanguageCache,
  lowerSymbolic,
  matches,
  misses,
  type RuleLanguage,
  type ShapeName,
  symbol,
  symbolicLiterals,
} from './model.ts';
import { EngineOracle } from './oracle.ts';
import { and, assign, findWitness, type Formula, propositionallySatisfiable } from './search.ts';

/** Inexact rules occurring with both polarities that a question is split on (2^n cases). */
const MAX_SPLITS = 4;

export interface AnalysisOptions {
  /** CPU time for one question (one rule, one pair, one direction of a diff), in ms. Default 200. */
  timeMs?: number;
  /** DFA states per pattern and product states per question. Default 10,000. */
  maxStates?: number;
  /** CPU time for the whole run, in ms; questions left over are answered "unknown". Default 5,000. */
  totalTimeMs?: number;
  /** Which questions `analyzeApprover` asks (all by default); overlaps cost one question per pair. */
  checks?: { dead?: boolean; shadowed?: boolean; overlap?: boolean };
  /** Treat a policy with invalid regexes as the engine's compatibility mode does (deny all). */
  compat?: boolean;
  /** Whether the engine compiles `pattern` (a shared cache's answer); default: compile it here. */
  regexValid?: (pattern: string) => boolean;
  /**
   * Judges command rules on shell tools (`@verdict/shell`'s `commandJudgeFactory`), as the
   * compiler's option of that name. Without it a policy with command rules does not load here:
   * `diffPolicies` answers "unknown" for it, and `analyzeApprover` leaves its command rules out.
   */
  commandJudge?: CommandJudgeFactory;
}

export type Outcome = { status: 'empty' } | { status: 'witness'; text: string } | { status: 'unknown'; why: string };

export class Session {
  readonly cache: LanguageCache;
  readonly oracle: EngineOracle;
  private totalDeadline: number;

  constructor(readonly options: AnalysisOptions = {}) {
    this.cache = new LanguageCache(options.maxStates === undefined ? {} : { maxStates: options.maxStates });
    this.oracle = new EngineOracle(options.compat === true, options.regexValid, options.commandJudge);
    this.totalDeadline = cpuNow() + (options.totalTimeMs ?? 5_000);
  }

  /**
   * Starts the run's time budget now: what came before (loading and compiling large policies) is
   * not analysis and does not spend it.
   */
  startClock(): void {
    this.totalDeadline = cpuNow() + (this.options.totalTimeMs ?? 5_000);
  }

  /** Ends the run: hands what it built in full to later runs (see `LanguageCache.release`). */
  close(): void {
    this.cache.release();
  }

  language(rule: RuleIR, domain: Domain): RuleLanguage {
    return this.cache.rule(rule.match, rule.field, domain);
  }

  /**
   * Decides whether `build(mode)` ∧ shape is empty. The over-approximation (with the domain's
   * object shape) proves emptiness; a witness must pass `accept` (the engine re-check), which
   * returns the text to report (under canonical input: the canonical form) or `null`. When the
   * first witness fails, the under-approximation (with the flat-object shape) is searched for one
   * that is more likely real; when that fails too, the answer is unknown.
   */
  solve(build: (mode: Approx) => Formula, over: ShapeName, under: ShapeName, accept: (w: string) => string | null): Outcome {
    if (cpuNow() > this.totalDeadline) return { status: 'unknown', why: 'the analysis ran out of time' };
    // Reason about rules as propositions first: a formula that is unsatisfiable whatever the rules
    // match is empty, and a rule with inexact bounds that occurs both positively and negatively is
    // split on (true in one case, false in the other), so that each case uses one bound for it.
    const sym = build('symbolic');
    if (propositionallySatisfiable(sym) === false) return { status: 'empty' };
    const mixed = [...symbolicLiterals(sym)].filter(([l, e]) => !l.exact && e.pos && e.neg).map(([l]) => l).slice(0, MAX_SPLITS);
    let cases: Formula[] = [sym];
    for (const lang of mixed) {
      const s = symbol(lang);
      cases = cases.flatMap((c) => [and(assign(c, s, true), matches(lang, 'symbolic')), and(assign(c, s, false), misses(lang, 'symbolic'))]);
    }
    cases = cases.filter((c) => propositionallySatisfiable(c) !== false);
    const shapeOver = this.cache.shapeFormula(over);
    let witnessSeen = false;
    for (const c of cases) {
      const r1 = findWitness(and(lowerSymbolic(c, 'over'), shapeOver), makeBudget(this.budgetOptions()));
      if (r1.status === 'empty') continue;
      if (r1.status === 'limit') return { status: 'unknown', why: `the ${r1.why} was reached` };
      witnessSeen = true;
      const w1 = accept(r1.text);
      if (w1 !== null) return { status: 'witness', text: w1 };
    }
    if (!witnessSeen) return { status: 'empty' };
    const shapeUnder = this.cache.shapeFormula(under);
    for (const c of cases) {
      const r2 = findWitness(and(lowerSymbolic(c, 'under'), shapeUnder), makeBudget(this.budgetOptions()));
      const w2 = r2.status === 'witness' ? accept(r2.text) : null;
      if (w2 !== null) return { status: 'witness', text: w2 };
    }
    return { status: 'unknown', why: 'no candidate witness passed the engine re-check' };
  }

  outOfTime(): boolean {
    return cpuNow() > this.totalDeadline;
  }

  /** Limits for one question, as `makeBudget` takes them. */
  questionBudget(): { timeMs?: number; maxStates?: number } {
    return this.budgetOptions();
  }

  private budgetOptions(): { timeMs?: number; maxStates?: number } {
    const o: { timeMs?: number; maxStates?: number } = {};
    if (this.options.timeMs !== undefined) o.timeMs = this.options.timeMs;
    if (this.options.maxStates !== undefined) o.maxStates = this.options.maxStates;
    return o;
  }
}

/** A group of tool names equal under case folding, or every other tool (`key: null`). */
export interface ToolClass {
  key: string | null;
  /** A name to put in witness calls. */
  name: string;
}

export function toolClasses(tools: Iterable<string>): ToolClass[] {
  const byKey = new Map<string, string>();
  for (const t of tools) {
    if (t === '') continue;
    const k = caseFold(t);
    if (!byKey.has(k)) byKey.set(k, t);
  }
  const out: ToolClass[] = [...byKey].map(([key, name]) => ({ key, name }));
  out.push({ key: null, name: unnamedTool(byKey.keys()) });
  return out;
}

/** A tool name none of `named` (tool names, or their fold keys) equals under case folding: `other_tool`, `other_tool_2`, … */
export function unnamedTool(named: Iterable<string>): string {
  const keys = new Set<string>();
  for (const t of named) keys.add(caseFold(t));
  let other = 'other_tool';
  for (let n = 2; keys.has(caseFold(other)); n++) other = `other_tool_${n}`;
  return other;
}

export function appliesTo(rule: RuleIR, cls: ToolClass): boolean {
  return rule.tool === '' || (cls.key !== null && caseFold(rule.tool) === cls.key);
}

export function shapesFor(domain: Domain): { any: ShapeName; object: ShapeName; flat: ShapeName } {
  return domain === 'raw'
    ? { any: 'raw-any', object: 'raw-object', flat: 'raw-object-flat' }
    : { any: 'canonical-any', object: 'canonical-object', flat: 'canonical-object-flat' };
}

/**
 * The text to show for a candidate input: a JSON object text, and under canonical input its
 * canonical form (which the engine decides exactly as the candidate); `null` when it is neither.
 */
export function presentable(session: Session, domain: Domain, text: string): string | null {
  if (domain === 'raw') return parseJsonObject(text) !== undefined ? text : null;
  const c = session.oracle.canonicalOf(text);
  return c !== undefined && parseJsonObject(c) !== undefined ? c : null;
}

/** The object a JSON object text (what a tool call's input is) holds, or `undefined` for any other text. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  // A JSON object starts with `{` and then `"` or `}` (JSON whitespace aside) and ends with `}`:
  // other text cannot parse to an object, so the throw is skipped.
  let i = skipJsonSpace(text, 0);
  if (text[i] !== '{') return undefined;
  i = skipJsonSpace(text, i + 1);
  if (text[i] !== '"' && text[i] !== '}') return undefined;
  let end = text.length - 1;
  while (end > i && isJsonSpace(text[end])) end--;
  if (text[end] !== '}') return undefined;
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return undefined;
}

const isJsonSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

function skipJsonSpace(text: string, i: number): number {
  while (i < text.length && isJsonSpace(text[i])) i++;
  return i;
}
