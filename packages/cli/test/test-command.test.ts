/** `verdict test`: the behaviours a user notices (its golden runs, fixtures/cli/test-*, run in golden.test.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fuzzCommand } from '../src/commands/fuzz.ts';
import { testCommand } from '../src/commands/test.ts';
import { runCommand } from './command-harness.ts';
import { repoRoot } from './harness.ts';

beforeAll(() => process.chdir(repoRoot));

describe('verdict test', () => {
  it('counts, per rule, the tests it decided and the tests it matched', async () => {
    const r = await runCommand(testCommand, ['fixtures/testing/coverage.yaml', '--coverage', '-f', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      summary: { tests: number; files: number };
      coverage: { reached: number; total: number; percent: number; policies: { rules: { list: string; index: number; decided: number; matched: number; line: number }[] }[] };
    };
    expect(doc.summary).toMatchObject({ tests: 5, files: 2 });
    expect(doc.coverage).toMatchObject({ reached: 3, total: 5, percent: 60 });
    const rules = doc.coverage.policies[0]!.rules.map((x) => `${x.list}[${x.index}]@${x.line}: ${x.decided}/${x.matched}`);
    expect(rules).toEqual(['deny[0]@9: 2/2', 'deny[1]@10: 1/1', 'allow[0]@12: 1/1', 'allow[1]@13: 0/1', 'allow[2]@14: 0/0']);
  });

  it('without the case file, the inline tests alone reach two rules of five', async () => {
    // coverage.test.yaml is picked up beside coverage.yaml; only naming the case file runs it alone
    const r = await runCommand(testCommand, ['fixtures/testing/coverage.test.yaml', '--min-coverage', '20']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('coverage: 1 of 5 rules decide a test (20%)');
  });

  it('a policy that cannot load wins over failing tests: exit 2, the failures still printed', async () => {
    const r = await runCommand(testCommand, ['fixtures/testing/failing.yaml', 'fixtures/testing/broken/broken.yaml']);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('fixtures/testing/failing.yaml:12:5: fail: rm -fr is denied');
    expect(r.stderr).toContain('fixtures/testing/broken/broken.yaml:4:27: error:');
  });

  it('walks folders, pairing case files with their policies', async () => {
    const r = await runCommand(testCommand, ['fixtures/testing', '-f', 'json']);
    expect(r.code).toBe(2); // fixtures/testing/broken holds a broken policy and an orphan case file
    const doc = JSON.parse(r.stdout) as { tests: { file: string; passed: boolean; rule?: { file: string } }[] };
    // The case file runs once against each policy beside it: coverage.yaml and its twin coverage.verdict.
    expect(doc.tests.filter((t) => t.file === 'fixtures/testing/coverage.test.yaml').map((t) => t.rule?.file)).toEqual([
      'fixtures/testing/coverage.yaml',
      'fixtures/testing/coverage.verdict',
    ]);
    // Every policy has a .verdict twin with the same tests: the twins fail the same tests as their originals.
    expect(doc.tests.filter((t) => !t.passed).map((t) => t.file)).toEqual([
      'fixtures/testing/dsl/workspace.verdict',
      ...Array(3).fill('fixtures/testing/failing.verdict'),
      ...Array(3).fill('fixtures/testing/failing.yaml'),
      'fixtures/testing/loop/step2.verdict',
      'fixtures/testing/loop/step2.yaml',
    ]);
    expect(doc.tests.filter((t) => t.file === 'fixtures/testing/dsl/workspace.test.yaml')).toHaveLength(1);
  });
});

/** Splits a shell command line: spaces separate, single quotes keep text as written. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2]!);
  return words;
}

describe('packages/testing/README.md shows real runs', () => {
  const readme = readFileSync(join(repoRoot, 'packages/testing/README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```console\n\$ (verdict [^\n]*)\n([\s\S]*?)```/g)];
  it('has the loop: test, fuzz, test, test, fuzz', () => {
    expect(blocks.map((b) => shellWords(b[1]!)[1])).toEqual(['test', 'fuzz', 'test', 'test', 'fuzz']);
  });
  for (const [, line, output] of blocks) {
    it(line!, async () => {
      const [, name, ...argv] = shellWords(line!);
      const r = await runCommand(name === 'fuzz' ? fuzzCommand : testCommand, argv);
      expect(r.stdout).toBe(output);
    });
  }
});
