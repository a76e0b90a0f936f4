/**
 * `verdict check`'s logic: a file's run Policy validated against one driver or every built-in one,
 * exactly as the agent-adaptor SDK validates it (semantics.md B5). The command parses its
 * arguments and prints what this returns.
 */
import {
  BUILTIN_DRIVER_NAMES,
  getBuiltinDescriptor,
  materialize,
  POLICY_DOMAIN_ORDER,
  POLICY_FIELD_NAMES,
  sortDiagnostics,
  validatePolicy,
} from '@verdict/engine';
import type { Diagnostic, DriverDescriptor, Policy, PolicyFileKey } from '@verdict/engine';
import { compileFile, compileSource } from './pipeline.ts';

/** Compiler codes that describe a policy the SDK would reject rather than a file that cannot be read. */
const VALIDATION_CODES = new Set(['policy/invalid-value']);

/** One driver's verdict on the policy: the SDK's error as its JSON form when invalid. */
export interface DriverCheck {
  driver: string;
  valid: boolean;
  error: { code: string; message: string; [field: string]: unknown } | null;
}

export type PolicyCheck =
  /** The file cannot be loaded (or its policy cannot be read): every diagnostic, nothing validated. */
  | { status: 'unloadable'; diagnostics: Diagnostic[] }
  /** The file holds no run policy: nothing to validate. */
  | { status: 'no-policy'; diagnostics: Diagnostic[] }
  /** No `--driver` and no `driver:` in the file. */
  | { status: 'no-driver'; diagnostics: Diagnostic[] }
  | {
      status: 'checked';
      /** Warnings, and of the out-of-domain values only the one the SDK reports first. */
      diagnostics: Diagnostic[];
      /** The materialised policy. */
      effective: Policy;
      drivers: DriverCheck[];
      /** Checked against every built-in driver. */
      all: boolean;
      /** The descriptor file used, when the driver was named by a file (it may reuse a built-in's name). */
      descriptorFile?: string;
    };

export interface CheckOptions {
  /** A built-in driver, a descriptor file, or `all`; default: the file's `driver:`. */
  driver?: string;
  /** The policy's text (read from standard input), when `file` only names it. */
  source?: string;
}

export function checkPolicyFile(file: string, options: CheckOptions = {}): PolicyCheck {
  const all = options.driver === 'all';
  const compileOptions = { stopAfter: 'resolve' as const, ...(options.driver && !all ? { driver: options.driver } : {}) };
  const result = options.source !== undefined ? compileSource(options.source, file, compileOptions) : compileFile(file, compileOptions);
  const fatal = result.diagnostics.filter((d) => d.severity === 'error' && !VALIDATION_CODES.has(d.code));
  if (fatal.length > 0 || !result.ir) return { status: 'unloadable', diagnostics: result.diagnostics };
  // The SDK stops at its first failure (B5): of the out-of-domain values, only the one it reports
  // is shown, located and with its `did you mean`; warnings and the rest are kept.
  const reported = firstInvalidValue(result.diagnostics);
  const diagnostics = sortDiagnostics(result.diagnostics.filter((d) => !VALIDATION_CODES.has(d.code) || d === reported));
  const policy = result.policy;
  if (!policy) return { status: 'no-policy', diagnostics };
  let drivers: DriverCheck[];
  if (all) {
    drivers = BUILTIN_DRIVER_NAMES.map((name) => check(policy, name, getBuiltinDescriptor(name) as DriverDescriptor));
  } else {
    const descriptor = result.descriptor;
    if (!descriptor) return { status: 'no-driver', diagnostics };
    drivers = [check(policy, result.driverName ?? descriptor.type, descriptor)];
  }
  const ref = all ? undefined : (options.driver ?? result.ir.driver?.ref);
  const descriptorFile = ref !== undefined && getBuiltinDescriptor(ref) === undefined ? ref : undefined;
  return { status: 'checked', diagnostics, effective: materialize(policy), drivers, all, ...(descriptorFile === undefined ? {} : { descriptorFile }) };
}

function errorJson(err: Error & { code?: string }): DriverCheck['error'] {
  const json = (err as { toJSON?: () => unknown }).toJSON?.();
  if (json && typeof json === 'object') return json as DriverCheck['error'];
  return { code: err.code ?? 'error', message: err.message };
}

function check(policy: Policy, driver: string, descriptor: DriverDescriptor): DriverCheck {
  const err = validatePolicy(policy, descriptor);
  return { driver, valid: err === null, error: err ? errorJson(err) : null };
}

/** The SDK's field name a `policy/invalid-value` diagnostic is about (from its path). */
function fieldOf(d: Diagnostic): string | undefined {
  const key = d.path?.slice(1).join('.');
  return key !== undefined && Object.hasOwn(POLICY_FIELD_NAMES, key) ? POLICY_FIELD_NAMES[key as PolicyFileKey] : undefined;
}

/** The out-of-domain value the SDK reports first: domains in its order, `max_retries` last (B5.1). */
function firstInvalidValue(diagnostics: readonly Diagnostic[]): Diagnostic | undefined {
  const order = [...POLICY_DOMAIN_ORDER, 'approvals.max_retries' as const].map((k) => POLICY_FIELD_NAMES[k]);
  let best: Diagnostic | undefined;
  let bestRank = Infinity;
  for (const d of diagnostics) {
    if (!VALIDATION_CODES.has(d.code)) continue;
    const field = fieldOf(d);
    const rank = field === undefined ? order.length : order.indexOf(field);
    if (best === undefined || rank < bestRank) {
      best = d;
      bestRank = rank;
    }
  }
  return best;
}
