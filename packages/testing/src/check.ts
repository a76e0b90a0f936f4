/** Running a policy property: a reproducible report, and a counterexample printed as inline tests. */
import fc from 'fast-check';
import { ruleWhere } from '@verdict/engine';
import type { Explanation } from '@verdict/engine';
import type { Counterexample, PolicyProperty } from './properties.ts';
import { ruleName } from './properties.ts';
import { formatSuggestions } from './suggest.ts';

export interface CheckOptions {
  /** Generated samples to try (default 200). */
  numRuns?: number;
  /** The seed; print it so a failure can be replayed (default: random). */
  seed?: number;
  /** Called after each sample of the main run (not during shrinking). */
  onProgress?: (done: number, total: number) => void;
  /**
   * Milliseconds the check may take (runs and shrinking): past it no new sample starts, and the
   * report says how many ran (`interrupted`). A sample under way finishes first.
   */
  timeLimit?: number;
}

export interface PropertyReport {
  property: string;
  statement: string;
  ok: boolean;
  seed: number;
  /** Samples tried (up to and including the first failure). */
  runs: number;
  /** Samples asked for. */
  planned: number;
  /** The time limit stopped the check before `planned` samples (or before shrinking ended). */
  interrupted?: boolean;
  /** How many of them the property's predicate applied to, when it has one. */
  relevant?: number;
  shrinks: number;
  counterexample?: Counterexample;
  /** An exception thrown while checking (a bug, reported as a failure). */
  error?: string;
}

export function checkProperty<T>(p: PolicyProperty<T>, options: CheckOptions = {}): PropertyReport {
  const numRuns = options.numRuns ?? 200;
  const seed = options.seed ?? (Math.random() * 0x7fffffff) | 0;
  let runs = 0;
  let relevant = 0;
  let failed = false;
  const property = fc.property(p.arbitrary, (x) => {
    const ok = p.holds(x);
    if (!failed) {
      runs++;
      if (p.relevant?.(x)) relevant++;
      options.onProgress?.(runs, numRuns);
    }
    if (!ok) failed = true;
    return ok;
  });
  const limit = options.timeLimit === undefined ? {} : { interruptAfterTimeLimit: Math.max(1, Math.floor(options.timeLimit)), markInterruptAsFailure: false };
  const details = fc.check(property, { numRuns, seed, ...limit });
  // fast-check calls a check the time limit stopped before any sample ran a failure: no sample failed.
  const broken = details.failed && !(details.interrupted && details.counterexample === null);
  const report: PropertyReport = { property: p.name, statement: p.statement, ok: !broken, seed, runs, planned: numRuns, shrinks: details.numShrinks };
  if (details.interrupted) report.interrupted = true;
  if (p.relevant) report.relevant = relevant;
  if (broken) {
    const sample = details.counterexample?.[0];
    if (sample !== undefined) report.counterexample = p.explain(sample);
    let plainFailure = false;
    try {
      plainFailure = sample !== undefined && !p.holds(sample);
    } catch {
      plainFailure = false;
    }
    if (!plainFailure) {
      const err: unknown = details.errorInstance;
      report.error = err instanceof Error ? err.message : String(err ?? 'the property could not run');
    }
  }
  return report;
}

function where(e: Explanation): string {
  return e.rule ? ruleWhere(e.rule) : e.by;
}

/** `allow by allow[0] at p.yaml:7:7, matched `ls` (raw input 12..14)`. */
export function describeDecision(e: Explanation): string {
  let s = `${e.decision} by ${where(e)}`;
  if (e.decision !== 'allow' && e.reason) s += ` (reason ${JSON.stringify(e.reason)})`;
  if (e.match) s += `, matched ${JSON.stringify(e.match.text)} at ${e.match.start}..${e.match.end} of the ${e.match.subject === 'field' ? 'field value' : `${e.match.subject} input`}`;
  return s;
}

/** A report as people read it; a failure ends with the tests to paste. */
export function formatReport(r: PropertyReport): string {
  const runs = r.interrupted && r.runs < r.planned ? `${r.runs} of ${r.planned} runs, stopped at the time limit` : `${r.runs} run${r.runs === 1 ? '' : 's'}`;
  const count = r.relevant === undefined ? runs : `${runs}, ${r.relevant} in the predicate's domain`;
  if (r.ok) return `ok   ${r.property}: ${r.statement} (${count}, seed ${r.seed})`;
  const lines = [`FAIL ${r.property}: ${r.statement} (${count}, seed ${r.seed}, shrunk ${r.shrinks} time${r.shrinks === 1 ? '' : 's'})`];
  if (r.error) lines.push(`  error: ${r.error}`);
  const c = r.counterexample;
  if (c) {
    lines.push(`  ${c.summary}:`);
    for (const o of c.observations) {
      lines.push(`    ${o.policy}: ${o.call.tool} ${JSON.stringify(o.call.input)} -> ${describeDecision(o.explanation)}`);
    }
    lines.push(formatSuggestions(c.tests, '  '));
  }
  return lines.join('\n');
}

/** Checks and throws an error whose message is the formatted report (for `it(...)` in vitest). */
export function assertProperty<T>(p: PolicyProperty<T>, options: CheckOptions = {}): PropertyReport {
  const report = checkProperty(p, options);
  if (!report.ok) throw new Error(formatReport(report));
  return report;
}
