/**
 * `junit`: one test suite per file and one failing test case per finding (a clean file is one
 * passing case), the shape CI dashboards read.
 */
import type { FileResult, Formatter } from '../types.ts';

function xml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, '');
}

export const junit: Formatter = (results: readonly FileResult[]): string => {
  const out = ['<?xml version="1.0" encoding="utf-8"?>'];
  const total = results.reduce((n, r) => n + Math.max(1, r.messages.length), 0);
  const failures = results.reduce((n, r) => n + r.messages.length, 0);
  out.push(`<testsuites name="verdict lint" tests="${total}" failures="${failures}" errors="0">`);
  for (const r of results) {
    const n = Math.max(1, r.messages.length);
    out.push(`  <testsuite name="${xml(r.file)}" tests="${n}" failures="${r.messages.length}" errors="0">`);
    if (r.messages.length === 0) out.push(`    <testcase name="${xml(r.file)}" classname="verdict.lint"/>`);
    for (const m of r.messages) {
      const where = `${r.file}:${m.span?.start.line ?? 1}:${m.span?.start.column ?? 1}`;
      out.push(`    <testcase name="${xml(`${m.ruleId} ${where}`)}" classname="${xml(`verdict.lint.${m.ruleId}`)}">`);
      out.push(
        `      <failure message="${xml(m.message)}" type="${m.severity}">${xml(`${where} ${m.severity} ${m.message}${m.help !== undefined ? `\nhelp: ${m.help}` : ''}`)}</failure>`,
      );
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
};
