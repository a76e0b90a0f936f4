import { encodePolicy, formatGoDuration, type Policy, policyFieldsIn } from '@verdict/engine';
import { checkPolicyFile } from '@verdict/compiler';
import { type Command, parse, UsageError, write } from '../args.ts';
import { readPolicyInput, stdinFilenameOption, stdinName } from '../load.ts';
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

function effectiveText(p: Policy): string {
  const lines = ['effective policy:'];
  const inherit = (v: string) => (v === '' ? '(inherit)' : v);
  for (const f of policyFieldsIn('policy')) lines.push(`  ${`${f.name}:`.padEnd(14)}${inherit(p[f.prop])}`);
  lines.push('  approvals:');
  for (const f of policyFieldsIn('approvals')) {
    const v = p.approvals[f.prop];
    const text = typeof v === 'bigint' ? (v < 0n ? `${formatGoDuration(v)} (no deadline)` : formatGoDuration(v)) : String(v);
    lines.push(`    ${`${f.name}:`.padEnd(13)}${text}`);
  }
  lines.push('');
  return lines.join('\n');
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
    const input = await readPolicyInput(given, io, stdinName(positionals, values['stdin-filename']));
    if (!input) return 2;
    const file = input.file;
    const checked = checkPolicyFile(file, {
      ...(values.driver === undefined ? {} : { driver: values.driver }),
      ...(input.source === undefined ? {} : { source: input.source }),
    });
    if (checked.status === 'unloadable') {
      io.stderr.write(renderDiagnostics(checked.diagnostics, file));
      return 2;
    }
    const { diagnostics } = checked;
    io.stderr.write(renderDiagnostics(diagnostics, file));
    if (checked.status === 'no-policy') {
      write(
        io.stdout,
        format === 'json'
          ? JSON.stringify({ file, policy: null, validated: false, diagnostics }, null, 2)
          : `${file}: no run policy: not validated`,
      );
      return 0;
    }
    if (checked.status === 'no-driver') {
      io.stderr.write(`${file}: error: no driver to check against: pass \`--driver NAME|FILE|all\` or set \`driver:\` in the file [cli/no-driver]\n`);
      return 2;
    }
    const { effective, drivers: rows, all, descriptorFile } = checked;

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
