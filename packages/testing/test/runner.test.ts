/** Inline tests, case files and coverage (fixtures/testing/coverage.yaml has known unreached rules). */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { caseFilesFor, coverage, discover, loadPolicy, mustLoad, policyForCaseFile, policyFromSource, runTarget, runTest } from '../src/index.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
beforeAll(() => process.chdir(root));

describe('coverage', () => {
  it('counts decided and matched per rule, inline tests only', () => {
    const p = mustLoad(loadPolicy('fixtures/testing/coverage.yaml'));
    const outcomes = p.tests!.map((t) => runTest(p, t, p.name));
    expect(outcomes.every((o) => o.passed)).toBe(true);
    const c = coverage(p.config, outcomes);
    expect(c.rules.map((r) => [`${r.list}[${r.index}]`, r.decided, r.matched])).toEqual([
      ['deny[0]', 2, 2],
      ['deny[1]', 0, 0],
      ['allow[0]', 1, 1],
      ['allow[1]', 0, 1],
      ['allow[2]', 0, 0],
    ]);
    expect(c).toMatchObject({ reached: 2, total: 5, percent: 40, defaultDecided: 1 });
  });
  it('adds the case file beside the policy', () => {
    const run = runTarget({ policyFile: 'fixtures/testing/coverage.yaml', inline: true, caseFiles: caseFilesFor('fixtures/testing/coverage.yaml') });
    expect(run.loadFailed).toBe(false);
    expect(run.outcomes.map((o) => o.file)).toEqual([...Array(4).fill('fixtures/testing/coverage.yaml'), 'fixtures/testing/coverage.test.yaml']);
    expect(run.coverage).toMatchObject({ reached: 3, total: 5, percent: 60 });
  });
  it('rules of allow_all / deny_all never run, so there is nothing to cover', () => {
    const run = runTarget({ policyFile: 'fixtures/testing/coverage.yaml', inline: true, caseFiles: [] });
    expect(run.coverage!.total).toBe(5);
    const p = mustLoad(policyFromSource('mode: allow_all\nallow:\n  - {tool: bash}\ntests:\n  - {tool: bash, expect: allow}\n', 'a.yaml'));
    expect(coverage(undefined, p.tests!.map((t) => runTest(p, t, 'a.yaml')))).toMatchObject({ total: 0, percent: 100 });
  });
});

describe('runTest', () => {
  const p = mustLoad(loadPolicy('fixtures/testing/failing.yaml'));
  const outcome = (name: string) => runTest(p, p.tests!.find((t) => t.name === name)!, p.name);
  it('reports the decision, the rule and what its pattern matched', () => {
    const o = outcome('rm -fr is denied');
    expect(o.failures).toEqual(['expected deny, got allow']);
    expect(o.explanation.rule).toMatchObject({ list: 'allow', index: 0, span: { start: { line: 9, column: 7 } } });
    expect(o.explanation.match).toMatchObject({ start: 1, end: 14, subject: 'raw', text: '"command":"rm' });
  });
  it('checks the expected rule and reason', () => {
    expect(outcome('ls is allowed').failures).toEqual(['expected rule allow[1], decided by allow[0]']);
    expect(outcome('curl is denied').failures).toEqual(['expected reason "denied", got "not on the list"']);
  });
  it('names a malformed expected rule', () => {
    const t = { ...p.tests![0]!, rule: 'deny 0' };
    expect(runTest(p, t, p.name).failures).toEqual(['expected rule `deny 0` is not `deny[N]`, `ask[N]`, `allow[N]` or `default`']);
  });
});

describe('discover', () => {
  it('pairs case files with the policy of the same name', () => {
    expect(policyForCaseFile('fixtures/testing/coverage.test.yaml')).toBe('fixtures/testing/coverage.yaml');
    expect(policyForCaseFile('fixtures/testing/broken/orphan.test.yaml')).toBeUndefined();
    const { targets, missing } = discover(['fixtures/testing']);
    expect(targets.find((t) => t.policyFile === 'fixtures/testing/coverage.yaml')).toEqual({
      policyFile: 'fixtures/testing/coverage.yaml',
      inline: true,
      caseFiles: ['fixtures/testing/coverage.test.yaml'],
    });
    expect(targets.some((t) => t.policyFile.includes('.test.'))).toBe(false);
    expect(missing.map((d) => d.code)).toEqual(['test/no-policy']);
  });
  it('a named case file runs alone, without the inline tests', () => {
    expect(discover(['fixtures/testing/coverage.test.yaml']).targets).toEqual([
      { policyFile: 'fixtures/testing/coverage.yaml', inline: false, caseFiles: ['fixtures/testing/coverage.test.yaml'] },
    ]);
  });
});
