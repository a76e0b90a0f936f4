import { type Command, type CommandIo, suggestName, UsageError } from './args.ts';
import { guardOutput } from './output.ts';
/**
 * Every command, in the order `verdict --help` lists them. Implementations load on demand, so
 * `verdict eval` never pays for the linter, the DSL parser or fast-check.
 */
interface Entry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

export const commands: readonly Entry[] = [
  { name: 'eval', summary: 'decide tool calls: JSON lines in, decisions out', load: async () => (await import('./commands/eval.ts')).evalCommand },
  { name: 'explain', summary: 'explain the decision for one tool call', load: async () => (await import('./commands/explain.ts')).explainCommand },
  { name: 'hook', summary: 'answer a coding agent’s pre-tool-use hook with a policy decision, failing closed; install it', load: async () => (await import('./commands/hook.ts')).hookCommand },
  { name: 'serve', summary: 'serve decisions and agent hooks over HTTP (unix socket or loopback), with hot reload', load: async () => (await import('./commands/serve.ts')).serveCommand },
  { name: 'check', summary: 'validate a run Policy against a driver', load: async () => (await import('./commands/check.ts')).checkCommand },
  { name: 'lint', summary: 'lint policy files and folders for CI', load: async () => (await import('./commands/lint.ts')).lintCommand },
  { name: 'test', summary: 'run the inline tests of policies and case files; --coverage lists rules no test reaches', load: async () => (await import('./commands/test.ts')).testCommand },
  { name: 'fuzz', summary: 'check properties of a policy on generated calls; counterexamples print as inline tests', load: async () => (await import('./commands/fuzz.ts')).fuzzCommand },
  { name: 'diff', summary: 'calls one policy allows and the other denies, with witnesses', load: async () => (await import('./commands/diff.ts')).diffCommand },
  { name: 'export', summary: 'write a policy as an agent’s own permission file, never looser, listing what is not carried', load: async () => (await import('./commands/export.ts')).exportCommand },
  { name: 'fmt', summary: 'format policy files or convert between YAML and the DSL', load: async () => (await import('./commands/fmt.ts')).fmtCommand },
  { name: 'compile', summary: 'print the intermediate representation of a policy as JSON', load: async () => (await import('./commands/compile.ts')).compileCommand },
  { name: 'schema', summary: 'print the JSON Schemas of policy and descriptor files', load: async () => (await import('./commands/compile.ts')).schemaCommand },
];

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const rows = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'usage: verdict <command> [options]',
    '',
    'Verdict decides, lints and tests the approval policies of AI coding agents.',
    '',
    'commands:',
    ...rows,
    '',
    'Run `verdict <command> --help` for the options of a command.',
    'global options: --debug (print stack traces of internal errors), -h/--help, -v/--version',
    'A policy FILE of `-` is read from standard input (`--stdin-filename NAME` names it); not for eval',
    'and hook, whose standard input carries the calls.',
    '',
  ].join('\n');
}

function defaultIo(): CommandIo {
  guardOutput(process.stdout, process.stderr, (code) => process.exit(code));
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    isTTY: process.stdout.isTTY === true,
  };
}

/** Entry point of the `verdict` command: returns the exit code, never throws. */
export async function main(argv: string[], io: CommandIo = defaultIo()): Promise<number> {
  const debug = argv.includes('--debug');
  const args = argv.filter((a) => a !== '--debug');
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? commands.find((c) => c.name === rest[0]) : undefined;
    io.stdout.write(topic ? `${(await topic.load()).usage}\n` : overview());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`verdict ${(await import('./version.ts')).VERSION}\n`);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    const help = name.startsWith('--')
      ? suggestName(name.slice(2), ['help', 'version', 'debug'], '--')
      : suggestName(name, commands.map((c) => c.name));
    io.stderr.write(`verdict: unknown command \`${name}\`\n${help ? `  help: ${help}\n` : ''}${overview()}`);
    return 2;
  }
  let command: Command | undefined;
  try {
    command = await entry.load();
    return await command.run(rest, debug ? { ...io, debug: true } : io);
  } catch (err) {
    if (err instanceof UsageError && command) {
      const help = err.help ? `  help: ${err.help}\n` : '';
      io.stderr.write(`verdict ${entry.name}: ${err.message}\n${help}\n${command.usage}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`verdict ${entry.name}: internal error: ${message}\n`);
    if (debug && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    else io.stderr.write('(run again with --debug for a stack trace)\n');
    return 2;
  }
}
