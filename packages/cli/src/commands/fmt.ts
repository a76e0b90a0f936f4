import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import {
  carriesVerdictSchema,
  conversionLosses,
  findFiles,
  formatPolicySource,
  hasPolicyName,
  POLICY_EXTENSIONS,
  printVerdict,
  printYaml,
  readSourceFile,
} from '@verdict/compiler';
import { type Diagnostic, printable } from '@verdict/engine';
import { type Command, type CommandIo, parse, STDIN_ARG, UsageError, write } from '../args.ts';
import { compileInput, type PolicyInput, readPolicyInput, stdinFilenameOption, stdinName } from '../load.ts';
import { replaceFile } from '../output.ts';
import { renderDiagnostics } from '../render.ts';

const USAGE = `usage: verdict fmt FILE|- [--to verdict|yaml] [--write] [--check] [--force] [--stdin-filename NAME]
       verdict fmt (FILE | FOLDER | GLOB)… (--check | --write) [--ignore-pattern P]…

Prints FILE in the canonical layout of its own syntax, or converts it: \`--to yaml\` turns a .verdict
file into YAML, \`--to verdict\` turns a YAML or JSON policy into the DSL. \`-\` reads the policy from
standard input and prints the result (\`--write\` needs a file).

Formatting never loses anything: a YAML file is laid out again through its own document (comments,
anchors, tags, key order and keys that are not the policy's stay as they are; rules and inline tests
go on one line each where they hold no comment), a JSON file only has its white space changed, and a
.verdict file keeps its comments. A layout that would change or drop anything is refused. A
conversion carries only the policy: one that would drop comments or other keys is refused unless
--force.

Several files, folders or globs (\`'policies/**/*.yaml'\`, quoted) are formatted with --check or
--write. Folders are walked as \`verdict lint\` walks them (.gitignore files honoured; no dot
folders, node_modules, dist or coverage) for the files that are policies by name (*.verdict,
*.policy.yaml|yml|json, verdict.yaml|yml|json) or by a Verdict \`$schema\`; a glob takes every
.yaml, .yml, .json and .verdict file it matches, and fails the run when it matches none.

options:
  --to SYNTAX          verdict or yaml (default: the file's own syntax); one FILE only
  --write              rewrite each file whose layout changes, in place (through a temporary file and
                       a rename: never left half written); only without --to
  --check              list the files whose layout would change, one a line, and exit 1 if there is
                       one (as \`prettier --check\`); change nothing
  --force              convert even when the conversion drops comments or keys that are not the policy's
  --ignore-pattern P   leave out the files and folders P names (a .gitignore line relative to the
                       working directory); repeatable
  --stdin-filename NAME
                       the name standard input goes by in messages; its extension picks the syntax
                       (default \`<stdin>\`: YAML, or JSON by content)
  -h, --help           show this help

exit: 0, 1 (with --check, a file is not formatted), 2 when a file cannot load or cannot be laid out
without loss, or a path or glob names no policy file`;

const BOM = '\ufeff';

export const fmtCommand: Command = {
  name: 'fmt',
  summary: 'format policy files or convert between YAML and the DSL',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      to: { type: 'string' },
      write: { type: 'boolean', short: 'w' },
      check: { type: 'boolean' },
      force: { type: 'boolean' },
      'ignore-pattern': { type: 'string', multiple: true },
      ...stdinFilenameOption,
    });
    if (values.help) return write(io.stdout, USAGE), 0;
    if (positionals.length === 0) throw new UsageError('missing FILE');
    if (values.to !== undefined && values.to !== 'yaml' && values.to !== 'verdict') {
      throw new UsageError(`unknown syntax \`${values.to}\` (want verdict or yaml)`);
    }
    if (values.write && values.to) throw new UsageError('`--write` cannot be combined with `--to`');
    const name = stdinName(positionals, values['stdin-filename']);
    const [first] = positionals;
    if (positionals.includes(STDIN_ARG)) {
      if (positionals.length > 1) throw new UsageError('`-` formats standard input alone: name no other file with it');
      if (values.write) throw new UsageError('`--write` needs a file: standard input (`-`) has nowhere to be written back', 'leave out `--write` to print the formatted policy');
      const input = await readPolicyInput(STDIN_ARG, io, name);
      return input ? formatOne(input, values, io) : 2;
    }
    if (positionals.length === 1 && first !== undefined && isFile(resolve(io.cwd, first)) && values['ignore-pattern'] === undefined) {
      return formatOne({ file: first }, values, io);
    }
    if (values.to !== undefined) throw new UsageError('`--to` converts one FILE: name a single file');
    if (!values.write && !values.check) {
      throw new UsageError('formatting several files needs `--check` or `--write`', 'one FILE alone is printed to standard output');
    }
    const found = findFiles(positionals, {
      cwd: io.cwd,
      extensions: POLICY_EXTENSIONS,
      ...(values['ignore-pattern'] !== undefined ? { ignorePatterns: values['ignore-pattern'] } : {}),
    });
    const skipped = [...found.skipped];
    const files = found.files.filter((f) => {
      // Named and glob-matched files are taken as they are; in a folder, only what says it is a policy.
      if (f.named || f.byGlob || hasPolicyName(basename(f.abs))) return true;
      const read = readSourceFile(f.display, f.path);
      if (read.text !== undefined && carriesVerdictSchema(read.text)) return true;
      skipped.push({ display: f.display, reason: 'not a policy by name (`*.verdict`, `*.policy.yaml`, `verdict.yaml`) or by a Verdict `$schema`' });
      return false;
    });
    if (io.debug === true) for (const s of skipped) write(io.stderr, `verdict fmt: skipped \`${s.display}\`: ${s.reason}`);
    const problems: Diagnostic[] = [...found.diagnostics];
    if (files.length === 0 && problems.length === 0) {
      problems.push({
        code: 'files/no-policies',
        severity: 'error',
        message: `no policy files found in ${positionals.map((p) => `\`${printable(p)}\``).join(', ')}`,
        help: 'name the files, or give them a policy name (`*.verdict`, `*.policy.yaml`, `verdict.yaml`); `--debug` lists what was skipped',
      });
    }
    io.stderr.write(renderDiagnostics(problems));
    let failed = problems.length > 0;
    let changed = 0;
    for (const f of files) {
      const out = layout({ file: f.display }, io);
      if (out === undefined) {
        failed = true;
        continue;
      }
      if (out.text === out.original) continue;
      changed++;
      if (values.check) write(io.stdout, f.display);
      else replaceFile(f.display, out.text);
    }
    return failed ? 2 : values.check && changed > 0 ? 1 : 0;
  },
};

function isFile(path: string): boolean {
  try {
    return !statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `file` in its canonical layout, with its own line endings and byte order mark, beside its text as
 * it is; `undefined` when it cannot load or cannot be laid out without loss (diagnostics printed).
 */
function layout(input: PolicyInput, io: CommandIo, result = compileInput(input, { stopAfter: 'parse', project: null })): { text: string; original: string } | undefined {
  const file = input.file;
  io.stderr.write(renderDiagnostics(result.diagnostics, file));
  if (!result.ir || result.text === undefined || result.syntax === undefined || result.diagnostics.some((d) => d.severity === 'error')) return undefined;
  const formatted = formatPolicySource(result.text, file, result.syntax);
  io.stderr.write(renderDiagnostics(formatted.diagnostics, file));
  if (formatted.text === undefined) return undefined;
  // The file's own line endings and byte order mark are kept: they are not the layout's to change.
  const original = input.source ?? readFileSync(file, 'utf8');
  return { text: withFileConventions(formatted.text, original), original };
}

/** One FILE (or standard input): printed (or converted) to standard output, checked, or rewritten. */
function formatOne(input: PolicyInput, values: { to?: string; write?: boolean; check?: boolean; force?: boolean }, io: CommandIo): number {
  const file = input.file;
  const result = compileInput(input, { stopAfter: 'parse', project: null });
  const converting = result.syntax !== undefined && values.to !== undefined && (values.to !== (result.syntax === 'verdict' ? 'verdict' : 'yaml') || result.syntax === 'json');
  if (!converting) {
    const out = layout(input, io, result);
    if (out === undefined) return 2;
    if (values.check) {
      if (out.text === out.original) return 0;
      // A file is named, as in a list of several; standard input has no name worth listing.
      if (input.source === undefined) write(io.stdout, file);
      return 1;
    }
    if (values.write) {
      if (out.text !== out.original) replaceFile(file, out.text);
      return 0;
    }
    io.stdout.write(out.text.startsWith(BOM) ? out.text.slice(1) : out.text);
    return 0;
  }
  io.stderr.write(renderDiagnostics(result.diagnostics, file));
  if (!result.ir || result.text === undefined || result.syntax === undefined || result.diagnostics.some((d) => d.severity === 'error')) return 2;
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
  const approver = result.ir.approver;
  const noForm = values.to === 'verdict' && approver !== undefined ? (['shell', 'wrappers', 'protections'] as const).filter((k) => approver[k] !== undefined) : [];
  if (noForm.length > 0) {
    io.stderr.write(
      renderDiagnostics(
        [
          {
            code: 'fmt/no-dsl-form',
            severity: 'error',
            message: `the DSL has no form for ${noForm.map((k) => `\`${k}:\``).join(' and ')} yet`,
            help: 'keep this policy in YAML or JSON; command rules, `unknown`, `environment` and `shells` do convert',
            ...(approver?.[`${noForm[0]!}Span`] ? { span: approver[`${noForm[0]!}Span`]! } : {}),
          },
        ],
        file,
      ),
    );
    return 2;
  }
  if (values.check) return 1;
  io.stdout.write(values.to === 'verdict' ? printVerdict(result.ir) : printYaml(result.ir));
  return 0;
}

function withFileConventions(text: string, original: string): string {
  let out = text;
  if (/\r\n/.test(original) && !/(^|[^\r])\n/.test(original)) out = out.replace(/\n/g, '\r\n');
  if (original.startsWith(BOM)) out = BOM + out;
  return out;
}
