/** Ask rules in the testing tools: expectations, coverage, and the properties' order allow < ask < deny. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alwaysDenies,
  checkProperty,
  coverage,
  dslTest,
  mustLoad,
  noDuplicateKeySmuggling,
  policyFromSource,
  runTest,
  stricterThan,
  yamlTest,
} from '../src/index.ts';

const POLICY = `approver:
  mode: pattern
  default: deny
  allow:
    - {tool: bash}
  ask:
    - {tool: bash, match: git push}
    - {tool: webfetch}
  deny:
    - {match: --force}
tests:
  - {tool: bash, input: '{"command":"git push"}', expect: ask, rule: 'ask[0]'}
  - {tool: bash, input: '{"command":"git push"}', expect: allow}
  - {tool: bash, input: '{"command":"ls"}', expect: ask, rule: 'ask[0]'}
  - {tool: bash, input: '{"command":"git push --force"}', expect: deny, rule: 'deny[0]'}
`;
const p = mustLoad(policyFromSource(POLICY, 'ask.yaml'));
const outcomes = p.tests!.map((t) => runTest(p, t, p.name));

describe('tests and coverage with ask rules', () => {
  it('`expect: ask` passes on an ask and fails, saying so, on anything else', () => {
    expect(outcomes.map((o) => o.failures)).toEqual([
      [],
      ['expected allow, got ask'],
      ['expected ask, got allow', 'expected rule ask[0], decided by allow[0]'],
      [],
    ]);
  });

  it('coverage lists ask rules between deny and allow rules and counts what they decide', () => {
    const c = coverage(p.config, outcomes);
    expect(c.rules.map((r) => [`${r.list}[${r.index}]`, r.decided, r.matched])).toEqual([
      ['deny[0]', 1, 1],
      ['ask[0]', 2, 3],
      ['ask[1]', 0, 0],
      ['allow[0]', 1, 4],
    ]);
    expect([c.reached, c.total]).toEqual([3, 4]);
  });

  it('suggested tests write `ask`', () => {
    const t = { call: { tool: 'bash', input: '{"command":"git push"}' }, expect: 'ask' as const };
    expect(yamlTest(t)).toBe(`- {tool: bash, input: '{"command":"git push"}', expect: ask}`);
    expect(dslTest(t)).toBe('test { ask bash {"command":"git push"} }');
    // A tool named `ask` stays a plain name in the DSL (`ask` is no keyword).
    expect(dslTest({ call: { tool: 'ask', input: '{}' }, expect: 'deny' })).toBe('test { deny ask {} }');
  });
});

const ASKS = mustLoad(policyFromSource('mode: pattern\ndefault: allow\nask:\n  - {tool: bash, match: push}\n', 'asks.yaml'));
const ALLOWS = mustLoad(policyFromSource('mode: pattern\ndefault: allow\n', 'allows.yaml'));
const DENIES = mustLoad(policyFromSource('mode: pattern\ndefault: allow\ndeny:\n  - {tool: bash, match: push}\n', 'denies.yaml'));
const pushes = fc.constantFrom('git push', 'push it', 'ls').map((c) => ({ tool: 'bash', input: JSON.stringify({ command: c }) }));

describe('properties order decisions allow < ask < deny', () => {
  it('stricterThan: asking is stricter than allowing and looser than denying', () => {
    expect(checkProperty(stricterThan(ASKS, ALLOWS, { calls: pushes }), { seed: 1 }).ok).toBe(true);
    expect(checkProperty(stricterThan(DENIES, ASKS, { calls: pushes }), { seed: 1 }).ok).toBe(true);
    const up = checkProperty(stricterThan(ALLOWS, ASKS, { calls: pushes }), { seed: 1 });
    expect(up.ok).toBe(false);
    expect(up.counterexample?.summary).toBe('allows.yaml allows a call asks.yaml asks about');
    expect(up.counterexample?.tests.map((t) => t.expect)).toEqual(['ask']);
    const down = checkProperty(stricterThan(ASKS, DENIES, { calls: pushes }), { seed: 1 });
    expect(down.counterexample?.summary).toBe('asks.yaml asks about a call denies.yaml denies');
  });

  it('alwaysDenies: an ask is not a deny', () => {
    const r = checkProperty(alwaysDenies(ASKS, (c) => c.input.includes('push'), { calls: pushes }), { seed: 1 });
    expect(r.ok).toBe(false);
    expect(r.counterexample?.summary).toBe('asks.yaml asks about a call it should deny');
  });

  it('noDuplicateKeySmuggling: a repeated key that hides a call the policy asks about is found', () => {
    const raw = mustLoad(
      policyFromSource(
        'mode: pattern\ndefault: deny\nallow:\n  - {tool: bash, match: \'"command":"ls"\'}\nask:\n  - {tool: bash, match: \'^\\{"command":"curl\'}\n',
        'smuggle.yaml',
      ),
    );
    const calls = fc.constant({ tool: 'bash', input: '{"command":"ls","command":"curl x"}' });
    const r = checkProperty(noDuplicateKeySmuggling(raw, { calls }), { seed: 1, numRuns: 5 });
    expect(r.ok).toBe(false);
    expect(r.counterexample?.summary).toBe('smuggle.yaml allows an input whose repeated key hides a call it asks about');
  });
});
