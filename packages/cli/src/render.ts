import type { Diagnostic } from '@verdict/engine';
import { sortDiagnostics } from '@verdict/engine';

/** `file:line:column: severity: message [code]`, then help indented: the clickable form editors understand. */
export function renderDiagnostics(diagnostics: readonly Diagnostic[], fallbackFile?: string): string {
  const lines: string[] = [];
  for (const d of sortDiagnostics(diagnostics)) {
    const where = d.span
      ? `${d.span.file}:${d.span.start.line}:${d.span.start.column}`
      : (fallbackFile ?? 'verdict');
    lines.push(`${where}: ${d.severity}: ${d.message} [${d.code}]`);
    if (d.help) lines.push(`  help: ${d.help}`);
    for (const r of d.related ?? []) {
      const at = r.span ? `${r.span.file}:${r.span.start.line}:${r.span.start.column}: ` : '';
      lines.push(`  note: ${at}${r.message}`);
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
