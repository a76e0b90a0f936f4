/** The run Policy as the linter reads it: lowered by the compiler, validated by the engine. */
import { lowerPolicy } from '@verdict/compiler';
import {
  advertisedModes,
  clearPolicyField,
  findPolicyField,
  HUMAN_DECISION_KINDS,
  HumanDecisionModeUnsupportedError,
  InvalidPolicyError,
  PolicyCapabilityUnsupportedError,
  policyFieldIR,
  validatePolicy,
} from '@verdict/engine';
import type { DriverDescriptor, HumanDecisionKind, Located, Policy, PolicyIR } from '@verdict/engine';
import type { RuleContext } from '../types.ts';

export function policyOf(ctx: RuleContext): Policy | undefined {
  if (ctx.ir.policy === undefined) return undefined;
  return ctx.policy ?? lowerPolicy(ctx.ir.policy);
}

/**
 * Where a policy field is written, by its file key (`plan_review`, `approvals.plan_review`), the
 * SDK's name, or the capability dimension or decision kind an error names.
 */
export function fieldNode(ir: PolicyIR, key: string): Located<unknown> | undefined {
  const field = findPolicyField(key);
  return field === undefined ? undefined : policyFieldIR(ir, field);
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
      const field = findPolicyField(err.field);
      if (field === undefined) break;
      clearPolicyField(p, field);
    } else if (err instanceof PolicyCapabilityUnsupportedError || err instanceof HumanDecisionModeUnsupportedError) {
      out.push(err);
      const field = findPolicyField(err instanceof PolicyCapabilityUnsupportedError ? err.dimension : err.kind);
      if (field === undefined) break;
      clearPolicyField(p, field);
    } else break;
  }
  return out;
}

/** The modes a driver advertises for `kind`, for messages: `` `ask`, `auto_approve` `` (or `none`). */
export function advertisedModesText(descriptor: DriverDescriptor, kind: HumanDecisionKind): string {
  const modes = advertisedModes(descriptor, kind);
  return modes.length === 0 ? 'none' : modes.map((m) => `\`${m}\``).join(', ');
}

export function allAutoReject(p: Policy): boolean {
  return p.approvals.permission === 'auto_reject' && p.approvals.planReview === 'auto_reject' && p.approvals.question === 'auto_reject';
}

/** Kinds whose `auto_reject` the driver does not advertise. */
export function kindsWithoutAutoReject(descriptor: DriverDescriptor): string[] {
  return HUMAN_DECISION_KINDS.filter(
    (k) => !advertisedModes(descriptor, k).includes('auto_reject'),
  );
}
