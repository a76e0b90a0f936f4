/**
 * The run Policy's fields (semantics.md B1), once: each field's policy-file key, its property in
 * the IR and in `Policy`, the SDK's name for it, its value domain, and the driver capability or
 * human-decision kind it stands for. Validation, the loaders, both printers, the linter and
 * `verdict check` read their field lists and names from `POLICY_FIELDS`.
 */
import type { ApprovalsIR, Located, PolicyIR } from '../ir.ts';
import type { ApprovalPolicy, HumanDecisionKind, Policy } from './types.ts';

const freeze = <const T>(x: T): Readonly<T> => Object.freeze(x);

/**
 * Every run Policy field, in the SDK's order (the order of validation, printing and `verdict check`):
 * the one list. The key types, the zero `Policy` (`zeroPolicy`) and the file encoding's shape
 * (`PolicyFileShape`) are derived from it.
 */
const FIELD_TABLE = freeze([
  freeze({ key: 'sandbox', name: 'sandbox', group: 'policy', prop: 'sandbox', sdk: 'Policy.Sandbox', domain: freeze(['read_only', 'workspace_write', 'unrestricted']), capability: 'isolation' }),
  freeze({ key: 'web_search', name: 'web_search', group: 'policy', prop: 'webSearch', sdk: 'Policy.WebSearch', domain: freeze(['allow', 'deny']), capability: 'web_search' }),
  freeze({ key: 'browser', name: 'browser', group: 'policy', prop: 'browser', sdk: 'Policy.Browser', domain: freeze(['allow', 'deny']), capability: 'browser' }),
  freeze({ key: 'approvals.permission', name: 'permission', group: 'approvals', prop: 'permission', sdk: 'Policy.Approvals.Permission', domain: freeze(['ask', 'auto_approve', 'auto_reject']), kind: 'permission' }),
  freeze({ key: 'approvals.plan_review', name: 'plan_review', group: 'approvals', prop: 'planReview', sdk: 'Policy.Approvals.PlanReview', domain: freeze(['ask', 'auto_approve', 'auto_reject']), kind: 'plan_review' }),
  freeze({ key: 'approvals.question', name: 'question', group: 'approvals', prop: 'question', sdk: 'Policy.Approvals.Question', domain: freeze(['ask', 'auto_reject']), kind: 'question' }),
  freeze({ key: 'approvals.timeout', name: 'timeout', group: 'approvals', prop: 'timeout', sdk: 'Policy.Approvals.Timeout' }),
  freeze({ key: 'approvals.on_timeout', name: 'on_timeout', group: 'approvals', prop: 'onTimeout', sdk: 'Policy.Approvals.OnTimeout', domain: freeze(['abort', 'continue', 'retry']) }),
  freeze({ key: 'approvals.on_reject', name: 'on_reject', group: 'approvals', prop: 'onReject', sdk: 'Policy.Approvals.OnReject', domain: freeze(['abort', 'continue', 'retry']) }),
  freeze({ key: 'approvals.max_retries', name: 'max_retries', group: 'approvals', prop: 'maxRetries', sdk: 'Policy.Approvals.MaxRetries' }),
]);

type FieldRow = (typeof FIELD_TABLE)[number];

/** A policy field by its policy-file key (snake_case, dotted under `approvals`). */
export type PolicyFileKey = FieldRow['key'];

/** File keys whose value is one string of a fixed set. */
export type PolicyEnumKey = Extract<FieldRow, { domain: readonly string[] }>['key'];

/** The file keys at the top of `policy:`. */
type TopKey = Extract<FieldRow, { group: 'policy' }>['key'];

// Every property of `Policy` and `ApprovalPolicy` is some field's `prop`: a property added to the
// model and not to the table is a type error here.
type Unlisted = Exclude<Exclude<keyof Policy, 'approvals'> | keyof ApprovalPolicy, FieldRow['prop']>;
const everyPropertyListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyPropertyListed;

interface FieldBase<K extends PolicyFileKey> {
  /** The file key, dotted under `approvals`: `approvals.plan_review`. */
  key: K;
  /** The key as written in its mapping: `plan_review`. */
  name: string;
  /** The SDK's field name, as `InvalidPolicyError.field` reports it: `Policy.Approvals.PlanReview`. */
  sdk: string;
  /**
   * The accepted non-empty values, case-sensitive (string fields of a fixed set only). `""` (or an
   * absent key) is accepted everywhere too: it is the zero value, "inherit" or "default".
   */
  domain?: readonly string[];
  /** The driver capability an explicit value needs (B5.2). */
  capability?: 'isolation' | 'web_search' | 'browser';
  /** The human-decision kind whose mode this field sets (B5.3). */
  kind?: HumanDecisionKind;
}
/** A field at the top of `policy:`. */
export interface TopPolicyField extends FieldBase<TopKey> {
  group: 'policy';
  /** The property in `Policy` and `PolicyIR`: `webSearch`. */
  prop: Exclude<keyof Policy, 'approvals'> & keyof PolicyIR;
}
/** A field under `approvals:`. */
export interface ApprovalsField extends FieldBase<Exclude<PolicyFileKey, TopKey>> {
  group: 'approvals';
  /** The property in `ApprovalPolicy` and `ApprovalsIR`: `planReview`. */
  prop: keyof ApprovalPolicy & keyof ApprovalsIR;
}
export type PolicyField = TopPolicyField | ApprovalsField;

/** Every run Policy field, in the SDK's order (the order of validation, printing and `verdict check`). */
export const POLICY_FIELDS: readonly PolicyField[] = FIELD_TABLE;

/** The value a field has in the file encoding: a Go duration string for a duration, else its `Policy` value's type. */
type FileValue<T> = T extends bigint ? string : T extends number ? number : string;
type ApprovalsRow = Extract<FieldRow, { group: 'approvals' }>;

/** A `Policy` in the file encoding (semantics.md B1): snake_case keys, the timeout as a Go duration. */
export type PolicyFileShape = { [F in Extract<FieldRow, { group: 'policy' }> as F['name']]: string } & {
  approvals: { [F in ApprovalsRow as F['name']]: FileValue<ApprovalPolicy[F['prop']]> };
};

/** The human-decision kinds, in order: each has its mode field under `approvals`. */
export const HUMAN_DECISION_KINDS: readonly HumanDecisionKind[] = freeze(POLICY_FIELDS.flatMap((f) => (f.kind === undefined ? [] : [f.kind])));

const BY_KEY: ReadonlyMap<PolicyFileKey, PolicyField> = new Map(POLICY_FIELDS.map((f) => [f.key, f]));

/** The field of a file key. */
export function policyField(key: PolicyFileKey): PolicyField {
  return BY_KEY.get(key) as PolicyField;
}

/** The fields of one group, in order: `policy` (the top) or `approvals`. */
export function policyFieldsIn<G extends PolicyField['group']>(group: G): readonly Extract<PolicyField, { group: G }>[] {
  return POLICY_FIELDS.filter((f): f is Extract<PolicyField, { group: G }> => f.group === group);
}

/** The field a name stands for: its file key (`approvals.plan_review` or `plan_review`), its SDK name, or its kind. */
export function findPolicyField(name: string): PolicyField | undefined {
  return POLICY_FIELDS.find((f) => f.key === name || f.name === name || f.sdk === name || f.kind === name);
}

/** The value of a field in a `Policy` (an absent `approvals` reads as empty). */
export function policyFieldValue(policy: Policy, field: PolicyField): Policy[TopPolicyField['prop']] | ApprovalPolicy[ApprovalsField['prop']] | undefined {
  if (field.group === 'policy') return policy[field.prop];
  const approvals: Partial<ApprovalPolicy> = policy.approvals ?? {};
  return approvals[field.prop];
}

/** Sets a field of a `Policy` to its zero value (inherit or default). */
export function clearPolicyField(policy: Policy, field: PolicyField): void {
  if (field.group === 'policy') policy[field.prop] = '';
  else if (field.prop === 'timeout') policy.approvals.timeout = 0n;
  else if (field.prop === 'maxRetries') policy.approvals.maxRetries = 0;
  else policy.approvals[field.prop] = '';
}

/** Where a field is written in a file's IR, when it is. */
export function policyFieldIR(ir: PolicyIR, field: PolicyField): Located<string> | Located<number> | undefined {
  return field.group === 'policy' ? ir[field.prop] : ir.approvals?.[field.prop];
}

/** The SDK's field name for each file key. */
export const POLICY_FIELD_NAMES: Readonly<Record<PolicyFileKey, string>> = freeze(
  Object.fromEntries(POLICY_FIELDS.map((f) => [f.key, f.sdk])) as Record<PolicyFileKey, string>,
);

/** The accepted non-empty values of each string field of a fixed set, case-sensitive. */
export const POLICY_DOMAINS: Readonly<Record<PolicyEnumKey, readonly string[]>> = freeze(
  Object.fromEntries(POLICY_FIELDS.filter((f) => f.domain !== undefined).map((f) => [f.key, f.domain])) as Record<PolicyEnumKey, readonly string[]>,
);

/** The order in which validation checks the domains (B5.1); `max_retries` comes last. */
export const POLICY_DOMAIN_ORDER: readonly PolicyEnumKey[] = freeze(
  POLICY_FIELDS.filter((f) => f.domain !== undefined).map((f) => f.key as PolicyEnumKey),
);

/** True when `value` is the zero value or in the domain of `key`. */
export function isInPolicyDomain(key: PolicyEnumKey, value: unknown): boolean {
  return typeof value === 'string' && (value === '' || POLICY_DOMAINS[key].includes(value));
}
