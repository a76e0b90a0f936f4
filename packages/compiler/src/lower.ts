/** The run Policy IR lowered to the engine's `Policy` (zero fields stay zero: not materialised). */
import { parseGoDuration } from '@verdict/engine';
import type { Located, Policy, PolicyIR } from '@verdict/engine';

function v(l: Located<string> | undefined): string {
  return l?.value ?? '';
}

/**
 * Lowers a validated policy: durations become bigint nanoseconds, `-0` becomes 0. Never throws; a
 * duration Go would reject (the `validate` stage reports it) lowers to 0, the default.
 */
export function lowerPolicy(ir: PolicyIR): Policy {
  const a = ir.approvals;
  const t = a?.timeout?.value ?? '';
  const parsed = t === '' ? undefined : parseGoDuration(t);
  const maxRetries = a?.maxRetries?.value ?? 0;
  return {
    sandbox: v(ir.sandbox),
    webSearch: v(ir.webSearch),
    browser: v(ir.browser),
    approvals: {
      permission: v(a?.permission),
      planReview: v(a?.planReview),
      question: v(a?.question),
      timeout: parsed?.ok ? parsed.ns : 0n,
      onTimeout: v(a?.onTimeout),
      onReject: v(a?.onReject),
      maxRetries: Object.is(maxRetries, -0) ? 0 : maxRetries,
    },
  };
}
