/** Runs one command object in-process (before it is registered in cli.ts), as `main` would. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { expect } from 'vitest';
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

/**
 * The golden folders of fixtures/cli/ whose names start with `prefix`, in the format of
 * golden.test.ts (`args.json` with the command name first, optional `stdin`, expected `stdout`,
 * `exit`, and `stderr` or `stderr.contains`), run through `command` directly.
 */
export function goldenCases(prefix: string): string[] {
  const dir = join(repoRoot, 'fixtures/cli');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.startsWith(prefix) && existsSync(join(dir, n, 'args.json'))).sort() : [];
}

export async function checkGolden(command: Command, name: string): Promise<void> {
  const at = (f: string) => join(repoRoot, 'fixtures/cli', name, f);
  const [commandName, ...argv] = JSON.parse(readFileSync(at('args.json'), 'utf8')) as string[];
  expect(commandName).toBe(command.name);
  const stdin = existsSync(at('stdin')) ? readFileSync(at('stdin'), 'utf8') : '';
  const run = await runCommand(command, argv, { stdin });
  if (process.env['UPDATE_GOLDEN'] === '1') {
    writeFileSync(at('stdout'), run.stdout);
    writeFileSync(at('exit'), `${run.code}\n`);
    if (existsSync(at('stderr'))) writeFileSync(at('stderr'), run.stderr);
    return;
  }
  expect({ exit: run.code, stdout: run.stdout }).toEqual({
    exit: Number(readFileSync(at('exit'), 'utf8').trim()),
    stdout: readFileSync(at('stdout'), 'utf8'),
  });
  if (existsSync(at('stderr'))) expect(run.stderr).toBe(readFileSync(at('stderr'), 'utf8'));
  if (existsSync(at('stderr.contains'))) {
    for (const line of readFileSync(at('stderr.contains'), 'utf8').split('\n').filter(Boolean)) expect(run.stderr).toContain(line);
  }
  expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
}
