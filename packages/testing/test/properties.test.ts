/**
 * Each property on fixture policies with a known flaw (fixtures/testing/*-flawed.yaml): it must find
 * the flaw, shrink it to a call that shows it, and hold on the fixed policy. Several seeds each, so
 * a property that finds its flaw only by luck fails here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alwaysDenies,
  assertProperty,
  checkProperty,
  defineProperty,
  equivalent,
  filePath,
  formatReport,
  inputField,
  invariantUnderRespelling,
  loadPolicy,
  mustLoad,
  neverAllows,
  noDuplicateKeySmuggling,
  policyFromSource,
  type PolicyUnderTest,
  runTest,
  stricterThan,
  toolCall,
  type ToolCall,
} from '../src/index.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = (name: string) => `${root}fixtures/testing/${name}`;
const load = (name: string): PolicyUnderTest => mustLoad(loadPolicy(fixture(name)));
const SEEDS = [1, 2, 3, 4, 5];

const destructive = (c: ToolCall) => c.tool.toLowerCase() === 'bash' && /\brm\s+-(?:rf|fr|r\s+-f)\b/.test(inputField(c, 'command') ?? (c.input || ''));

/** The suggested tests of a counterexample, pasted under `tests:` of the policy's own text. */
function pasteInto(name: string, yamlLines: string[]): PolicyUnderTest {
  const text = readFileSync(fixture(name), 'utf8').replace(/^tests:\n(?:  - .*\n)*/m, '');
  return mustLoad(policyFromSource(`${text}tests:\n${yamlLines.map((l) => `  ${l}\n`).join('')}`, fixture(name)));
}

function failuresOf(p: PolicyUnderTest): number {
  return (p.tests ?? []).filter((t) => !runTest(p, t, p.name).passed).length;
}

describe('neverAllows', () => {
  const flawed = load('rm-flawed.yaml');
  const fixed = load('rm-fixed.yaml');
  for (const seed of SEEDS) {
    it(`finds a destructive command the raw deny rule lets through (seed ${seed})`, () => {
      const r = checkProperty(neverAllows(flawed, destructive), { seed, numRuns: 300 });
      expect(r.ok).toBe(false);
      const [o] = r.counterexample!.observations;
      expect(o!.explanation.decision).toBe('allow');
      expect(destructive(o!.call)).toBe(true);
      expect(r.counterexample!.tests).toEqual([{ call: o!.call, expect: 'deny' }]);
    });
  }
  it('holds on the fixed policy', () => {
    for (const seed of SEEDS) expect(checkProperty(neverAllows(fixed, destructive), { seed, numRuns: 300 }).ok).toBe(true);
  });
  it('counts how many generated calls were in the predicate\'s domain', () => {
    const r = checkProperty(neverAllows(fixed, destructive), { seed: 1, numRuns: 300 });
    expect(r.relevant).toBeGreaterThan(10);
    expect(r.runs).toBe(300);
  });
});

describe('alwaysDenies', () => {
  const outside = toolCall({
    tool: 'write',
    input: fc.record({ file_path: filePath().filter((p) => !p.startsWith('/workspace/') || p.split('/').includes('..')), content: fc.string() }),
  });
  for (const seed of SEEDS) {
    it(`finds a write outside /workspace that a prefix match allows (seed ${seed})`, () => {
      const r = checkProperty(alwaysDenies(load('workspace-flawed.yaml'), outside), { seed, numRuns: 300 });
      expect(r.ok).toBe(false);
      const [o] = r.counterexample!.observations;
      expect(o!.explanation.decision).toBe('allow');
      expect(inputField(o!.call, 'file_path')).toMatch(/^\/workspace\/.*\.\./);
    });
  }
  it('finds a deny with the wrong reason', () => {
    const r = checkProperty(alwaysDenies(load('workspace-flawed.yaml'), outside, { reason: 'writes stay inside /workspace' }), { seed: 1, numRuns: 300 });
    expect(r.ok).toBe(false);
    expect(r.counterexample!.summary).toMatch(/allows a call it should deny|denies the call, but not with reason/);
  });
  it('holds on the fixed policy, reason included', () => {
    for (const seed of SEEDS) {
      const r = checkProperty(alwaysDenies(load('workspace-fixed.yaml'), outside, { reason: 'writes stay inside /workspace', rule: 'default' }), { seed, numRuns: 300 });
      expect(r.ok).toBe(true);
    }
  });
});

describe('equivalent', () => {
  const before = load('refactor-before.yaml');
  for (const seed of SEEDS) {
    it(`finds the call a bad refactor decides differently (seed ${seed})`, () => {
      const r = checkProperty(equivalent(before, load('refactor-bad.yaml')), { seed, numRuns: 300 });
      expect(r.ok).toBe(false);
      const [a, b] = r.counterexample!.observations;
      expect([a!.explanation.decision, b!.explanation.decision]).toEqual(['deny', 'allow']);
      expect(a!.call.input).toMatch(/sudo(?! )/);
      expect(r.counterexample!.tests[0]!.expect).toBe('deny');
    });
  }
  it('holds for the good refactor, reasons included', () => {
    for (const seed of SEEDS) expect(checkProperty(equivalent(before, load('refactor-good.yaml'), { reasons: true }), { seed }).ok).toBe(true);
  });
});

describe('stricterThan', () => {
  const dev = load('dev.yaml');
  for (const seed of SEEDS) {
    it(`finds a git command the "stricter" CI policy allows and dev denies (seed ${seed})`, () => {
      const r = checkProperty(stricterThan(load('ci-flawed.yaml'), dev), { seed, numRuns: 300 });
      expect(r.ok).toBe(false);
      const [ci, d] = r.counterexample!.observations;
      expect(ci!.explanation.decision).toBe('allow');
      expect(d!.explanation.decision).toBe('deny');
      expect(inputField(ci!.call, 'command')).toMatch(/^git /);
    });
  }
  it('holds for the fixed CI policy, and not the other way round', () => {
    for (const seed of SEEDS) expect(checkProperty(stricterThan(load('ci-fixed.yaml'), dev), { seed }).ok).toBe(true);
    expect(checkProperty(stricterThan(dev, load('ci-fixed.yaml')), { seed: 1 }).ok).toBe(false);
  });
});

describe('invariantUnderRespelling', () => {
  for (const seed of SEEDS) {
    it(`finds a spelling that bypasses the raw deny rule and shrinks it to one escape (seed ${seed})`, () => {
      const r = checkProperty(invariantUnderRespelling(load('rm-flawed.yaml')), { seed, numRuns: 300 });
      expect(r.ok).toBe(false);
      const [plain, other] = r.counterexample!.observations;
      expect(plain!.explanation.decision).not.toBe(other!.explanation.decision);
      expect(JSON.parse(plain!.call.input)).toEqual(JSON.parse(other!.call.input));
      expect(r.counterexample!.tests.map((t) => t.expect)).toEqual(['deny', 'deny']);
    });
  }
  it('holds in canonical mode', () => {
    for (const seed of SEEDS) {
      expect(checkProperty(invariantUnderRespelling(load('rm-fixed.yaml')), { seed, numRuns: 300 }).ok).toBe(true);
      expect(checkProperty(invariantUnderRespelling(load('dupkey-fixed.yaml')), { seed, numRuns: 300 }).ok).toBe(true);
    }
  });
  it('fails on the C2 row: a raw rule anchored on the compact spelling denies a spaced one', () => {
    const p = mustLoad(
      policyFromSource('approver:\n  mode: pattern\n  allow:\n    - {tool: bash, match: "^\\\\{\\"command\\""}\n', 'anchored.yaml'),
    );
    const r = checkProperty(invariantUnderRespelling(p), { seed: 1 });
    expect(r.ok).toBe(false);
    const [plain, other] = r.counterexample!.observations;
    expect(plain!.explanation.decision).toBe('allow');
    expect(other!.explanation.decision).toBe('deny');
  });
});

describe('noDuplicateKeySmuggling', () => {
  it('finds the repeated key that hides a denied command behind `ls`', () => {
    for (const seed of SEEDS) {
      const r = checkProperty(noDuplicateKeySmuggling(load('dupkey-flawed.yaml')), { seed });
      expect(r.ok).toBe(false);
      expect(r.counterexample!.observations[0]!.call.input).toMatch(/^\{"command":"ls","command":/);
    }
  });
  it('holds in canonical mode, which rejects repeated keys', () => {
    for (const seed of SEEDS) expect(checkProperty(noDuplicateKeySmuggling(load('dupkey-fixed.yaml')), { seed }).ok).toBe(true);
  });
});

describe('the policy author\'s loop: paste the counterexample, fix the rule', () => {
  it('the pasted tests fail on the flawed policy and pass on the fixed one', () => {
    const r = checkProperty(invariantUnderRespelling(load('rm-flawed.yaml')), { seed: 1 });
    const yaml = r.counterexample!.tests.map((t) => `- {tool: ${t.call.tool}, input: ${JSON.stringify(t.call.input)}, expect: ${t.expect}}`);
    expect(failuresOf(pasteInto('rm-flawed.yaml', yaml))).toBe(1);
    expect(failuresOf(pasteInto('rm-fixed.yaml', yaml))).toBe(0);
  });
  it('assertProperty throws the report, with the tests to paste', () => {
    expect(() => assertProperty(neverAllows(load('rm-flawed.yaml'), destructive), { seed: 1, numRuns: 300 })).toThrow(
      /FAIL neverAllows[\s\S]*paste as inline tests[\s\S]*- \{tool: [^,]+, input: .*, expect: deny\}[\s\S]*test \{ deny /,
    );
    expect(assertProperty(neverAllows(load('rm-fixed.yaml'), destructive), { seed: 1 }).ok).toBe(true);
  });
  it('the property is an fc property too', () => {
    expect(() => fc.assert(neverAllows(load('rm-flawed.yaml'), destructive).property, { seed: 1, numRuns: 300 })).toThrow();
    fc.assert(neverAllows(load('rm-fixed.yaml'), destructive).property, { seed: 1, numRuns: 100 });
  });
});

describe('checkProperty with a time limit', () => {
  it('stops starting samples once the limit has passed and says so in the report', () => {
    // Each sample takes longer than the whole limit: the check stops after the first, or before it.
    const slow = defineProperty<number>({
      name: 'slow',
      statement: 'takes its time',
      arbitrary: fc.nat(),
      holds: () => {
        const until = performance.now() + 5;
        while (performance.now() < until);
        return true;
      },
      explain: () => ({ summary: '', observations: [], tests: [] }),
    });
    const r = checkProperty(slow, { seed: 1, numRuns: 200, timeLimit: 1 });
    expect(r).toMatchObject({ ok: true, interrupted: true, planned: 200 });
    expect(r.runs).toBeLessThan(200);
    expect(formatReport(r)).toContain(`(${r.runs} of 200 runs, stopped at the time limit, seed 1)`);
    expect(checkProperty(slow, { seed: 1, numRuns: 3 })).toMatchObject({ ok: true, runs: 3, planned: 3 });
  });
});
