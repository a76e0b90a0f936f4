/**
 * fixtures/native holds one folder per `native/*` rule (and a clean one), each with agents' own
 * permission files at the paths the agents load them from. `verdict lint fixtures/native` finds
 * them by name, and reports exactly the findings of `fixtures/native/expected.json` (rule,
 * severity, line, column); the SARIF output names each rule with its docs page.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exitCodeFor, formatters, lintFiles } from '../src/index.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const expected = JSON.parse(readFileSync(join(repo, 'fixtures/native/expected.json'), 'utf8')) as Record<string, { rule: string; severity: string; line: number; column: number }[]>;
const run = lintFiles(['fixtures/native'], { cwd: repo });
const shown = (file: string): string => file.replace('fixtures/native/', '');

describe('fixtures/native', () => {
  it('finds every agent file of the folder by its name, and nothing else', () => {
    expect(run.results.map((r) => shown(r.file)).sort()).toEqual(Object.keys(expected).sort());
    expect(run.diagnostics).toEqual([]);
    expect(run.results.every((r) => r.native !== undefined)).toBe(true);
  });

  for (const [file, findings] of Object.entries(expected)) {
    it(file, () => {
      const r = run.results.find((x) => shown(x.file) === file);
      expect(r?.messages.map((m) => ({ rule: m.ruleId, severity: m.severity, line: m.span?.start.line, column: m.span?.start.column }))).toEqual(findings);
    });
  }

  it('has a folder that shows each native rule', () => {
    const shownRules = new Set(Object.values(expected).flatMap((f) => f.map((x) => x.rule)));
    for (const r of run.rules.filter((x) => x.id.startsWith('native/'))) expect(shownRules, r.id).toContain(r.id);
  });

  it('exits 1 on the errors (a file its agent drops), never 2', () => {
    expect(exitCodeFor(run)).toBe(1);
  });

  it('writes SARIF results that name the rule and its docs page', () => {
    const sarif = JSON.parse(formatters.sarif(run.results, { rules: run.rules, cwd: repo })) as {
      runs: { tool: { driver: { rules: { id: string; helpUri?: string }[] } }; results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[];
    };
    const results = sarif.runs[0]!.results.filter((x) => x.ruleId === 'native/prefix-alternatives');
    expect(results.map((x) => [x.locations[0]?.physicalLocation.artifactLocation.uri, x.locations[0]?.physicalLocation.region.startLine])).toEqual([['fixtures/native/prefix-alternatives/.gemini/policies/go.toml', 3]]);
    expect(sarif.runs[0]!.tool.driver.rules.find((x) => x.id === 'native/prefix-alternatives')?.helpUri).toMatch(/packages\/lint\/docs\/rules\/native-prefix-alternatives\.md$/);
  });
});
