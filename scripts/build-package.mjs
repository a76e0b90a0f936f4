#!/usr/bin/env node
// `pnpm build` runs this in every package, dependencies first (`pnpm -r build`). It empties
// `dist/`, copies the root LICENSE beside package.json (npm packs a package's own LICENSE only),
// then:
// - `tsconfig.build.json` present (the libraries): tsc emits ESM, .d.ts, declaration maps and
//   source maps for the files reachable from the entry points the config lists, so a new source
//   file is built as soon as something imports it, and test helpers never are;
// - `bundle.config.mjs` present (the CLI): rolldown bundles it (see that file);
// - `after-build.mjs` present: its default export runs last, with the package folder (the compiler
//   writes its published JSON Schemas into dist/schemas/ there).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = process.cwd();
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

rmSync(join(dir, 'dist'), { recursive: true, force: true });
copyFileSync(join(root, 'LICENSE'), join(dir, 'LICENSE'));

if (existsSync(join(dir, 'tsconfig.build.json'))) {
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const r = spawnSync(tsc, ['-p', 'tsconfig.build.json'], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (existsSync(join(dir, 'bundle.config.mjs'))) {
  const { default: build } = await import(pathToFileURL(join(dir, 'bundle.config.mjs')).href);
  await build();
}
if (existsSync(join(dir, 'after-build.mjs'))) {
  const { default: afterBuild } = await import(pathToFileURL(join(dir, 'after-build.mjs')).href);
  await afterBuild(dir);
}
