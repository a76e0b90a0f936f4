import type { Diagnostic } from '@verdict/engine';
import { sortDiagnostics, spanText } from '@verdict/engine';

/** `file:line:column: severity: message [code]`, then help indented: the clickable form editors understand. */
export function renderDiagnostics(diagnostics: readonly Diagnostic[], fallbackFile?: string): string {
  const lines: string[] = [];
  for (const d of sortDiagnostics(diagnostics)) {
    const where = d.span
      ? spanText(d.span)
      : (fallbackFile ?? 'verdict');
    lines.push(`${where}: ${d.severity}: ${d.message} [${d.code}]`);
    if (d.help) lines.push(`  help: ${d.help}`);
    for (const r of d.related ?? []) {
      const at = r.span ? `${spanText(r.span)}: ` : '';
      lines.push(`  note: ${at}${r.message}`);
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
