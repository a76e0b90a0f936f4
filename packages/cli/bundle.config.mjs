// The `verdict` command as a few bundled ES modules (run by `pnpm build`, see
// scripts/build-package.mjs): the workspace packages are compiled from their TypeScript sources
// (the `verdict-source` export condition) into `dist/`, so the CLI needs no runtime transpiler,
// loads a handful of files instead of a hundred, and installs with only its npm dependencies.
// Every command is loaded on demand (`import()` in src/cli.ts): each becomes its own chunk, and
// code shared by several commands lands in shared chunks, so `verdict eval` loads neither the
// linter, nor the DSL, nor fast-check.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { builtinModules, createRequire } from 'node:module';
import { rolldown } from 'rolldown';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const npmDeps = Object.keys(pkg.dependencies ?? {});

/**
 * The CLI's own npm dependencies (fast-check, chevrotain: large, and loaded only by the commands
 * that need them) and Node built-ins stay imports; everything else is bundled.
 */
function external(id) {
  if (id.startsWith('node:') || builtinModules.includes(id)) return true;
  return npmDeps.some((d) => id === d || id.startsWith(`${d}/`));
}

/**
 * yaml's ES module build (its `default` export condition; Node gets the CommonJS one): rolldown can
 * leave out what the command never uses (the YAML 1.1 schema, timestamps, …) and need not wrap
 * ~70 CommonJS modules, which halves yaml's share of `verdict eval`'s start-up. The two builds are
 * compiled from the same sources; they differ only in how `YAML.parse` logs warnings (console.warn
 * here, process.emitWarning there), and Verdict calls `parseDocument`, which logs nothing.
 */
const yamlEsm = join(
  dirname(createRequire(new URL('../compiler/package.json', import.meta.url)).resolve('yaml/package.json')),
  'browser',
  'index.js',
);

/** Builds into `outDir` (`dist/` by default; the hostile-input test builds a copy of its own). */
export default async function build(outDir = new URL('./dist/', import.meta.url).pathname) {
  const bundle = await rolldown({
    input: { cli: new URL('./src/cli.ts', import.meta.url).pathname },
    platform: 'node',
    external,
    resolve: { conditionNames: ['verdict-source', 'import', 'node', 'default'], alias: { yaml: yamlEsm } },
    treeshake: true,
  });
  const { output } = await bundle.write({
    dir: outDir,
    format: 'cjs',
    sourcemap: true,
    minify: true,
    entryFileNames: '[name].cjs',
    chunkFileNames: 'chunks/[name]-[hash].cjs',
  });
  await bundle.close();
  writeNotices(output.flatMap((chunk) => chunk.moduleIds ?? []), outDir);
}

/**
 * The licence texts of the npm packages whose code the bundle holds (yaml, re2js, …), as their
 * licences ask for copies to carry them: dist/THIRD-PARTY-NOTICES.md.
 */
function writeNotices(moduleIds, outDir) {
  const roots = new Set();
  for (const id of moduleIds) {
    const m = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(id.replaceAll('\\', '/'));
    if (m) roots.add(m[1]);
  }
  const sections = [...roots].sort().map((root) => {
    const p = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const file = readdirSync(root).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
    if (!file) throw new Error(`${p.name}: bundled into the CLI, but it ships no licence file to copy`);
    return `## ${p.name} ${p.version} (${p.license})\n\n\`\`\`\n${readFileSync(join(root, file), 'utf8').trim()}\n\`\`\`\n`;
  });
  const head = '# Third-party notices\n\nThe `verdict` command bundles code from these npm packages, under their licences:\n\n';
  writeFileSync(join(outDir, 'THIRD-PARTY-NOTICES.md'), head + sections.join('\n'));
}
