import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  /** Whether stdout is a terminal (colours, progress bars). */
  isTTY: boolean;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[], io: CommandIo): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs with strict checking, turning its exceptions into usage errors a person can read. */
export function parse<O extends Options>(argv: string[], options: O, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals, strict: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/s, '').replace(/^Unknown option/, 'unknown option'));
  }
}

export function write(stream: NodeJS.WritableStream, text: string): void {
  stream.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
}
