/** Runs one command object in-process (before it is registered in cli.ts), as `main` would. */
import { PassThrough, Readable } from 'node:stream';
import { type Command, type CommandIo, UsageError } from '../src/args.ts';
import { repoRoot, type RunResult } from './harness.ts';

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export async function runCommand(command: Command, argv: string[], options: { stdin?: string; isTTY?: boolean } = {}): Promise<RunResult> {
  const out = sink();
  const err = sink();
  const io: CommandIo = {
    stdin: Readable.from([Buffer.from(options.stdin ?? '')]),
    stdout: out.stream,
    stderr: err.stream,
    cwd: repoRoot,
    isTTY: options.isTTY === true,
  };
  let code: number;
  try {
    code = await command.run(argv, io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err.stream.write(`verdict ${command.name}: ${e.message}\n\n${command.usage}\n`);
    code = 2;
  }
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out.text(), stderr: err.text() };
}
