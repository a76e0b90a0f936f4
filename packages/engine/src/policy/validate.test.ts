import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getPreset, materialize, zeroPolicy } from './defaults.ts';
import { BUILTIN_DRIVER_NAMES, builtinDescriptors, getBuiltinDescriptor } from './descriptors.ts';
import { POLICY_DOMAINS, POLICY_FIELD_NAMES } from './domains.ts';
import {
  ErrHumanDecisionModeUnsupported,
  ErrInvalidPolicy,
  ErrPolicyCapabilityUnsupported,
  ErrStructuredOutputUnsupported,
  HumanDecisionModeUnsupportedError,
  InvalidPolicyError,
  isPolicyError,
  PolicyCapabilityUnsupportedError,
  StructuredOutputUnsupportedError,
} from './errors.ts';
import { fromFilePolicy, readRepoJson } from '../../test/support/policy.ts';
import { encodePolicy } from './encode.ts';
import type { FilePolicy } from '../../test/support/policy.ts';
import type { DriverDescriptor, Policy } from './types.ts';
import { validatePolicy } from './validate.ts';

interface ValidationCase {
  name: string;
  row: string;
  policy?: FilePolicy | null;
  preset?: string;
  drivers: string[] | 'all';
  descriptor?: DriverDescriptor;
  structured_output?: boolean;
  expect:
    | { result: 'not_validated' }
    | { result: 'valid'; effective?: unknown }
    | { result: 'error'; code: string; fields: Record<string, string>; message: string };
}

const fixture = readRepoJson('fixtures/cases/policy-validation.json') as { cases: ValidationCase[] };

function policyOf(c: ValidationCase): Policy | undefined {
  if (c.preset !== undefined) {
    const preset = getPreset(c.preset);
    if (preset === undefined) throw new Error(`unknown preset ${c.preset}`);
    return preset;
  }
  return c.policy === null || c.policy === undefined ? undefined : fromFilePolicy(c.policy);
}

function descriptorsOf(c: ValidationCase): DriverDescriptor[] {
  const names = c.drivers === 'all' ? BUILTIN_DRIVER_NAMES : c.drivers;
  const found = names.map((name) => {
    const d = getBuiltinDescriptor(name);
    if (d === undefined) throw new Error(`unknown driver ${name}`);
    return d;
  });
  return c.descriptor === undefined ? found : [...found, c.descriptor];
}

const rows = fixture.cases.flatMap((c) => descriptorsOf(c).map((d) => ({ c, d, label: `${c.name} [${d.type}]` })));

describe('validatePolicy: fixtures/cases/policy-validation.json (semantics.md C4, B5)', () => {
  it('covers every C4 row', () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(30);
    // rows that apply to every driver expand to all four built-ins
    expect(rows.filter((r) => r.c.row === '{} on any driver').map((r) => r.d.type)).toEqual([
      'codex',
      'claude',
      'cursor',
      'codebuddy',
    ]);
  });

  it.each(rows)('$label', ({ c, d }) => {
    const policy = policyOf(c);
    const err = validatePolicy(policy, d, { structuredOutput: c.structured_output === true });
    const want = c.expect;
    switch (want.result) {
      case 'not_validated':
        expect(policy).toBeUndefined();
        expect(err).toBeNull();
        break;
      case 'valid':
        expect(err).toBeNull();
        if (want.effective !== undefined && policy !== undefined) {
          expect(encodePolicy(materialize(policy))).toEqual(want.effective);
        }
        break;
      case 'error': {
        expect(err).not.toBeNull();
        expect(err?.code).toBe(want.code);
        expect(err?.message).toBe(want.message.replaceAll('<driver>', d.type));
        expect(err).toMatchObject(want.fields);
        expect(isPolicyError(err, want.code as never)).toBe(true);
        expect(err?.toJSON()).toEqual({ code: want.code, message: err?.message, ...want.fields });
        break;
      }
    }
  });
});

describe('error classes', () => {
  it('carry the Go SDK messages and sentinel codes', () => {
    const invalid = new InvalidPolicyError('claude', 'Policy.Sandbox', 'READ_ONLY');
    expect(invalid).toBeInstanceOf(Error);
    expect(invalid.name).toBe('InvalidPolicyError');
    expect(invalid.message).toBe('agentadaptor: invalid run policy: driver=claude field=Policy.Sandbox value="READ_ONLY"');
    expect(invalid.code).toBe(ErrInvalidPolicy);

    const cap = new PolicyCapabilityUnsupportedError('cursor', 'sandbox', 'read_only');
    expect(cap.message).toBe(
      'agentadaptor: policy capability unsupported by driver: driver=cursor dimension=sandbox value=read_only',
    );
    expect(cap.code).toBe(ErrPolicyCapabilityUnsupported);

    const mode = new HumanDecisionModeUnsupportedError('codex', 'permission', 'auto_reject');
    expect(mode.message).toBe(
      'agentadaptor: human decision mode unsupported by driver: driver=codex kind=permission mode=auto_reject',
    );
    expect(mode.code).toBe(ErrHumanDecisionModeUnsupported);

    const so = new StructuredOutputUnsupportedError('claude', 'plan_review');
    expect(so.message).toBe(
      'agentadaptor: structured output unsupported by adapter: adapter=claude reason=plan_review_ask_requires_works_with_hitl',
    );
    expect(so.code).toBe(ErrStructuredOutputUnsupported);
  });

  it('isPolicyError matches the sentinel, not just the class', () => {
    const err = new InvalidPolicyError('codex', 'Policy.Browser', 'x');
    expect(isPolicyError(err)).toBe(true);
    expect(isPolicyError(err, ErrInvalidPolicy)).toBe(true);
    expect(isPolicyError(err, ErrPolicyCapabilityUnsupported)).toBe(false);
    expect(isPolicyError(new Error('agentadaptor: invalid run policy'), ErrInvalidPolicy)).toBe(false);
    expect(isPolicyError({ code: ErrInvalidPolicy })).toBe(false);
    expect(isPolicyError(undefined)).toBe(false);
  });

  it('JSON.stringify uses toJSON (message included)', () => {
    const err = new HumanDecisionModeUnsupportedError('cursor', 'question', 'ask');
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      code: 'ErrHumanDecisionModeUnsupported',
      message: 'agentadaptor: human decision mode unsupported by driver: driver=cursor kind=question mode=ask',
      driver: 'cursor',
      kind: 'question',
      mode: 'ask',
    });
  });
});

describe('validatePolicy: edge cases', () => {
  const codebuddy = builtinDescriptors.codebuddy;

  it('reports the decimal value of a negative max_retries', () => {
    const p = zeroPolicy();
    p.approvals.maxRetries = -42;
    expect(validatePolicy(p, codebuddy)?.message).toBe(
      'agentadaptor: invalid run policy: driver=codebuddy field=Policy.Approvals.MaxRetries value="-42"',
    );
  });

  it('never checks the timeout', () => {
    const p = zeroPolicy();
    p.approvals.timeout = -(1n << 63n);
    expect(validatePolicy(p, codebuddy)).toBeNull();
  });

  it('accepts every domain value on codebuddy except the capabilities it lacks', () => {
    for (const mode of POLICY_DOMAINS['approvals.permission']) {
      const p = zeroPolicy();
      p.approvals.permission = mode;
      expect(validatePolicy(p, codebuddy)).toBeNull();
    }
  });

  it('fails closed on a malformed descriptor instead of throwing', () => {
    const broken = { type: 'half', run_policy_caps: { isolation: true } } as unknown as DriverDescriptor;
    const p = zeroPolicy();
    p.approvals.permission = 'auto_approve';
    expect(validatePolicy(p, broken)?.message).toBe(
      'agentadaptor: human decision mode unsupported by driver: driver=half kind=permission mode=auto_approve',
    );
    p.approvals.permission = '';
    p.webSearch = 'deny';
    expect(validatePolicy(p, broken)).toBeInstanceOf(PolicyCapabilityUnsupportedError);
    p.webSearch = '';
    p.sandbox = 'read_only';
    expect(validatePolicy(p, broken)).toBeNull();
  });

  it('does not take inherited object properties for advertised modes', () => {
    const p = zeroPolicy();
    p.approvals.permission = 'toString';
    expect(validatePolicy(p, codebuddy)).toBeInstanceOf(InvalidPolicyError);
  });

  it('exposes the SDK field names the compiler uses', () => {
    expect(POLICY_FIELD_NAMES['approvals.on_reject']).toBe('Policy.Approvals.OnReject');
    expect(POLICY_FIELD_NAMES['approvals.max_retries']).toBe('Policy.Approvals.MaxRetries');
    expect(POLICY_FIELD_NAMES.web_search).toBe('Policy.WebSearch');
  });
});

describe('validatePolicy: properties', () => {
  const fieldValue = fc.oneof(
    fc.constantFrom('', 'ask', 'auto_approve', 'auto_reject', 'allow', 'deny', 'read_only', 'retry', 'abort', 'continue'),
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.constant(undefined),
  );
  const arbitraryPolicy = fc.record({
    sandbox: fieldValue,
    webSearch: fieldValue,
    browser: fieldValue,
    approvals: fc.record({
      permission: fieldValue,
      planReview: fieldValue,
      question: fieldValue,
      timeout: fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
      onTimeout: fieldValue,
      onReject: fieldValue,
      maxRetries: fc.oneof(fc.integer(), fc.double(), fieldValue),
    }),
  }) as unknown as fc.Arbitrary<Policy>;
  const descriptor = fc.oneof(
    fc.constantFrom(...Object.values(builtinDescriptors)),
    fc.anything() as unknown as fc.Arbitrary<DriverDescriptor>,
  );

  it('never throws and returns null or one of the policy errors', () => {
    fc.assert(
      fc.property(arbitraryPolicy, descriptor, fc.boolean(), (policy, d, structuredOutput) => {
        const err = validatePolicy(policy, d, { structuredOutput });
        expect(err === null || isPolicyError(err)).toBe(true);
        if (err !== null) expect(err.message.startsWith('agentadaptor: ')).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('a valid policy stays valid once materialised (for drivers that advertise the defaults)', () => {
    fc.assert(
      fc.property(arbitraryPolicy, (policy) => {
        if (validatePolicy(policy, builtinDescriptors.codebuddy) !== null) return;
        // the materialised defaults are explicit values: codebuddy advertises ask / ask / auto_reject
        expect(validatePolicy(materialize(policy), builtinDescriptors.codebuddy)).toBeNull();
      }),
      { numRuns: 1000 },
    );
  });
});
