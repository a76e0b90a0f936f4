import { readFileSync } from 'node:fs';
import { compileFile, conversionLosses, formatPolicySource, printVerdict, printYaml } from '@verdict/compiler';
import { type Command, parse, UsageError, write } from '../args.ts';
import { replaceFile } from '../output.ts';
import { renderDiagnostics } from '../render.ts';

const USAGE = `usage: verdict fmt FILE [--to verdict|yaml] [--write] [--check] [--force]

Prints FILE in the canonical layout of its own syntax, or converts it: \`--to yaml\` turns a .verdict
file into YAML, \`--to verdict\` turns a YAML or JSON policy into the DSL.

Formatting never loses anything: a YAML file is laid out again through its own document (comments,
anchors, tags, key order and keys that are not the policy's stay as they are; rules and inline tests
go on one line each where they hold no comment), a JSON file only has its white space changed, and a
.verdict file keeps its comments. A layout that would change or drop anything is refused. A
conversion carries only the policy: one that would drop comments or other keys is refused unless
--force.

options:
  --to SYNTAX   verdict or yaml (default: the file's own syntax)
  --write       rewrite FILE in place when its layout changes (only without --to)
  --check       print nothing; exit 1 when FILE is not in canonical layout (as \`prettier --check\`)
  --force       convert even when the conversion drops comments or keys that are not the policy's
  -h, --help    show this help

exit: 0, 1 (with --check, not formatted), 2 when the file cannot load or cannot be laid out without loss`;

const BOM = '\ufeff';

export const fmtCommand: Command = {
  name: 'fmt',
  summary: 'format a policy file or convert between YAML and the DSL',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      to: { type: 'string' },
      write: { type: 'boolean', short: 'w' },
      check: { type: 'boolean' },
      force: { type: 'boolean' },
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
    if (!result.ir || result.text === undefined || result.syntax === undefined || result.diagnostics.some((d) => d.severity === 'error')) return 2;
    const own = result.syntax === 'verdict' ? 'verdict' : 'yaml';
    const converting = values.to !== undefined && (values.to !== own || result.syntax === 'json');

    let text: string;
    if (converting) {
      const lost = conversionLosses(result.text, file, result.syntax);
      if (lost.length > 0 && values.force !== true) {
        io.stderr.write(
          renderDiagnostics(
            [
              {
                code: 'fmt/lossy-conversion',
                severity: 'error',
                message: `converting to ${values.to} would drop ${lost.join(' and ')}`,
                help: 'the other syntax carries only the policy: convert anyway with `--force`, or keep the file as it is',
              },
            ],
            file,
          ),
        );
        return 2;
      }
      text = values.to === 'verdict' ? printVerdict(result.ir) : printYaml(result.ir);
    } else {
      const formatted = formatPolicySource(result.text, file, result.syntax);
      io.stderr.write(renderDiagnostics(formatted.diagnostics, file));
      if (formatted.text === undefined) return 2;
      // The file's own line endings and byte order mark are kept: they are not the layout's to change.
      const original = readFileSync(file, 'utf8');
      text = withFileConventions(formatted.text, original);
      if (values.check) return original === text ? 0 : 1;
      if (values.write) {
        if (original !== text) replaceFile(file, text);
        return 0;
      }
      if (text.startsWith(BOM)) text = text.slice(1);
    }
    if (values.check) return 1;
    io.stdout.write(text);
    return 0;
  },
};

function withFileConventions(text: string, original: string): string {
  let out = text;
  if (/\r\n/.test(original) && !/(^|[^\r])\n/.test(original)) out = out.replace(/\n/g, '\r\n');
  if (original.startsWith(BOM)) out = BOM + out;
  return out;
}
