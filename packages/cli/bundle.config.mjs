// The `verdict` command as a few bundled ES modules (run by `pnpm build`, see
// scripts/build-package.mjs): the workspace packages are compiled from their TypeScript sources
// (the `verdict-source` export condition) into `dist/`, so the CLI needs no runtime transpiler,
// loads a handful of files instead of a hundred, and installs with only its npm dependencies.
// Every command is loaded on demand (`import()` in src/cli.ts): each becomes its own chunk, and
// code shared by several commands lands in shared chunks, so `verdict eval` loads neither the
// linter, nor the DSL, nor fast-check.
import { createHash } from 'node:crypto';
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

/**
 * Two kinds of statement just-bash (the shell parser) runs when each of its ~200 files loads, that
 * the bundler cannot drop because a call or a getter may do anything:
 * - `a=globalThis.Headers` and the like: reading `Headers` makes Node load undici, its fetch
 *   implementation (~22 ms of every `verdict hook` call that judges a shell command, for a class the
 *   parser never uses);
 * - `const require=createRequire(import.meta.url)` at the top of every file, which the CommonJS
 *   bundle turns into `createRequire(pathToFileURL(__filename))`, mostly for a `require` no code uses.
 * Each is marked pure: still evaluated where its variable is used, dropped where it is not.
 */
const LAZY_GLOBALS = /\bglobalThis\.(Headers|Request|Response|FormData|fetch|WebSocket)\b(?!\s*=[^=])/g;
const PURE_REQUIRE = /\bcreateRequire\(import\.meta\.url\)/g;
const pureGlobalReads = {
  name: 'verdict-pure-global-reads',
  transform(code, id) {
    if (!id.replaceAll('\\', '/').includes('/node_modules/just-bash/')) return null;
    const out = code.replace(LAZY_GLOBALS, (m) => `/* @__PURE__ */ (() => ${m})()`).replace(PURE_REQUIRE, (m) => `/* @__PURE__ */ ${m}`);
    return out === code ? null : { code: out, map: null };
  },
};

/** The modules of the `compiler` chunk: yaml and the compiler's sources but its file reader. */
const COMPILER_FRONT = /\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?yaml\/|\/packages\/compiler\/src\/(?!load\.ts$|positions\.ts$|json-syntax\.ts$)/;

/** The engine modules of the `engine-leaves` chunk (both import nothing). */
const ENGINE_LEAVES = /\/packages\/engine\/src\/(did-you-mean|hooks\/agents)\.ts$/;

/** Builds into `outDir` (`dist/` by default; the hostile-input test builds a copy of its own). */
export default async function build(outDir = new URL('./dist/', import.meta.url).pathname) {
  const bundle = await rolldown({
    input: { cli: new URL('./src/cli.ts', import.meta.url).pathname },
    platform: 'node',
    external,
    plugins: [pureGlobalReads],
    // Required by the `compiler` group below (it leaves its modules' dependencies where they are).
    preserveEntrySignatures: 'allow-extension',
    resolve: { conditionNames: ['verdict-source', 'import', 'node', 'default'], alias: { yaml: yamlEsm } },
    treeshake: true,
  });
  const { output } = await bundle.write({
    dir: outDir,
    format: 'cjs',
    sourcemap: true,
    minify: true,
    entryFileNames: '[name].cjs',
    codeSplitting: {
      groups: [
        // The compiler's front end (YAML, the schema validators, the DSL, the checks) in a chunk of
        // its own: `verdict hook` with a cached policy needs the engine and the compiler's file
        // reader only, and would otherwise load all of it beside them.
        { name: 'compiler', test: (id) => COMPILER_FRONT.test(id.replaceAll('\\', '/')), includeDependenciesRecursively: false },
        // The two engine modules the CLI's entry and `verdict hook --server` need (suggestions for a
        // mistyped name; the agents' titles in a deny), leaves of their own: in the engine's chunk they
        // would make every command load the engine and re2js at start, and the relay to a running
        // `verdict serve` load it for a call the server decides.
        { name: 'engine-leaves', test: (id) => ENGINE_LEAVES.test(id.replaceAll('\\', '/')) },
      ],
    },
    chunkFileNames: 'chunks/[name]-[hash].cjs',
  });
  await bundle.close();
  // The build's identity: a hash of every file of the bundle. `verdict hook`'s compiled-policy cache
  // (src/hook/policy-cache.ts) keys its entries by it, so a rebuilt command never reads an entry an
  // older build wrote, whatever the version number says.
  const id = createHash('sha256');
  for (const o of [...output].sort((a, b) => (a.fileName < b.fileName ? -1 : 1))) id.update(`${o.fileName}\0`).update(o.type === 'chunk' ? o.code : o.source).update('\0');
  writeFileSync(join(outDir, 'build-id'), `${id.digest('hex')}\n`);
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
