/**
 * The most diagnostics one file shows. A hostile file can hold one mistake per character (4 MB of
 * `]`, a million repeated tags): past this many, the parsers stop and the rest is one summary line,
 * so no input makes the output, the memory or the time grow with the number of its mistakes.
 */
import type { Diagnostic, Severity, Span } from '@verdict/engine';

export const MAX_FILE_DIAGNOSTICS = 100;

/** Thrown from a parser's error handler once a file has more than `MAX_FILE_DIAGNOSTICS` errors. */
export class TooManyErrors extends Error {
  /** `offset`: where the error past the limit is, in the source text. */
  constructor(readonly offset: number) {
    super(`more than ${MAX_FILE_DIAGNOSTICS} errors`);
  }
}

const RANK: Readonly<Record<Severity, number>> = { error: 2, warning: 1, info: 0 };

/**
 * The first `MAX_FILE_DIAGNOSTICS` of `sorted` (source order), then one `… and N more` line when
 * there are more. `stopped` is where a parser gave up early: `N` then counts only what it saw.
 */
export function capDiagnostics(file: string, sorted: readonly Diagnostic[], stopped: Span | undefined): Diagnostic[] {
  if (sorted.length <= MAX_FILE_DIAGNOSTICS && stopped === undefined) return [...sorted];
  const kept = sorted.slice(0, MAX_FILE_DIAGNOSTICS);
  const rest = sorted.slice(MAX_FILE_DIAGNOSTICS);
  let severity: Severity = 'info';
  for (const d of rest) if (RANK[d.severity] > RANK[severity]) severity = d.severity;
  if (stopped !== undefined) severity = 'error';
  const first = rest[0] ?? sorted[sorted.length - 1];
  const more = rest.length;
  const d: Diagnostic = {
    code: 'load/too-many-diagnostics',
    severity,
    message: stopped !== undefined
      ? `… and ${more > 0 ? `${more} more, and then ` : ''}the rest of the file was not checked: it has more than ${MAX_FILE_DIAGNOSTICS} errors`
      : `… and ${more} more ${more === 1 ? 'diagnostic' : 'diagnostics'} in this file`,
    help: `only the first ${MAX_FILE_DIAGNOSTICS} are shown; fix those first (a file with this many mistakes is often not a policy file)`,
  };
  const span = stopped ?? first?.span;
  if (span !== undefined) d.span = { ...span, file };
  kept.push(d);
  return kept;
}
