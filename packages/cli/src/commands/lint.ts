import { hookAgentChoices, hookAgentOf } from '@verdict/engine';
import { exitCodeFor, type FormatterName, formatters, type LintMessage, lintFiles } from '@verdict/lint';
import { type Command, parse, STDIN_ARG, UsageError, write } from '../args.ts';
import { readSourceStream } from '@verdict/compiler';
import { colorFlag, colorOptions, useColor } from '../color.ts';
import { stdinFilenameOption, stdinName } from '../load.ts';
import { describeWriteError, replaceFile, writeReportFile } from '../output.ts';
import { renderDiagnostics } from '../render.ts';
import { VERSION } from '../version.ts';

const FORMATS = Object.keys(formatters) as FormatterName[];

const USAGE = `usage: verdict lint [paths… | globs… | -] [--stdin-filename NAME] [-f FORMAT] [-o FILE] [--max-warnings N] [--driver NAME|FILE] [--hook-agent A] [--config FILE] [--no-config-lookup] [--ignore-pattern P]… [--fix | --fix-dry-run] [--quiet] [--color|--no-color] [--debug]

Lints policy files (YAML, JSON and .verdict). In a folder, a file is a policy when its name says so
(*.verdict, *.policy.yaml|yml|json, verdict.yaml|yml|json), when the configuration's \`include\`
names it, or when it names a Verdict schema (\`# yaml-language-server: $schema=…\` or a \`$schema\`
key); other files are skipped (--debug says why). A file named as an argument is always linted, and
so is every .yaml, .yml, .json or .verdict file a glob matches (\`verdict lint 'policies/**/*.yaml'\`:
quote it so the shell leaves it to Verdict); a glob that matches nothing fails the run (exit 2).
Folders and globs honour .gitignore files as git does (nested ones too) and never enter dot
folders, node_modules, dist or coverage, except to find the agents' own permission files by their
names: .claude/settings.json, .claude/settings.local.json, .codex/rules/*.rules,
.codex/requirements.toml, .gemini/policies/*.toml, .gemini/settings.json, .cursor/cli.json (the
native/* rules; docs/native/).
\`-\` lints the policy on standard input, as the file \`--stdin-filename\` names (default \`<stdin>\`).
Checks:
invalid values, regexes that cannot compile or never match, rules a model can walk around,
Policies the chosen driver cannot honour. Rule docs: packages/lint/docs/rules/.

options:
  -f, --format F       ${FORMATS.join(' | ')} (default stylish)
  -o, --output FILE    write the report to FILE instead of standard output (folders are made)
  --max-warnings N     fail (exit 1) when there are more than N warnings (-1: no limit)
  --driver D           check run Policies against this driver (a built-in name or a descriptor file)
  --hook-agent A       the agent whose hook runs the policies (${hookAgentChoices(', ')}): turns on
                       the hook/* rules; a \`# verdict-hook-agent: A\` comment in a file wins
  -c, --config FILE    the configuration for every file (its globs relative to the working directory);
                       default: the nearest verdict.config.yaml from each file's folder up to the
                       repository root (a folder with .git), its globs relative to its own folder
  --no-config-lookup   use no configuration file unless --config names one
  --ignore-pattern P   leave out the files and folders P names, a .gitignore line relative to the
                       working directory (\`generated/\`, \`**/*.tmp.yaml\`, \`!keep.yaml\`); repeatable;
                       applies to files named as arguments too
  --fix                apply the fixes of the findings that have one safe rewrite (their rule pages
                       say which), lint again, up to 10 passes, and report what is left; only the
                       fixed patterns change, and a result that would lose anything is refused
  --fix-dry-run        the same without writing; \`-f json\` shows each fixed file as \`output\`
                       (and, with or without fixing, each fixable finding as \`fix: {range, text}\`,
                       UTF-16 offsets into the file after any byte order mark)
  --quiet              report errors only
  --stdin-filename NAME
                       the path standard input (\`-\`) is linted as: shown in the report, its
                       extension picks the syntax, the configuration is looked up from its folder
  --color, --no-color  colour the stylish report, or not (default: colour when standard output is a
                       terminal; NO_COLOR turns it off, FORCE_COLOR on; a report written with -o
                       is coloured only with --color)
  --debug              list the files that folders held and were not linted, and why
  -h, --help           show this help

exit: 0 clean, 1 errors (or warnings above --max-warnings), 2 usage error or a run that failed`;

export const lintCommand: Command = {
  name: 'lint',
  summary: 'lint policy files and folders for CI',
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      format: { type: 'string', short: 'f' },
      output: { type: 'string', short: 'o' },
      'max-warnings': { type: 'string' },
      driver: { type: 'string' },
      'hook-agent': { type: 'string' },
      config: { type: 'string', short: 'c' },
      'no-config-lookup': { type: 'boolean' },
      'ignore-pattern': { type: 'string', multiple: true },
      quiet: { type: 'boolean', short: 'q' },
      debug: { type: 'boolean' },
      ...stdinFilenameOption,
      ...colorOptions,
      fix: { type: 'boolean' },
      'fix-dry-run': { type: 'boolean' },
    });
    if (values.help) return write(io.stdout, USAGE), 0;
    if (values.fix === true && values['fix-dry-run'] === true) throw new UsageError('`--fix` and `--fix-dry-run` cannot be combined');
    const format = (values.format ?? 'stylish') as FormatterName;
    if (!Object.hasOwn(formatters, format)) throw new UsageError(`unknown format \`${format}\` (want ${FORMATS.join(', ')})`);
    let maxWarnings: number | undefined;
    if (values['max-warnings'] !== undefined) {
      const raw = values['max-warnings'];
      if (!/^-?\d+$/.test(raw)) throw new UsageError(`\`--max-warnings\` wants a whole number (-1 for no limit), not \`${raw}\``);
      // A negative number is no limit, as in ESLint.
      if (Number(raw) >= 0) maxWarnings = Number(raw);
    }
    const hookAgentFlag = values['hook-agent'];
    const hookAgent = hookAgentOf(hookAgentFlag);
    if (hookAgentFlag !== undefined && hookAgent === undefined) throw new UsageError(`unknown agent \`${hookAgentFlag}\` for \`--hook-agent\` (want ${hookAgentChoices(', ')})`);
    const paths = positionals.length > 0 ? positionals : ['.'];
    const name = stdinName(positionals, values['stdin-filename']);
    if (values.fix === true && paths.includes(STDIN_ARG)) {
      throw new UsageError('`--fix` cannot write back to standard input (`-`)', 'use `--fix-dry-run` with `-f json`: each result carries the fixed text as `output`');
    }
    // Read as a file is, bounded; what cannot be used is reported as the findings of a file are.
    const stdin = paths.includes(STDIN_ARG) ? { name, read: await readSourceStream(name, io.stdin) } : undefined;
    const run = lintFiles(paths, {
      ...(stdin !== undefined ? { stdin } : {}),
      cwd: io.cwd,
      ...(values.driver !== undefined ? { driver: values.driver } : {}),
      ...(hookAgent !== undefined ? { hookAgent } : {}),
      ...(values.config !== undefined ? { configPath: values.config } : {}),
      ...(values['no-config-lookup'] === true ? { noConfigLookup: true } : {}),
      ...(values['ignore-pattern'] !== undefined ? { ignorePatterns: values['ignore-pattern'] } : {}),
      // As ESLint: under --quiet only the errors' fixes are applied.
      ...(values.fix === true || values['fix-dry-run'] === true ? { fix: values.quiet === true ? (m: LintMessage) => m.severity === 'error' : true } : {}),
    });
    for (const r of run.results) io.stderr.write(renderDiagnostics(r.fixDiagnostics ?? [], r.file));
    if (values.fix === true) {
      for (const r of run.results) {
        if (r.output === undefined || r.filePath === undefined) continue;
        try {
          replaceFile(r.filePath, r.output);
        } catch (err) {
          return write(io.stderr, `verdict lint: cannot write the fixes to \`${r.file}\`: ${describeWriteError(err)}`), 2;
        }
      }
    }
    if (values.debug === true || io.debug === true) for (const s of run.skipped ?? []) write(io.stderr, `verdict lint: skipped \`${s.file}\`: ${s.reason}`);
    io.stderr.write(renderDiagnostics(run.diagnostics));
    const results = values.quiet
      ? run.results.map((r) => {
          const messages = r.messages.filter((m) => m.severity === 'error');
          return { ...r, messages, warningCount: 0, infoCount: 0 };
        })
      : run.results;
    const report = formatters[format](results, { color: values.output === undefined ? useColor(colorFlag(argv), io) : colorFlag(argv) === true, cwd: run.cwd, rules: run.rules, toolVersion: VERSION });
    if (values.output !== undefined) {
      const failed = writeReportFile(values.output, report);
      if (failed !== undefined) return write(io.stderr, `verdict lint: ${failed}`), 2;
    } else {
      io.stdout.write(report);
    }
    const code = exitCodeFor(run, maxWarnings === undefined ? {} : { maxWarnings });
    // Say why a run with no error failed (the warnings may not even be shown, under --quiet).
    if (code === 1 && maxWarnings !== undefined && run.errorCount === 0 && run.warningCount > maxWarnings) {
      write(io.stderr, `verdict found too many warnings (maximum: ${maxWarnings})`);
    }
    return code;
  },
};
