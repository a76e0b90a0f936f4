/** The run Policy IR lowered to the engine's `Policy` (zero fields stay zero: not materialised), and a preset raised to IR. */
import { parseGoDuration, POLICY_FIELDS, policyFieldIR, policyFieldValue, zeroPolicy } from '@verdict/engine';
import type { ApprovalsIR, Located, Policy, PolicyIR, Span } from '@verdict/engine';

/**
 * Lowers a validated policy: durations become bigint nanoseconds, `-0` becomes 0. Never throws; a
 * duration Go would reject (the `validate` stage reports it) lowers to 0, the default.
 */
export function lowerPolicy(ir: PolicyIR): Policy {
  const a = ir.approvals;
  const t = a?.timeout?.value ?? '';
  const parsed = t === '' ? undefined : parseGoDuration(t);
  const maxRetries = a?.maxRetries?.value ?? 0;
  const out = zeroPolicy();
  out.approvals.timeout = parsed?.ok ? parsed.ns : 0n;
  out.approvals.maxRetries = Object.is(maxRetries, -0) ? 0 : maxRetries;
  for (const f of POLICY_FIELDS) {
    if (f.domain === undefined) continue;
    const value = (policyFieldIR(ir, f) as Located<string> | undefined)?.value ?? '';
    if (f.group === 'policy') out[f.prop] = value;
    else (out.approvals as unknown as Record<string, string>)[f.prop] = value;
  }
  return out;
}

/**
 * The values a preset sets (its string fields that are not zero), as IR located at `span` (where
 * the preset is named): the starting point that the keys written beside it replace.
 */
export function presetIR(preset: Policy, span: Span | undefined): { policy: PolicyIR; approvals: ApprovalsIR } {
  const policy: PolicyIR = {};
  const approvals: ApprovalsIR = {};
  for (const f of POLICY_FIELDS) {
    if (f.domain === undefined) continue;
    const value = policyFieldValue(preset, f);
    if (typeof value !== 'string' || value === '') continue;
    const l: Located<string> = span ? { value, span } : { value };
    if (f.group === 'policy') policy[f.prop] = l;
    else (approvals as Record<string, Located<string>>)[f.prop] = l;
  }
  return { policy, approvals };
}
