// A property test of a rule set, as a user writes one with @verdict/testing, fast-check and vitest.
import { expect, it } from 'vitest';
import fc from 'fast-check';
import { alwaysDenies, assertProperty, decide, inputField, loadPolicy, mustLoad, neverAllows, toolCall } from '@verdict/testing';

const policy = mustLoad(loadPolicy('policy.yaml'));

it('never runs a recursive delete', () => {
  assertProperty(neverAllows(policy, (c) => /\brm\s+-rf/.test(inputField(c, 'command') ?? '')), { seed: 42 });
});

it('denies every bash call, saying why', () => {
  const bash = toolCall({ tool: 'bash', input: fc.record({ command: fc.string() }) });
  assertProperty(alwaysDenies(policy, bash, { reason: "denied by the consumer test's policy" }));
});

it('allows reads', () => {
  expect(decide(policy, { tool: 'read', input: '{"path":"README.md"}' }).decision).toBe('allow');
});
