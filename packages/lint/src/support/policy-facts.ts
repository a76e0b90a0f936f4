/** The run Policy as the linter reads it: lowered by the compiler, validated by the engine. */
import { lowerPolicy } from '@verdict/compiler';
import {
  HumanDecisionModeUnsupportedError,
  InvalidPolicyError,
  POLICY_FIELD_NAMES,
  PolicyCapabilityUnsupportedError,
  validatePolicy,
} from '@verdict/engine';
import type { DriverDescriptor, Located, Policy, PolicyIR } from '@verdict/engine';
import type { RuleContext } from '../types.ts';

export function policyOf(ctx: RuleContext): Policy | undefined {
  if (ctx.ir.policy === undefined) return undefined;
  return ctx.policy ?? lowerPolicy(ctx.ir.policy);
}

type Key = 'sandbox' | 'web_search' | 'browser' | 'permission' | 'plan_review' | 'question' | 'on_timeout' | 'on_reject' | 'max_retries';

/** Where a policy field is written (by its file key or the SDK's dimension/kind name). */
export function fieldNode(ir: PolicyIR, key: Key | string): Located<unknown> | undefined {
  const a = ir.approvals;
  switch (key) {
    case 'sandbox':
      return ir.sandbox;
    case 'web_search':
      return ir.webSearch;
    case 'browser':
      return ir.browser;
    case 'permission':
      return a?.permission;
    case 'plan_review':
      return a?.planReview;
    case 'question':
      return a?.question;
    case 'on_timeout':
      return a?.onTimeout;
    case 'on_reject':
      return a?.onReject;
    case 'max_retries':
      return a?.maxRetries;
    default:
      return undefined;
  }
}

export type ValidationFinding = PolicyCapabilityUnsupportedError | HumanDecisionModeUnsupportedError;

/**
 * Every capability and mode error of B5.2/B5.3, not only the first: after each error the
 * offending field is reset to inherit and validation runs again. Domain errors (B5.1) are the
 * compiler's to report; their fields are reset the same way so later checks still run.
 */
export function capabilityErrors(policy: Policy, descriptor: DriverDescriptor): ValidationFinding[] {
  const p: Policy = { ...policy, approvals: { ...policy.approvals } };
  const out: ValidationFinding[] = [];
  for (let guard = 0; guard < 16; guard++) {
    const err = validatePolicy(p, descriptor);
    if (err === null) break;
    if (err instanceof InvalidPolicyError) {
      if (!resetByFieldName(p, err.field)) break;
    } else if (err instanceof PolicyCapabilityUnsupportedError) {
      out.push(err);
      if (err.dimension === 'sandbox') p.sandbox = '';
      else if (err.dimension === 'web_search') p.webSearch = '';
      else p.browser = '';
    } else if (err instanceof HumanDecisionModeUnsupportedError) {
      out.push(err);
      if (err.kind === 'permission') p.approvals.permission = '';
      else if (err.kind === 'plan_review') p.approvals.planReview = '';
      else p.approvals.question = '';
    } else break;
  }
  return out;
}

function resetByFieldName(p: Policy, field: string): boolean {
  const a = p.approvals;
  switch (field) {
    case POLICY_FIELD_NAMES.sandbox:
      p.sandbox = '';
      return true;
    case POLICY_FIELD_NAMES.web_search:
      p.webSearch = '';
      return true;
    case POLICY_FIELD_NAMES.browser:
      p.browser = '';
      return true;
    case POLICY_FIELD_NAMES['approvals.permission']:
      a.permission = '';
      return true;
    case POLICY_FIELD_NAMES['approvals.plan_review']:
      a.planReview = '';
      return true;
    case POLICY_FIELD_NAMES['approvals.question']:
      a.question = '';
      return true;
    case POLICY_FIELD_NAMES['approvals.on_timeout']:
      a.onTimeout = '';
      return true;
    case POLICY_FIELD_NAMES['approvals.on_reject']:
      a.onReject = '';
      return true;
    case POLICY_FIELD_NAMES['approvals.max_retries']:
      a.maxRetries = 0;
      return true;
    default:
      return false;
  }
}

/** `permission` modes a driver advertises, for messages: `ask, auto_approve`. */
export function advertisedModes(descriptor: DriverDescriptor, kind: 'permission' | 'plan_review' | 'question'): string {
  const caps = descriptor.run_policy_caps[kind] as unknown as Record<string, unknown>;
  const modes = Object.keys(caps).filter((k) => k !== 'retry' && caps[k] === true);
  return modes.length === 0 ? 'none' : modes.map((m) => `\`${m}\``).join(', ');
}

export function allAutoReject(p: Policy): boolean {
  return p.approvals.permission === 'auto_reject' && p.approvals.planReview === 'auto_reject' && p.approvals.question === 'auto_reject';
}

/** Kinds whose `auto_reject` the driver does not advertise. */
export function kindsWithoutAutoReject(descriptor: DriverDescriptor): string[] {
  return (['permission', 'plan_review', 'question'] as const).filter(
    (k) => (descriptor.run_policy_caps[k] as unknown as Record<string, unknown>).auto_reject !== true,
  );
}
