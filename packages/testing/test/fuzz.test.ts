/** `fuzzPolicy`, the logic behind `verdict fuzz`, called as a library. */
import { describe, expect, it } from 'vitest';
import { fuzzPolicy, loadPolicy, mustLoad, wherePredicate } from '../src/index.ts';

const fixtures = new URL('../../../fixtures/testing/', import.meta.url).pathname;

describe('fuzzPolicy', () => {
  it('finds the refactor that changed a decision, reporting each property as it finishes', () => {
    const before = mustLoad(loadPolicy(`${fixtures}refactor-before.yaml`));
    const bad = mustLoad(loadPolicy(`${fixtures}refactor-bad.yaml`));
    const seen: string[] = [];
    const run = fuzzPolicy({
      policy: bad,
      other: before,
      properties: ['equivalent', 'respelling'],
      runs: 200,
      seed: 1,
      timeLimit: 60,
      onStart: (name) => (seen.push(`start ${name}`), undefined),
      onReport: (r) => seen.push(`report ${r.property} ${r.ok}`),
    });
    expect(seen).toEqual(['start equivalent', 'report equivalent false', 'start respelling', 'report invariantUnderRespelling false']);
    expect(run.failed).toBe(2);
    expect(run.reports[0]?.counterexample?.tests.length).toBeGreaterThan(0);
    expect(run.skipped).toBeUndefined();
  });

  it('tells a `where` regex that does not compile', () => {
    expect(wherePredicate('(', undefined)).toEqual({ ok: false, error: 'error parsing regexp: missing closing ): `(`' });
    const w = wherePredicate('rm\\s', 'Bash');
    expect(w.ok && w.predicate({ tool: 'bash', input: '{"command":"rm -rf /"}' })).toBe(true);
    expect(w.ok && w.predicate({ tool: 'read', input: '{"command":"rm -rf /"}' })).toBe(false);
  });
});
