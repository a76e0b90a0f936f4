import { type Command, type CommandIo, UsageError } from './args.ts';
import { evalCommand } from './commands/eval.ts';
import { checkCommand } from './commands/check.ts';
import { compileCommand, schemaCommand } from './commands/compile.ts';
import { explainCommand } from './commands/explain.ts';
import { fmtCommand } from './commands/fmt.ts';
import { fuzzCommand } from './commands/fuzz.ts';
import { testCommand } from './commands/test.ts';

/** Every command, in the order `verdict --help` lists them. */
export const commands: readonly Command[] = [
  evalCommand,
  explainCommand,
  checkCommand,
  testCommand,
  fuzzCommand,
  fmtCommand,
  compileCommand,
  schemaCommand,
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
    'global options: --debug (print stack traces of internal errors), -h/--help, --version',
    '',
  ].join('\n');
}

function defaultIo(): CommandIo {
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
    io.stdout.write(topic ? `${topic.usage}\n` : overview());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    io.stdout.write('verdict 0.1.0\n');
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`verdict: unknown command \`${name}\`\n${overview()}`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`verdict ${command.name}: ${err.message}\n\n${command.usage}\n`);
      return 2;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`verdict ${command.name}: internal error: ${message}\n`);
    if (debug && err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    else io.stderr.write('(run again with --debug for a stack trace)\n');
    return 2;
  }
}
