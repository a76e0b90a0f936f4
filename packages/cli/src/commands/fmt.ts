import { readFileSync, writeFileSync } from 'node:fs';
import { compileFile, formatVerdictSource, printVerdict, printYaml } from '@verdict/compiler';
import { type Command, parse, UsageError, write } from '../args.ts';
import { renderDiagnostics } from '../render.ts';

const USAGE = `usage: verdict fmt FILE [--to verdict|yaml] [--write] [--check]

Prints FILE in the canonical layout of its syntax, or converts it: \`--to yaml\` turns a .verdict
file into YAML, \`--to verdict\` turns a YAML or JSON policy into the DSL. Conversions are lossless.

options:
  --to SYNTAX   verdict or yaml (default: the file's own syntax; JSON files print as YAML)
  --write       rewrite FILE in place instead of printing (only without --to)
  --check       print nothing; exit 1 when FILE is not in canonical layout
  -h, --help    show this help

exit: 0, 1 (with --check, not formatted), 2 when the file cannot load`;

export const fmtCommand: Command = {
  name: 'fmt',
  summary: 'format a policy file or convert between YAML and the DSL',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      to: { type: 'string' },
      write: { type: 'boolean', short: 'w' },
      check: { type: 'boolean' },
    });
    if (values.help) return write(io.stdout, USAGE), 0;
    const [file, extra] = positionals;
    if (file === undefined) throw new UsageError('missing FILE');
    if (extra !== undefined) throw new UsageError(`unexpected argument \`${extra}\``);
    if (values.to !== undefined && values.to !== 'yaml' && values.to !== 'verdict') {
      throw new UsageError(`unknown syntax \`${values.to}\` (want verdict or yaml)`);
    }
    if (values.write && values.to) throw new UsageError('`--write` cannot be combined with `--to`');
    const result = compileFile(file, { stopAfter: 'parse' });
    io.stderr.write(renderDiagnostics(result.diagnostics, file));
    if (!result.ir || result.diagnostics.some((d) => d.severity === 'error')) return 2;
    const target = values.to ?? (result.syntax === 'verdict' ? 'verdict' : 'yaml');
    let text: string;
    if (target === 'verdict' && result.syntax === 'verdict' && result.text !== undefined) {
      // Formatting a .verdict file keeps its comments; conversions carry only what the IR holds.
      const formatted = formatVerdictSource(result.text, file);
      io.stderr.write(renderDiagnostics(formatted.diagnostics, file));
      if (formatted.text === undefined) return 2;
      text = formatted.text;
    } else {
      text = target === 'verdict' ? printVerdict(result.ir) : printYaml(result.ir);
    }
    if (values.check) return readFileSync(file, 'utf8') === text ? 0 : 1;
    if (values.write) {
      writeFileSync(file, text);
      return 0;
    }
    io.stdout.write(text);
    return 0;
  },
};
