/**
 * The process's output streams, guarded once for every command. A reader that goes away
 * (`verdict eval … | head -1`: EPIPE) ends the run quietly with exit 0, as `grep` and `jq` do: nobody
 * is left to read the rest. Any other write error (a full disk: ENOSPC, EIO) is one line on stderr
 * and exit 2, never an unhandled `'error'` event with a stack trace.
 */
import { chmodSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** How the run ends once stdout fails: `process.exit` in the `verdict` command, a spy in tests. */
export type Exit = (code: number) => void;

/** The one line that describes a failed write: `no space left on device`, not `ENOSPC: …, write`. */
export function describeWriteError(err: unknown): string {
  const e = err as NodeJS.ErrnoException | undefined;
  const message = e instanceof Error ? e.message : String(err);
  const text = message
    .replace(/^[A-Z][A-Z0-9_]*: /, '')
    .replace(/, (write|writev)$/, '')
    .replace(/^write [A-Z][A-Z0-9_]*$/, e?.code ?? message);
  return text.split('\n')[0] ?? text;
}

/** Installs the handlers on `stdout` and `stderr` (call once per stream pair). */
export function guardOutput(stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream, exit: Exit): void {
  let ended = false;
  stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (ended) return;
    ended = true;
    if (err.code === 'EPIPE') return exit(0);
    try {
      stderr.write(`verdict: cannot write to standard output: ${describeWriteError(err)}\n`);
    } catch {
      // stderr is gone too: the exit code is all that is left
    }
    exit(2);
  });
  // Nothing can be reported about stderr itself; the run goes on and its exit code still tells.
  stderr.on('error', () => {});
}

/**
 * Writes a report (`-o FILE`): missing folders are made, as ESLint does. A file that cannot be
 * written (a folder in the way, no permission, a full disk) is one line for the person running the
 * command: the returned text, to print with exit 2. `undefined`: written. `exclusive`: never over an
 * existing file (it is then an error, found as the file is opened, not by an earlier look).
 */
export function writeReportFile(path: string, text: string, options: { exclusive?: boolean } = {}): string | undefined {
  try {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    writeFileSync(path, text, options.exclusive === true ? { flag: 'wx' } : {});
    return undefined;
  } catch (err) {
    return `cannot write the report to \`${path}\`: ${describeWriteError(err)}`;
  }
}

/**
 * Writes `text` over `file` through a temporary file in the same folder and a rename, so the file is
 * never left half written; a symbolic link is followed (the link stays a link), and the file's mode
 * is kept.
 */
export function replaceFile(file: string, text: string): void {
  const target = realpathSync(file);
  const temp = join(dirname(target), `.${basename(target)}.verdict-${process.pid}`);
  try {
    writeFileSync(temp, text, { flag: 'wx' });
    chmodSync(temp, statSync(target).mode & 0o7777);
    renameSync(temp, target);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}
