/**
 * The Bad and Good examples of the rule pages run: the Bad example must be flagged by its rule on
 * exactly the lines marked `# flagged`, and the Good example must not be flagged by it. Pages
 * whose examples are fragments (a rule list without its approver, a pattern alone) are listed in
 * `FRAGMENTS`; every new page must run.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ruleFileName } from '../src/create-rule.ts';
import { allRules } from '../src/rules/index.ts';
import { lintWithRule } from '../src/testing/rule-tester.ts';

const docsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'rules');
const MARK = /#\s*flagged\s*$/;
const EXTENSION: Record<string, string> = { yaml: 'yaml', yml: 'yaml', json: 'json', verdict: 'verdict' };

/** The first fenced block of a section: its language and text. */
function example(page: string, section: string): { lang: string; code: string } | undefined {
  const start = page.indexOf(`\n${section}\n`);
  if (start < 0) return undefined;
  const next = page.indexOf('\n## ', start + section.length + 2);
  const body = page.slice(start, next < 0 ? undefined : next);
  const m = /```(\w+)\n([\s\S]*?)```/.exec(body);
  return m === null ? undefined : { lang: m[1] ?? '', code: m[2] ?? '' };
}

const runnable = allRules.flatMap((rule) => {
  const page = readFileSync(join(docsDir, `${ruleFileName(rule.id)}.md`), 'utf8');
  const bad = example(page, '## Bad');
  const good = example(page, '## Good');
  if (bad === undefined || good === undefined) return [];
  const marked = bad.code.split('\n').flatMap((line, i) => (MARK.test(line) ? [i + 1] : []));
  return marked.length === 0 ? [] : [{ rule, bad, good, marked }];
});

/** Pages whose examples are not whole policies yet (written before the examples ran). */
const FRAGMENTS = [
  'regex/invalid',
  'regex/unsupported-syntax',
  'regex/impossible-anchor',
  'regex/mixed-alternation',
  'regex/yaml-escape',
  'rules/duplicate',
  'rules/unreachable',
  'rules/missing-tool',
  'rules/shell-injection',
  'rules/nested-key-spoof',
  'lint/unused-suppression',
  'lint/internal-error',
  'analysis/overlap',
];

describe('rule pages: the Bad and Good examples run', () => {
  it('runs every page but the listed fragments', () => {
    const ids = new Set(runnable.map((r) => r.rule.id));
    expect(allRules.map((r) => r.id).filter((id) => !ids.has(id)).sort()).toEqual([...FRAGMENTS].sort());
  });

  for (const { rule, bad, good, marked } of runnable) {
    const file = (lang: string): string => `example.${EXTENSION[lang] ?? lang}`;
    it(`${rule.id}: Bad is flagged on the marked lines`, () => {
      const result = lintWithRule(rule, { code: bad.code, filename: file(bad.lang) });
      const lines = result.messages.filter((m) => m.ruleId === rule.id).map((m) => m.span?.start.line);
      expect([...new Set(lines)].sort()).toEqual(marked);
    });
    it(`${rule.id}: Good is clean`, () => {
      const result = lintWithRule(rule, { code: good.code, filename: file(good.lang) });
      expect(result.messages.filter((m) => m.ruleId === rule.id || m.ruleId === 'lint/internal-error').map((m) => m.message)).toEqual([]);
    });
  }
});
