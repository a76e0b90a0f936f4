import { schemas, writeSchemaFiles } from '@verdict/compiler';
import { type Command, parse, UsageError, write } from '../args.ts';
import { compileInput, readPolicyInput, stdinFilenameOption, stdinName } from '../load.ts';
import { describeWriteError } from '../output.ts';
import { renderDiagnostics } from '../render.ts';

const COMPILE_USAGE = `usage: verdict compile FILE|- [--no-spans] [--stdin-filename NAME]

Compiles a policy file (YAML, JSON or .verdict) and prints its intermediate representation as JSON:
the same IR whichever syntax the file is written in. \`-\` reads the policy from standard input.

options:
  --no-spans              leave source positions out (to compare two syntaxes of one policy)
  --stdin-filename NAME   the name standard input goes by in messages; its extension picks the
                          syntax (default \`<stdin>\`: YAML, or JSON by content)
  -h, --help              show this help

exit: 0, or 2 when the file cannot load`;

/** Drops `span`-like keys so two syntaxes of one policy print the same IR. */
function withoutSpans(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSpans);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'span' && !k.endsWith('Span')) out[k] = withoutSpans(v);
    return out;
  }
  return value;
}

export const compileCommand: Command = {
  name: 'compile',
  summary: 'print the intermediate representation of a policy as JSON',
  usage: COMPILE_USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, { 'no-spans': { type: 'boolean' }, ...stdinFilenameOption });
    if (values.help) return write(io.stdout, COMPILE_USAGE), 0;
    const [file, extra] = positionals;
    if (file === undefined) throw new UsageError('missing FILE');
    if (extra !== undefined) throw new UsageError(`unexpected argument \`${extra}\``);
    const input = await readPolicyInput(file, io, stdinName([file], values['stdin-filename']));
    if (!input) return 2;
    // Through `resolve`, so a `driver:` that cannot load is an error here as in every other command.
    const result = compileInput(input, { stopAfter: 'resolve' });
    io.stderr.write(renderDiagnostics(result.diagnostics, input.file));
    if (!result.ir || result.diagnostics.some((d) => d.severity === 'error')) return 2;
    const ir = values['no-spans'] ? withoutSpans(result.ir) : result.ir;
    write(io.stdout, JSON.stringify(ir, null, 2));
    return 0;
  },
};

const SCHEMA_USAGE = `usage: verdict schema [NAME] [--out DIR]

Prints the JSON Schemas that policy files are checked against (for editors and other tools).
Without NAME, lists the schema names.

options:
  --out DIR     write every schema to DIR as NAME.schema.json (a self-contained set: their
                \$refs name each other), and print the paths written; the same files ship in
                the @verdict/compiler package as @verdict/compiler/schemas/NAME.schema.json
  -h, --help    show this help

exit: 0, or 2 for an unknown name`;

export const schemaCommand: Command = {
  name: 'schema',
  summary: 'print the JSON Schemas of policy and descriptor files',
  usage: SCHEMA_USAGE,
  async run(argv, io) {
    const { values, positionals } = parse(argv, { out: { type: 'string' } });
    if (values.help) return write(io.stdout, SCHEMA_USAGE), 0;
    const names = Object.keys(schemas).sort();
    const [name, extra] = positionals;
    if (extra !== undefined) throw new UsageError(`unexpected argument \`${extra}\``);
    if (values.out !== undefined) {
      if (name !== undefined) throw new UsageError('give either NAME or --out, not both');
      let written: string[];
      try {
        written = writeSchemaFiles(values.out);
      } catch (err) {
        return write(io.stderr, `verdict schema: cannot write the schemas to \`${values.out}\`: ${describeWriteError(err)}`), 2;
      }
      return write(io.stdout, written.join('\n')), 0;
    }
    if (name === undefined) return write(io.stdout, names.join('\n')), 0;
    if (!Object.hasOwn(schemas, name)) throw new UsageError(`unknown schema \`${name}\` (want one of ${names.join(', ')})`);
    write(io.stdout, JSON.stringify((schemas as Record<string, unknown>)[name], null, 2));
    return 0;
  },
};
