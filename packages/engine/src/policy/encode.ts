/** The file encoding of a Policy (semantics.md B1): snake_case keys, the timeout as a Go duration. */
import { formatGoDuration } from './duration.ts';
import { POLICY_FIELDS, policyFieldValue } from './domains.ts';
import type { Policy } from './types.ts';

/** A `Policy` in the file encoding (semantics.md B1): snake_case keys, the timeout as a Go duration. */
export interface PolicyFileShape {
  sandbox: string;
  web_search: string;
  browser: string;
  approvals: {
    permission: string;
    plan_review: string;
    question: string;
    timeout: string;
    on_timeout: string;
    on_reject: string;
    max_retries: number;
  };
}

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
