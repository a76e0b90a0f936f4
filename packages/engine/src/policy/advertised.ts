/**
 * What a driver descriptor advertises for each human-decision kind, read in one place: the modes
 * (`ask`, `auto_approve`, `auto_reject`) and whether it can retry. The validator (B5.3), the broker's
 * retry and the lint rules about modes all read a descriptor's modes through these. A descriptor is
 * data a host may hand in malformed: anything but an explicit `true` is not advertised (fail closed).
 */
import type { DriverDescriptor, HumanDecisionKind } from './types.ts';

/** The part of `descriptor` for `kind` as name → flag, or nothing when it is missing or not an object. */
function capsOf(descriptor: DriverDescriptor | undefined, kind: HumanDecisionKind): Readonly<Record<string, unknown>> {
  try {
    const caps: unknown = (descriptor as { run_policy_caps?: Partial<Record<HumanDecisionKind, unknown>> } | undefined)?.run_policy_caps?.[kind];
    return typeof caps === 'object' && caps !== null ? (caps as Readonly<Record<string, unknown>>) : {};
  } catch {
    return {};
  }
}

/** The modes `descriptor` advertises for `kind`, in its order (`retry` is no mode). */
export function advertisedModes(descriptor: DriverDescriptor | undefined, kind: HumanDecisionKind): readonly string[] {
  const caps = capsOf(descriptor, kind);
  return Object.keys(caps).filter((m) => m !== 'retry' && caps[m] === true);
}

/** Whether `descriptor` can retry a decision of `kind`. */
export function retryAdvertised(descriptor: DriverDescriptor | undefined, kind: HumanDecisionKind): boolean {
  return capsOf(descriptor, kind)['retry'] === true;
}
