/** The file encoding of a Policy (semantics.md B1): snake_case keys, the timeout as a Go duration. */
import { formatGoDuration } from './duration.ts';
import { POLICY_FIELDS, policyFieldValue, type PolicyFileShape } from './domains.ts';
import type { Policy } from './types.ts';

/** The inverse of lowering, for printing a policy (e.g. the effective one `verdict check` shows). */
export function encodePolicy(p: Policy): PolicyFileShape {
  const top: Record<string, unknown> = {};
  const approvals: Record<string, unknown> = {};
  for (const f of POLICY_FIELDS) {
    const v = policyFieldValue(p, f);
    if (f.group === 'policy') top[f.name] = v;
    else approvals[f.name] = typeof v === 'bigint' ? formatGoDuration(v) : v;
  }
  return { ...top, approvals } as unknown as PolicyFileShape;
}
