/**
 * The most diagnostics one file shows. A hostile file can hold one mistake per character (4 MB of
 * `]`, a million repeated tags): past this many, the parsers stop and the rest is one summary line,
 * so no input makes the output, the memory or the time grow with the number of its mistakes.
 */
import { EXCERPT_CHARS, excerpt } from '@verdict/engine';
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

/** The longest message, help or note a diagnostic keeps whole. */
const MAX_TEXT = 1000;

/**
 * `text` with each quoted piece of user text (between backticks) over `EXCERPT_CHARS` shortened by
 * `excerpt`: the net under every message, so that a value of millions of characters quoted by any
 * stage (a policy value, a key, a Go error text) never makes a diagnostic as long as itself.
 * Short text, the common case, is returned as it is.
 */
export function boundText(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  const out = text.replace(/`([^`]*)`/g, (whole, inner: string) => (inner.length > EXCERPT_CHARS ? `\`${excerpt(inner)}\`` : whole));
  return out.length <= MAX_TEXT ? out : excerpt(out, MAX_TEXT);
}

function bounded(d: Diagnostic): Diagnostic {
  const long = d.message.length > MAX_TEXT || (d.help?.length ?? 0) > MAX_TEXT || (d.related ?? []).some((r) => r.message.length > MAX_TEXT);
  if (!long) return d;
  const b: Diagnostic = { ...d, message: boundText(d.message) };
  if (d.help !== undefined) b.help = boundText(d.help);
  if (d.related !== undefined) b.related = d.related.map((r) => ({ ...r, message: boundText(r.message) }));
  return b;
}

/**
 * The first `MAX_FILE_DIAGNOSTICS` of `sorted` (source order), then one `… and N more` line when
 * there are more. `stopped` is where a parser gave up early: `N` then counts only what it saw.
 */
export function capDiagnostics(file: string, sorted: readonly Diagnostic[], stopped: Span | undefined): Diagnostic[] {
  if (sorted.length <= MAX_FILE_DIAGNOSTICS && stopped === undefined) return sorted.map(bounded);
  const kept = sorted.slice(0, MAX_FILE_DIAGNOSTICS).map(bounded);
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
