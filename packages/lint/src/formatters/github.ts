/**
 * `github`: GitHub Actions workflow commands, one per finding:
 * `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=…::message`. Property values and the
 * message are escaped as the Actions toolkit escapes them.
 */
import type { FileResult, Formatter } from '../types.ts';

const COMMAND = { error: 'error', warning: 'warning', info: 'notice' } as const;

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export const github: Formatter = (results: readonly FileResult[]): string => {
  const lines: string[] = [];
  for (const r of results) {
    for (const m of r.messages) {
      const start = m.span?.start ?? { line: 1, column: 1 };
      const end = m.span?.end ?? start;
      const props = [
        `file=${escapeProperty(r.file)}`,
        `line=${start.line}`,
        `col=${start.column}`,
        `endLine=${end.line}`,
        `endColumn=${end.column}`,
        `title=${escapeProperty(m.ruleId)}`,
      ].join(',');
      const text = m.help !== undefined ? `${m.message}\n${m.help}` : m.message;
      lines.push(`::${COMMAND[m.severity]} ${props}::${escapeData(text)}`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
};
