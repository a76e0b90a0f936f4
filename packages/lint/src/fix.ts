/**
 * `verdict lint --fix`: lint, apply the fixes of the findings, lint the fixed text again, up to
 * ten passes, as ESLint does. Each pass goes through the compiler's source editor, which refuses
 * a result that would lose or change anything but the fixed values (`applySourceEdits`); the
 * findings returned are those of the final text. Nothing is written here: the fixed text is
 * `output`, for the caller to write (or show, for `--fix-dry-run`).
 */
import { applySourceEdits } from '@verdict/compiler';
import type { Diagnostic } from '@verdict/engine';
import { lintSource, type LintSourceOptions } from './runner.ts';
import type { FileResult, LintFix, LintMessage } from './types.ts';

/** ESLint's limit: a file whose fixes keep producing new fixes stops after this many passes. */
export const MAX_FIX_PASSES = 10;

const BOM = '\ufeff';

export interface FixedSource {
  /** The findings of the final text. */
  result: FileResult;
  /** The fixed text (a byte order mark kept), when a fix changed it. */
  output?: string;
  /** Passes that applied fixes. */
  passes: number;
  /** Fixes that were not applied because the result would have lost something. */
  diagnostics: Diagnostic[];
}

/**
 * Lints `text` and applies the fixes of its findings until none is left (at most `MAX_FIX_PASSES`
 * passes). `accept` picks the findings to fix (ESLint's fix predicate: `--quiet` fixes errors only).
 */
export function fixSource(text: string, file: string, options: LintSourceOptions = {}, accept: (m: LintMessage) => boolean = () => true): FixedSource {
  const bom = text.startsWith(BOM) ? BOM : '';
  let current = bom === '' ? text : text.slice(1);
  let result = lintSource(current, file, options);
  let passes = 0;
  const diagnostics: Diagnostic[] = [];
  while (passes < MAX_FIX_PASSES && result.syntax !== undefined) {
    const fixes = fixesOf(result.messages.filter(accept));
    if (fixes.length === 0) break;
    let edited: ReturnType<typeof applySourceEdits>;
    try {
      edited = applySourceEdits(current, file, result.syntax, fixes);
    } catch (e) {
      // Never a crash: the file is left as it is, and the run says why.
      const detail = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
      diagnostics.push({ code: 'fix/internal-error', severity: 'warning', message: `the fixes were not applied: ${detail}`, help: 'the file is left as it is; please report this as a bug, with the file' });
      break;
    }
    if (edited.text === undefined || edited.text === current) {
      for (const d of edited.diagnostics) diagnostics.push(d);
      break;
    }
    current = edited.text;
    passes++;
    result = lintSource(current, file, options);
  }
  return { result, ...(passes > 0 ? { output: bom + current } : {}), passes, diagnostics };
}

/** The fixes of findings that are reported (suppressed findings are never fixed). */
function fixesOf(messages: readonly LintMessage[]): LintFix[] {
  const out: LintFix[] = [];
  for (const m of messages) if (m.fix !== undefined) out.push(m.fix);
  return out;
}
