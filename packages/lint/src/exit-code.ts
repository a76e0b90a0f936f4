import type { LintRun } from './types.ts';

export interface ExitCodeOptions {
  /** Warnings allowed before the run fails; undefined or negative: warnings never fail it. */
  maxWarnings?: number;
}

/**
 * 0 when clean, 1 when there are errors or more warnings than allowed, 2 when the run itself
 * failed (an unreadable configuration, a path that does not exist, a file that cannot be read:
 * a pipe or device, over the size limit, not UTF-8), as `compile`, `eval` and `test` exit on them.
 */
export function exitCodeFor(run: LintRun, options: ExitCodeOptions = {}): 0 | 1 | 2 {
  if (run.diagnostics.some((d) => d.severity === 'error')) return 2;
  if (run.results.some((r) => r.unreadable === true)) return 2;
  const errors = run.results.reduce((n, r) => n + r.errorCount, 0);
  if (errors > 0) return 1;
  const max = options.maxWarnings;
  if (max !== undefined && max >= 0 && run.warningCount > max) return 1;
  return 0;
}
