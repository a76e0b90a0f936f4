#!/usr/bin/env node
// `pnpm bench [--quick] [--write]`: runs the benchmark suite (bench/src/main.ts) and, in full mode,
// rewrites the results table in bench/README.md. Memory figures need `gc()`, so the script re-runs
// itself under --expose-gc when it was started without it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--expose-gc', self, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

// tsx is resolved from bench/, not from the working directory.
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('./src/main.ts');
process.exitCode = await main(process.argv.slice(2));
