/**
 * Builds and runs the Go reference program (main.go beside this file). The binary and Go's build
 * cache live in `node_modules/.cache/go-reference/` (git-ignored), built once per test run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GoCase } from './generate.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const cacheDir = join(repoRoot, 'node_modules', '.cache', 'go-reference');

export interface GoResult {
  decision?: 'allow' | 'deny';
  reason?: string;
  badLine?: boolean;
  skip?: string;
  /** The request as Go decoded the line. */
  tool?: string;
  input?: string;
}

export interface GoCaseResult {
  results?: GoResult[];
  skip?: string;
  policyError?: string;
}

export interface GoRun {
  /** `runtime.Version()` of the Go that built the program, e.g. `go1.19.8`. */
  go: string;
  /** Go's `unicode.Version`. */
  unicode: string;
  cases: GoCaseResult[];
}

/** The `go` command's version line, or `undefined` when there is no `go` on the PATH. */
export function goVersion(): string | undefined {
  try {
    return execFileSync('go', ['version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** Builds the reference program; returns the binary's path. */
export function buildReference(): string {
  mkdirSync(cacheDir, { recursive: true });
  const bin = join(cacheDir, 'goreference');
  execFileSync('go', ['build', '-o', bin, '.'], {
    cwd: here,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, GOCACHE: join(cacheDir, 'gocache'), GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GOPROXY: 'off', CGO_ENABLED: '0' },
  });
  return bin;
}

/** Runs the reference on every case (one process for all of them). */
export function runReference(bin: string, cases: readonly GoCase[]): GoRun {
  const input = cases
    .map((c) => JSON.stringify({ policy: c.policy, lines: c.lines.map((l) => Buffer.from(l).toString('base64')) }))
    .join('\n');
  const out = spawnSync(bin, [], { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`go reference failed (${out.status}): ${out.stderr}`);
  const [head, ...rest] = out.stdout.trimEnd().split('\n');
  const { go, unicode } = JSON.parse(head!) as { go: string; unicode: string };
  const results = rest.map((l) => JSON.parse(l) as GoCaseResult);
  if (results.length !== cases.length) throw new Error(`go reference answered ${results.length} cases of ${cases.length}`);
  return { go, unicode, cases: results };
}
