// Shared helpers for the decision tests (not exported from the package).
import type { DriverDescriptor, Policy } from '../../src/policy/types.ts';
import type { ApprovalPolicy } from '../../src/policy/types.ts';
import { zeroPolicy } from '../../src/policy/defaults.ts';

export function descriptor(retry: boolean, type = retry ? 'test-retry' : 'test-no-retry'): DriverDescriptor {
  const modes = { ask: true, auto_approve: true, auto_reject: true, retry };
  return {
    type,
    run_policy_caps: {
      isolation: false,
      web_search: false,
      browser: false,
      permission: { ...modes },
      plan_review: { ...modes },
      question: { ask: true, auto_reject: true, retry },
    },
    structured_output: { works_with_hitl: false },
  };
}

export function policy(approvals: Partial<ApprovalPolicy> = {}): Policy {
  const p = zeroPolicy();
  return { ...p, approvals: { ...p.approvals, ...approvals } };
}

/** Lets every pending microtask and immediate run. */
export const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown } | { ok: 'pending' };

/** Tracks a promise's settlement without awaiting it. */
export function track<T>(p: Promise<T>): { readonly state: Settled<T> } {
  const box: { state: Settled<T> } = { state: { ok: 'pending' } };
  p.then(
    (value) => {
      box.state = { ok: true, value };
    },
    (error: unknown) => {
      box.state = { ok: false, error };
    },
  );
  return box;
}
