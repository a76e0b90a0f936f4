/**
 * Every policy in fixtures/lint/policies has an expected findings file in fixtures/lint/expected
 * (rule id, severity, line, column, and suppressed findings). Static-analysis findings
 * (`analysis/*`) are left out here: that family keeps its own expectations.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lintFiles } from '../src/lint-files.ts';
import { emptyConfig } from '../src/config.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const policiesDir = join(repo, 'fixtures/lint/policies');
const expectedDir = join(repo, 'fixtures/lint/expected');

interface Expected {
  findings: { rule: string; severity: string; line: number; column: number }[];
  suppressed: { rule: string; line: number; column: number }[];
}

// The corpus is named after what each file shows, not `*.policy.yaml`: `include` makes every file a policy.
const run = lintFiles(['fixtures/lint/policies'], { cwd: repo, config: { ...emptyConfig(), include: ['fixtures/lint/policies/**'] } });
const ours = (rule: string): boolean => !rule.startsWith('analysis/');

describe('fixtures/lint', () => {
  it('lints every policy file of the folder and nothing else', () => {
    expect(run.results.map((r) => r.file.replace('fixtures/lint/policies/', '')).sort()).toEqual(readdirSync(policiesDir).sort());
    expect(run.diagnostics).toEqual([]);
  });

  it('has an expected file for every policy and a policy for every expected file', () => {
    expect(readdirSync(expectedDir).sort()).toEqual(readdirSync(policiesDir).map((f) => `${f}.json`).sort());
  });

  for (const name of readdirSync(policiesDir).sort()) {
    it(name, () => {
      const expected = JSON.parse(readFileSync(join(expectedDir, `${name}.json`), 'utf8')) as Expected;
      const result = run.results.find((r) => r.file === `fixtures/lint/policies/${name}`);
      expect(result).toBeDefined();
      expect(
        result?.messages
          .filter((m) => ours(m.ruleId))
          .map((m) => ({ rule: m.ruleId, severity: m.severity, line: m.span?.start.line, column: m.span?.start.column })),
      ).toEqual(expected.findings.filter((f) => ours(f.rule)));
      expect(
        result?.suppressed.filter((m) => ours(m.ruleId)).map((m) => ({ rule: m.ruleId, line: m.span?.start.line, column: m.span?.start.column })),
      ).toEqual(expected.suppressed.filter((f) => ours(f.rule)));
    });
  }

  it('the hardened policy is clean', () => {
    expect(run.results.find((r) => r.file.endsWith('hardened.yaml'))?.messages.filter((m) => ours(m.ruleId))).toEqual([]);
  });

  it('the seed whitelist that can never match raw JSON is an error at the pattern', () => {
    const r = run.results.find((x) => x.file.endsWith('seed-worked-patterns.yaml'));
    const m = r?.messages.find((x) => x.ruleId === 'regex/impossible-anchor');
    expect([m?.span?.start.line, m?.span?.start.column, m?.severity]).toEqual([9, 27, 'error']);
  });
});
