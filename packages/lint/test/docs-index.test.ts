/**
 * The rules table of packages/lint/docs/README.md is generated from the rule catalogue (`allRules`:
 * id, default severity, `meta.description`, in catalogue order): a rule added to the catalogue and
 * not to the table, or a table row left behind, fails here. `UPDATE_DOCS=1 pnpm vitest run
 * packages/lint/test/docs-index.test.ts` rewrites the table.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleFileName } from '../src/create-rule.ts';
import { allRules } from '../src/rules/index.ts';
import type { Rule } from '../src/types.ts';

const readme = join(import.meta.dirname, '..', 'docs', 'README.md');
const BEGIN = '<!-- rules:begin (generated from the rule catalogue: UPDATE_DOCS=1 pnpm vitest run packages/lint/test/docs-index.test.ts) -->';
const END = '<!-- rules:end -->';

/** A table cell: a `|` would end it, also inside a code span (GitHub's tables). */
const cell = (text: string): string => text.replaceAll('|', '\\|');

function table(rules: readonly Rule[]): string {
  return [
    '| id | default | what it flags |',
    '|---|---|---|',
    ...rules.map((r) => `| [\`${r.id}\`](rules/${ruleFileName(r.id)}.md) | ${r.meta.severity} | ${cell(r.meta.description)} |`),
  ].join('\n');
}

describe('the rules table of docs/README.md', () => {
  it('is the rule catalogue, one row per rule', () => {
    const text = readFileSync(readme, 'utf8');
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    expect(start, 'the table markers').toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const want = `${BEGIN}\n${table(allRules)}\n${END}`;
    if (process.env['UPDATE_DOCS'] === '1') writeFileSync(readme, text.slice(0, start) + want + text.slice(end + END.length));
    else expect(text.slice(start, end + END.length)).toBe(want);
  });

  it('names every rule of the catalogue, the hook/* rules among them', () => {
    const text = readFileSync(readme, 'utf8');
    for (const r of allRules) expect(text, r.id).toContain(`[\`${r.id}\`](rules/${ruleFileName(r.id)}.md)`);
    expect(allRules.some((r) => r.id.startsWith('hook/'))).toBe(true);
  });
});
