import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_APPROVAL_TIMEOUT_NS,
  getPreset,
  materialize,
  PRESET_NAMES,
  presetApprovalsAutoDeny,
  presetReadOnly,
  presets,
  presetUnrestricted,
  presetWorkspaceWrite,
  resolvePolicy,
  zeroPolicy,
} from './defaults.ts';
import { SECOND } from './duration.ts';
import { fromFilePolicy } from '../../test/support/policy.ts';
import { encodePolicy } from './encode.ts';
import type { Policy } from './types.ts';

describe('presets (B1)', () => {
  it('sandbox presets set the sandbox only', () => {
    expect(encodePolicy(presetReadOnly())).toEqual(encodePolicy(fromFilePolicy({ sandbox: 'read_only' })));
    expect(presetWorkspaceWrite()).toEqual(fromFilePolicy({ sandbox: 'workspace_write' }));
    expect(presetUnrestricted()).toEqual(fromFilePolicy({ sandbox: 'unrestricted' }));
  });

  it('approvals_auto_deny rejects all three kinds and leaves everything else zero', () => {
    expect(presetApprovalsAutoDeny()).toEqual(
      fromFilePolicy({ approvals: { permission: 'auto_reject', plan_review: 'auto_reject', question: 'auto_reject' } }),
    );
  });

  it('are keyed by file name and return fresh values', () => {
    expect([...PRESET_NAMES]).toEqual(['read_only', 'workspace_write', 'unrestricted', 'approvals_auto_deny']);
    expect(Object.keys(presets)).toEqual([...PRESET_NAMES]);
    const a = presets.read_only();
    a.sandbox = 'unrestricted';
    expect(presets.read_only().sandbox).toBe('read_only');
    expect(getPreset('approvals_auto_deny')).toEqual(presetApprovalsAutoDeny());
    expect(getPreset('READ_ONLY')).toBeUndefined();
    expect(getPreset('toString')).toBeUndefined();
  });
});

describe('materialize (B3)', () => {
  it('fills the SDK defaults of a zero policy', () => {
    expect(encodePolicy(materialize(zeroPolicy()))).toEqual({
      sandbox: '',
      web_search: '',
      browser: '',
      approvals: {
        permission: 'ask',
        plan_review: 'ask',
        question: 'auto_reject',
        timeout: '30s',
        on_timeout: 'abort',
        on_reject: 'abort',
        max_retries: 3,
      },
    });
    expect(DEFAULT_APPROVAL_TIMEOUT_NS).toBe(30n * SECOND);
  });

  it('keeps explicit values, a negative timeout (no deadline) and inherited dimensions', () => {
    const p = fromFilePolicy({
      web_search: 'deny',
      approvals: { permission: 'auto_approve', question: 'ask', timeout: '-5s', on_reject: 'retry', max_retries: 1 },
    });
    expect(encodePolicy(materialize(p))).toEqual({
      sandbox: '',
      web_search: 'deny',
      browser: '',
      approvals: {
        permission: 'auto_approve',
        plan_review: 'ask',
        question: 'ask',
        timeout: '-5s',
        on_timeout: 'abort',
        on_reject: 'retry',
        max_retries: 1,
      },
    });
  });

  it('does not modify its input', () => {
    const p = zeroPolicy();
    materialize(p);
    expect(p).toEqual(zeroPolicy());
  });
});

describe('resolvePolicy (B2)', () => {
  it('the call site replaces the whole agent default', () => {
    const agent = fromFilePolicy({ sandbox: 'read_only', web_search: 'deny' });
    const call = fromFilePolicy({ sandbox: 'workspace_write' });
    const resolved = resolvePolicy(agent, call);
    expect(resolved).toBe(call);
    expect(resolved?.webSearch).toBe('');
  });

  it('falls back to the agent default, or to no policy', () => {
    const agent = presetReadOnly();
    expect(resolvePolicy(agent, undefined)).toBe(agent);
    expect(resolvePolicy(undefined, undefined)).toBeUndefined();
  });
});

const mode = fc.constantFrom('', 'ask', 'auto_approve', 'auto_reject', 'bogus');
const policyArb: fc.Arbitrary<Policy> = fc.record({
  sandbox: fc.constantFrom('', 'read_only', 'workspace_write', 'unrestricted', 'READ_ONLY'),
  webSearch: fc.constantFrom('', 'allow', 'deny'),
  browser: fc.constantFrom('', 'allow', 'deny'),
  approvals: fc.record({
    permission: mode,
    planReview: mode,
    question: mode,
    timeout: fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
    onTimeout: fc.constantFrom('', 'abort', 'continue', 'retry'),
    onReject: fc.constantFrom('', 'abort', 'continue', 'retry'),
    maxRetries: fc.integer({ min: -3, max: 10 }),
  }),
});

describe('policy properties', () => {
  it('materialize is idempotent', () => {
    fc.assert(
      fc.property(policyArb, (p) => {
        const once = materialize(p);
        expect(materialize(once)).toEqual(once);
      }),
    );
  });

  it('materialize leaves no zero approval field', () => {
    fc.assert(
      fc.property(policyArb, (p) => {
        const a = materialize(p).approvals;
        for (const v of [a.permission, a.planReview, a.question, a.onTimeout, a.onReject]) expect(v).not.toBe('');
        expect(a.timeout).not.toBe(0n);
        expect(a.maxRetries).not.toBe(0);
      }),
    );
  });

  it('resolvePolicy never merges: the result deep-equals exactly one input', () => {
    fc.assert(
      fc.property(fc.option(policyArb, { nil: undefined }), fc.option(policyArb, { nil: undefined }), (agent, call) => {
        const r = resolvePolicy(agent, call);
        if (call !== undefined) expect(r).toEqual(call);
        else expect(r).toEqual(agent);
      }),
    );
  });
});
