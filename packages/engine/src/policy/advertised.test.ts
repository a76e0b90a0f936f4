import { describe, expect, it } from 'vitest';
import { advertisedModes, retryAdvertised } from './advertised.ts';
import { builtinDescriptors } from './descriptors.ts';
import type { DriverDescriptor } from './types.ts';

describe("a driver's advertised modes, read once", () => {
  it('lists the modes set to true, never retry, in the descriptor order', () => {
    const d = builtinDescriptors.codex;
    const caps = d.run_policy_caps.permission;
    expect(advertisedModes(d, 'permission')).toEqual((['ask', 'auto_approve', 'auto_reject'] as const).filter((m) => caps[m]));
    expect(advertisedModes(d, 'permission')).not.toContain('retry');
    expect(retryAdvertised(d, 'permission')).toBe(caps.retry);
  });

  it('reads a malformed descriptor as advertising nothing (fail closed)', () => {
    const broken = { type: 'x', run_policy_caps: { permission: { ask: 'yes', retry: 1 } } } as unknown as DriverDescriptor;
    expect(advertisedModes(broken, 'permission')).toEqual([]);
    expect(retryAdvertised(broken, 'permission')).toBe(false);
    expect(advertisedModes(broken, 'question')).toEqual([]);
    expect(advertisedModes(undefined, 'plan_review')).toEqual([]);
    expect(retryAdvertised({} as DriverDescriptor, 'question')).toBe(false);
  });
});
