/**
 * `stylish`: findings grouped by file, one line each as `file:line:column  severity  message  rule`
 * so terminals and editors make the location clickable; advice on an indented line below.
 */
import { styleText } from 'node:util';
import type { FileResult, Formatter, FormatterContext, LintMessage } from '../types.ts';

type Style = 'red' | 'yellow' | 'blue' | 'dim' | 'bold' | 'underline';

/**
 * Node's own styling. The caller has decided already (`--color`, `NO_COLOR`, `FORCE_COLOR`, a
 * terminal: `ctx.color`), so the stream check is off; a Node that predates the option ignores it and
 * styles, which is what was asked. (The option is missing from @types/node 20.)
 */
const paint = styleText as (format: Style, text: string, options: { validateStream: boolean }) => string;

export const stylish: Formatter = (results: readonly FileResult[], ctx: FormatterContext = {}): string => {
  const c = (style: Style, s: string): string => (ctx.color === true ? paint(style, s, { validateStream: false }) : s);
  const out: string[] = [];
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const r of results) {
    if (r.messages.length === 0) continue;
    out.push(c('underline', r.file));
    for (const m of r.messages) {
      const where = `${r.file}:${m.span?.start.line ?? 1}:${m.span?.start.column ?? 1}`;
      const sev = severityLabel(m, c);
      out.push(`  ${where}  ${sev}  ${m.message}  ${c('dim', m.ruleId)}`);
      if (m.help !== undefined) out.push(`      ${c('dim', `help: ${m.help}`)}`);
    }
    out.push('');
    errors += r.errorCount;
    warnings += r.warningCount;
    infos += r.infoCount;
  }
  const total = errors + warnings + infos;
  if (total === 0) return '';
  const summary = `${total} ${plural(total, 'problem')} (${errors} ${plural(errors, 'error')}, ${warnings} ${plural(warnings, 'warning')}${infos > 0 ? `, ${infos} info` : ''})`;
  out.push(c('bold', errors > 0 ? c('red', `✖ ${summary}`) : warnings > 0 ? c('yellow', `⚠ ${summary}`) : `ℹ ${summary}`));
  const fixable = fixableSummary(results);
  if (fixable !== undefined) out.push(c('bold', fixable));
  return `${out.join('\n')}\n`;
};

/** ESLint's hint: how many of the findings `--fix` would rewrite (none: no line). */
function fixableSummary(results: readonly FileResult[]): string | undefined {
  const count = { error: 0, warning: 0, info: 0 };
  for (const r of results) for (const m of r.messages) if (m.fix !== undefined) count[m.severity]++;
  if (count.error + count.warning + count.info === 0) return undefined;
  const infos = count.info > 0 ? ` and ${count.info} info` : '';
  return `  ${count.error} ${plural(count.error, 'error')}${infos === '' ? ' and' : ','} ${count.warning} ${plural(count.warning, 'warning')}${infos} potentially fixable with the \`--fix\` option`;
}

function severityLabel(m: LintMessage, c: (style: Style, s: string) => string): string {
  if (m.severity === 'error') return c('red', 'error  ');
  if (m.severity === 'warning') return c('yellow', 'warning');
  return c('blue', 'info   ');
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}
