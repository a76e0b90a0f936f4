/**
 * The built command as a user or an agent runs it, in a child process: `verdict serve` on a unix
 * socket in a fresh folder (with a small HTTP client over that socket), and any one-shot command.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { repoRoot, type RunResult } from './harness.ts';

export const BIN = join(repoRoot, 'packages/cli/bin/verdict.mjs');

/**
 * Runs the built `verdict ARGS` from the repository root with `stdin` (ended; `{ open: text }`
 * writes the text and keeps standard input open), the environment plus `env`.
 */
export function runBuilt(args: string[], stdin: string | Buffer | { open: string }, env: Record<string, string> = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    if (typeof stdin === 'object' && !Buffer.isBuffer(stdin)) child.stdin.write(stdin.open);
    else child.stdin.end(stdin);
  });
}

export interface Served {
  child: ChildProcess;
  socket: string;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process ends. */
  exited: Promise<number | string>;
  stop(): Promise<number | string>;
}

const started = new Set<ChildProcess>();

/** Kills every server a test started that is still running (a failed test must not leave one behind). */
export function killAll(): void {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
}

/** Starts `verdict serve --policy POLICY --listen unix:SOCKET ARGS`; resolves once it listens. */
export function serve(policy: string, socket: string, args: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--policy', policy, '--listen', `unix:${socket}`, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.add(child);
  let err = '';
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`verdict serve did not start: ${err}`)), 20_000);
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('listening on')) {
        clearTimeout(timer);
        resolve({
          child,
          socket,
          stderr: () => err,
          exited,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`verdict serve exited ${code}: ${err}`));
    });
  });
}

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over the unix socket (a fresh connection). */
export function call(socket: string, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: socket, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const post = (socket: string, path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Response> => call(socket, 'POST', path, body, headers);

/** Waits until `check` holds (polled), or fails after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'the condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
