import {
  BUILTIN_DRIVER_NAMES,
  encodePolicy,
  type Diagnostic,
  type DriverDescriptor,
  formatGoDuration,
  getBuiltinDescriptor,
  materialize,
  type Policy,
  POLICY_DOMAIN_ORDER,
  POLICY_FIELD_NAMES,
  type PolicyFileKey,
  sortDiagnostics,
  validatePolicy,
} from '@verdict/engine';
import { type Command, parse, UsageError, write } from '../args.ts';
import { compileInput, readPolicyInput, stdinFilenameOption, stdinName } from '../load.ts';
import { renderDiagnostics } from '../render.ts';

const USAGE = `usage: verdict check FILE|- [--driver NAME|FILE|all] [--format text|json] [--stdin-filename NAME]

Validates the run Policy of FILE against a driver descriptor exactly as the agent-adaptor SDK does,
and prints the effective (materialised) policy. \`-\` reads the policy from standard input.

options:
  --driver D      a built-in driver (codex, claude, cursor, codebuddy), a descriptor file, or \`all\`
                  to check against every built-in; defaults to the file's \`driver:\`
  --format F      text (default) or json
  --stdin-filename NAME
                  the name standard input goes by in messages; its extension picks the syntax
  -h, --help      show this help

exit: 0 valid (or no policy to validate), 1 invalid, 2 cannot load`;

/** Compiler codes that describe a policy the SDK would reject rather than a file we cannot read. */
const VALIDATION_CODES = new Set(['policy/invalid-value']);

interface Row {
  driver: string;
  valid: boolean;
  error: { code: string; message: string; [field: string]: unknown } | null;
}

function errorJson(err: Error & { code?: string }): Row['error'] {
  const json = (err as { toJSON?: () => unknown }).toJSON?.();
  if (json && typeof json === 'object') return json as Row['error'];
  return { code: err.code ?? 'error', message: err.message };
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

function check(policy: Policy, driver: string, descriptor: DriverDescriptor): Row {
  const err = validatePolicy(policy, descriptor);
  return { driver, valid: err === null, error: err ? errorJson(err) : null };
}


function effectiveText(p: Policy): string {
  const a = p.approvals;
  const inherit = (v: string) => (v === '' ? '(inherit)' : v);
  const timeout = a.timeout < 0n ? `${formatGoDuration(a.timeout)} (no deadline)` : formatGoDuration(a.timeout);
  return [
    'effective policy:',
    `  sandbox:      ${inherit(p.sandbox)}`,
    `  web_search:   ${inherit(p.webSearch)}`,
    `  browser:      ${inherit(p.browser)}`,
    '  approvals:',
    `    permission:  ${a.permission}`,
    `    plan_review: ${a.planReview}`,
    `    question:    ${a.question}`,
    `    timeout:     ${timeout}`,
    `    on_timeout:  ${a.onTimeout}`,
    `    on_reject:   ${a.onReject}`,
    `    max_retries: ${a.maxRetries}`,
    '',
  ].join('\n');
}

export const checkCommand: Command = {
  name: 'check',
  summary: 'validate a run Policy against a driver',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      driver: { type: 'string', short: 'd' },
      format: { type: 'string', short: 'f' },
      ...stdinFilenameOption,
    });
    if (values.help) return write(io.stdout, USAGE), 0;
    const [given, extra] = positionals;
    if (given === undefined) throw new UsageError('missing FILE');
    if (extra !== undefined) throw new UsageError(`unexpected argument \`${extra}\``);
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`unknown format \`${format}\` (want text or json)`);
    const all = values.driver === 'all';
    const input = await readPolicyInput(positionals[0]!, io, stdinName(positionals, values['stdin-filename']));
    if (!input) return 2;
    const file = input.file;

    const result = compileInput(input, {
      stopAfter: 'resolve',
      ...(values.driver && !all ? { driver: values.driver } : {}),
    });
    const fatal = result.diagnostics.filter((d) => d.severity === 'error' && !VALIDATION_CODES.has(d.code));
    if (fatal.length > 0 || !result.ir) {
      io.stderr.write(renderDiagnostics(result.diagnostics, file));
      return 2;
    }
    // The SDK stops at its first failure (B5): of the out-of-domain values, only the one it reports
    // is shown, located and with its `did you mean`; warnings and the rest are kept.
    const reported = firstInvalidValue(result.diagnostics);
    const diagnostics: Diagnostic[] = sortDiagnostics(
      result.diagnostics.filter((d) => !VALIDATION_CODES.has(d.code) || d === reported),
    );
    io.stderr.write(renderDiagnostics(diagnostics, file));

    const policy = result.policy;
    if (!policy) {
      write(
        io.stdout,
        format === 'json'
          ? JSON.stringify({ file, policy: null, validated: false, diagnostics }, null, 2)
          : `${file}: no run policy: not validated`,
      );
      return 0;
    }
    const effective = materialize(policy);

    let rows: Row[];
    if (all) {
      rows = BUILTIN_DRIVER_NAMES.map((name) => check(policy, name, getBuiltinDescriptor(name)!));
    } else {
      const descriptor = result.descriptor;
      if (!descriptor) {
        io.stderr.write(`${file}: error: no driver to check against: pass \`--driver NAME|FILE|all\` or set \`driver:\` in the file [cli/no-driver]\n`);
        return 2;
      }
      rows = [check(policy, result.driverName ?? descriptor.type, descriptor)];
    }
    // A descriptor file may reuse a built-in's name (a newer `claude`): say which one was used.
    const ref = all ? undefined : (values.driver ?? result.ir.driver?.ref);
    const descriptorFile = ref !== undefined && getBuiltinDescriptor(ref) === undefined ? ref : undefined;

    if (format === 'json') {
      const body = all
        ? { file, policy: encodePolicy(effective), valid: rows.every((r) => r.valid), drivers: rows, diagnostics }
        : {
            file,
            policy: encodePolicy(effective),
            ...rows[0],
            ...(descriptorFile === undefined ? {} : { descriptor: descriptorFile }),
            diagnostics,
          };
      write(io.stdout, JSON.stringify(body, null, 2));
    } else {
      let text = effectiveText(effective);
      if (all) {
        const width = rows.reduce((w, r) => Math.max(w, r.driver.length), 6);
        text += `${'driver'.padEnd(width)}  result\n`;
        for (const r of rows) text += `${r.driver.padEnd(width)}  ${r.valid ? 'valid' : r.error?.message}\n`;
      } else {
        const row = rows[0]!;
        const label = descriptorFile === undefined ? row.driver : `${row.driver} (descriptor \`${descriptorFile}\`)`;
        text += row.valid ? `valid for ${label}\n` : `invalid for ${label}: ${row.error?.message}\n`;
      }
      write(io.stdout, text);
    }
    return rows.every((r) => r.valid) ? 0 : 1;
  },
};
