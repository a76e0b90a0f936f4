import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { CommandIo } from '../src/args.ts';
import { main } from '../src/cli.ts';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function sink(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Runs the CLI in-process, as a user would from the repository root. The environment is `env`
 * (default empty), not the one the tests run in: a `FORCE_COLOR` or `NO_COLOR` there changes no result.
 */
export async function runCli(
  argv: string[],
  stdin: string | Buffer | Iterable<string> = '',
  options: { isTTY?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<RunResult> {
  const out = sink();
  const err = sink();
  const input = typeof stdin === 'string' || Buffer.isBuffer(stdin) ? Readable.from([Buffer.from(stdin)]) : Readable.from(stdin);
  const io: CommandIo = { stdin: input, stdout: out.stream, stderr: err.stream, cwd: repoRoot, isTTY: options.isTTY === true, env: options.env ?? {} };
  const code = await main(argv, io);
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out.text(), stderr: err.text() };
}
