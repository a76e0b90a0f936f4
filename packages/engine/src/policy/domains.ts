/**
 * Names and value domains of the run Policy fields (semantics.md B1), shared by validation and by
 * the compiler's "did you mean" diagnostics so both speak of the same fields.
 */

/** A policy field by its policy-file key (snake_case, dotted under `approvals`). */
export type PolicyFileKey =
  | 'sandbox'
  | 'web_search'
  | 'browser'
  | 'approvals.permission'
  | 'approvals.plan_review'
  | 'approvals.question'
  | 'approvals.timeout'
  | 'approvals.on_timeout'
  | 'approvals.on_reject'
  | 'approvals.max_retries';

/** The SDK's field name for each file key, as `InvalidPolicyError.field` reports it. */
export const POLICY_FIELD_NAMES: Readonly<Record<PolicyFileKey, string>> = Object.freeze({
  sandbox: 'Policy.Sandbox',
  web_search: 'Policy.WebSearch',
  browser: 'Policy.Browser',
  'approvals.permission': 'Policy.Approvals.Permission',
  'approvals.plan_review': 'Policy.Approvals.PlanReview',
  'approvals.question': 'Policy.Approvals.Question',
  'approvals.timeout': 'Policy.Approvals.Timeout',
  'approvals.on_timeout': 'Policy.Approvals.OnTimeout',
  'approvals.on_reject': 'Policy.Approvals.OnReject',
  'approvals.max_retries': 'Policy.Approvals.MaxRetries',
});

/** File keys whose value is one string of a fixed set. */
export type PolicyEnumKey = Exclude<PolicyFileKey, 'approvals.timeout' | 'approvals.max_retries'>;

/**
 * The accepted non-empty values of each string field, case-sensitive. `""` (or an absent key) is
 * also accepted everywhere: it is the zero value, "inherit" or "default".
 */
export const POLICY_DOMAINS: Readonly<Record<PolicyEnumKey, readonly string[]>> = Object.freeze({
  sandbox: Object.freeze(['read_only', 'workspace_write', 'unrestricted']),
  web_search: Object.freeze(['allow', 'deny']),
  browser: Object.freeze(['allow', 'deny']),
  'approvals.permission': Object.freeze(['ask', 'auto_approve', 'auto_reject']),
  'approvals.plan_review': Object.freeze(['ask', 'auto_approve', 'auto_reject']),
  'approvals.question': Object.freeze(['ask', 'auto_reject']),
  'approvals.on_timeout': Object.freeze(['abort', 'continue', 'retry']),
  'approvals.on_reject': Object.freeze(['abort', 'continue', 'retry']),
});

/** The order in which validation checks the domains (B5.1); `max_retries` comes last. */
export const POLICY_DOMAIN_ORDER: readonly PolicyEnumKey[] = Object.freeze([
  'sandbox',
  'web_search',
  'browser',
  'approvals.permission',
  'approvals.plan_review',
  'approvals.question',
  'approvals.on_timeout',
  'approvals.on_reject',
]);

/** True when `value` is the zero value or in the domain of `key`. */
export function isInPolicyDomain(key: PolicyEnumKey, value: unknown): boolean {
  return typeof value === 'string' && (value === '' || POLICY_DOMAINS[key].includes(value));
}
