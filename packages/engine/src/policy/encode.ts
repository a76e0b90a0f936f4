/** The file encoding of a Policy (semantics.md B1): snake_case keys, the timeout as a Go duration. */
import { formatGoDuration } from './duration.ts';
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
  const a = p.approvals;
  return {
    sandbox: p.sandbox,
    web_search: p.webSearch,
    browser: p.browser,
    approvals: {
      permission: a.permission,
      plan_review: a.planReview,
      question: a.question,
      timeout: formatGoDuration(a.timeout),
      on_timeout: a.onTimeout,
      on_reject: a.onReject,
      max_retries: a.maxRetries,
    },
  };
}
