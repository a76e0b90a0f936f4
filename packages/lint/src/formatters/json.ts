/**
 * `json`: the results as they are (findings with spans, counts), one JSON document. A finding with
 * a safe rewrite carries it as ESLint does, `fix: {range: [start, end], text}`: replace the UTF-16
 * code units `[start, end)` of the file's text (after a leading byte order mark, if any) with
 * `text`. With `--fix` or `--fix-dry-run`, a file that fixes changed carries its fixed text as
 * `output`, as ESLint's results do.
 */
import type { FileResult, Formatter } from '../types.ts';

export const json: Formatter = (results: readonly FileResult[]): string =>
  `${JSON.stringify(
    results.map((r) => ({
      file: r.file,
      ...(r.syntax !== undefined ? { syntax: r.syntax } : {}),
      errorCount: r.errorCount,
      warningCount: r.warningCount,
      infoCount: r.infoCount,
      messages: r.messages.map((m) => ({
        ruleId: m.ruleId,
        severity: m.severity,
        message: m.message,
        ...(m.help !== undefined ? { help: m.help } : {}),
        line: m.span?.start.line ?? 1,
        column: m.span?.start.column ?? 1,
        endLine: m.span?.end.line ?? m.span?.start.line ?? 1,
        endColumn: m.span?.end.column ?? m.span?.start.column ?? 1,
        ...(m.span !== undefined ? { span: m.span } : {}),
        ...(m.path !== undefined ? { path: m.path } : {}),
        ...(m.related !== undefined ? { related: m.related } : {}),
        category: m.category,
        fingerprint: m.fingerprint,
        ...(m.fix !== undefined ? { fix: { range: m.fix.range, text: m.fix.text } } : {}),
      })),
      suppressedCount: r.suppressed.length,
      ...(r.output !== undefined ? { output: r.output } : {}),
    })),
    null,
    2,
  )}\n`;
