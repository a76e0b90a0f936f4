#!/usr/bin/env node
// Packing and checking every publishable package. `pnpm release:dry` (= `pnpm build && node
// scripts/release.mjs`) packs each package as `pnpm publish` would (workspace:* replaced by the
// version), checks every tarball, prints the sizes and exits 1 on any problem. The consumer test
// (release/consumer.test.ts) packs with the same `packAll` and installs the tarballs.
//
// Version scheme: every package carries the same version (they are released together, in lockstep),
// `verdict --version` prints it, and CHANGELOG.md has a `## <version>` section for it.
//
// A tarball passes when:
// - it holds no test file (`*.test.*`, `test/` or `__tests__/` folders, fixtures, test helpers that
//   import vitest) and every TypeScript source it ships was compiled into dist/ (what runs; a
//   source nothing imports is a test helper: add it to the package's `files` negations);
// - `exports` sends `types`, `import`, `require` and `default` into dist/ (only the
//   `verdict-source` condition, for this workspace's tests, may name src/), every path exists;
// - package.json has license Apache-2.0, description, keywords, repository, engines, and the
//   tarball has LICENSE and README.md;
// - publint reports no error or warning, and @arethetypeswrong/cli no problem except
//   `cjs-resolves-to-esm`: `require()` of these ESM packages is supported on every Node the
//   packages declare (>= 20.19) and by TypeScript's `nodenext`, as the consumer test shows;
// - a pattern export (`./schemas/*.schema.json`) matches files in the tarball, and every published
//   JSON Schema resolves through the compiler's exports as `@verdict/compiler/schemas/NAME.schema.json`
//   to a file equal to the schema `verdict schema NAME` prints.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SOURCE_CONDITION = 'verdict-source';

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.error) throw r.error;
  return r;
}

/** The publishable packages (packages/* not marked private), with their package.json. */
export function packages() {
  return readdirSync(join(ROOT, 'packages'))
    .map((d) => join(ROOT, 'packages', d))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ pkg }) => pkg.private !== true);
}

/** Packs every package into `dest` (pnpm pack: workspace:* becomes the version); returns their tarballs. */
export function packAll(dest) {
  mkdirSync(dest, { recursive: true });
  return packages().map(({ dir, pkg }) => {
    if (!existsSync(join(dir, 'dist'))) throw new Error(`${pkg.name}: no dist/: run \`pnpm build\` first`);
    const r = run('pnpm', ['pack', '--pack-destination', dest], { cwd: dir });
    if (r.status !== 0) throw new Error(`${pkg.name}: pnpm pack failed\n${r.stdout}${r.stderr}`);
    const file = readdirSync(dest).find((f) => f === `${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz`);
    if (!file) throw new Error(`${pkg.name}: pnpm pack wrote no tarball in ${dest}`);
    return { name: pkg.name, version: pkg.version, dir, tarball: join(dest, file) };
  });
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Every string target of an exports value, with the conditions that lead to it. */
function exportTargets(value, conditions = []) {
  if (typeof value === 'string') return [{ conditions, target: value }];
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((v) => exportTargets(v, conditions));
  return Object.entries(value).flatMap(([k, v]) => exportTargets(v, [...conditions, k]));
}

/**
 * The file a subpath (`./schemas/policy.schema.json`) resolves to through `exports`, as Node
 * resolves it: an exact key first, then the pattern key (one `*`) with the longest prefix.
 */
export function resolveExport(exports, subpath, conditions = ['import', 'default']) {
  const pick = (target) => {
    if (typeof target === 'string' || target === null) return target;
    if (Array.isArray(target)) return target.map(pick).find((t) => t != null) ?? null;
    for (const [k, v] of Object.entries(target)) if (conditions.includes(k)) return pick(v);
    return null;
  };
  if (Object.hasOwn(exports, subpath)) return pick(exports[subpath]);
  const patterns = Object.keys(exports)
    .filter((k) => k.includes('*'))
    .sort((a, b) => b.indexOf('*') - a.indexOf('*'));
  for (const key of patterns) {
    const [prefix, suffix] = key.split('*');
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= key.length - 1) {
      const target = pick(exports[key]);
      return target === null ? null : target.replaceAll('*', subpath.slice(prefix.length, subpath.length - suffix.length));
    }
  }
  return null;
}

/** The published JSON Schemas, by name, from the built compiler (what the tarball must export). */
async function publishedSchemas() {
  const { schemas } = await import(pathToFileURL(join(ROOT, 'packages', 'compiler', 'dist', 'index.js')).href);
  return schemas;
}

/** Problems with package.json alone (no tarball needed): used by the tests too. */
export function manifestProblems(pkg) {
  const problems = [];
  for (const key of ['description', 'keywords', 'repository', 'engines']) {
    if (pkg[key] === undefined) problems.push(`package.json has no \`${key}\``);
  }
  if (pkg.license !== 'Apache-2.0') problems.push(`license is \`${pkg.license}\`, want \`Apache-2.0\``);
  for (const { conditions, target } of exportTargets(pkg.exports ?? {})) {
    const viaSource = conditions.includes(SOURCE_CONDITION);
    if (!viaSource && !target.startsWith('./dist/') && !target.endsWith('package.json')) {
      problems.push(`exports ${conditions.join(' → ') || '.'} points at \`${target}\`, outside dist/: Node cannot run TypeScript from node_modules`);
    }
  }
  if (pkg.bin) {
    for (const [name, target] of Object.entries(pkg.bin)) {
      if (/\.ts$/.test(target)) problems.push(`bin \`${name}\` points at TypeScript \`${target}\``);
    }
  }
  return problems;
}

const TEST_FILE = /(^|\/)(test|tests|__tests__|fixtures)\/|\.(test|spec)\.[cm]?[jt]sx?(\.map)?$|\.test\.d\.ts/;

/** Every problem of one tarball (unpacked into a temporary folder). */
export async function tarballProblems({ name, tarball }) {
  const problems = [];
  const tmp = mkdtempSync(join(tmpdir(), 'verdict-pack-'));
  try {
    const x = run('tar', ['xzf', tarball, '-C', tmp]);
    if (x.status !== 0) return [`cannot unpack: ${x.stderr}`];
    const root = join(tmp, 'package');
    const files = walk(root).map((f) => relative(root, f).split('\\').join('/'));
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    problems.push(...manifestProblems(pkg));
    for (const f of ['LICENSE', 'README.md']) if (!files.includes(f)) problems.push(`no ${f} in the tarball`);
    for (const f of files) {
      if (TEST_FILE.test(f)) problems.push(`test file in the tarball: ${f}`);
      if (/\.[cm]?[jt]s$/.test(f) && /from ['"]vitest['"]|require\(['"]vitest['"]\)/.test(readFileSync(join(root, f), 'utf8'))) {
        problems.push(`${f} imports vitest: a test helper, not something that runs`);
      }
      const m = /^src\/(.*)\.ts$/.exec(f);
      if (m && !m[1].startsWith('examples/') && !m[1].includes('/examples/') && !files.includes(`dist/${m[1]}.js`)) {
        problems.push(`src/${m[1]}.ts is shipped but not built (nothing the package exports imports it): if it is a test helper, add it to the \`files\` negations of package.json`);
      }
    }
    for (const { conditions, target } of exportTargets(pkg.exports ?? {})) {
      if (target.includes('*')) {
        const [prefix, suffix] = target.replace(/^\.\//, '').split('*');
        if (!files.some((f) => f.startsWith(prefix) && f.endsWith(suffix))) problems.push(`exports ${conditions.join(' → ')} → \`${target}\` matches no file in the tarball`);
      } else if (!existsSync(join(root, target))) {
        problems.push(`exports ${conditions.join(' → ')} → \`${target}\` is not in the tarball`);
      }
    }
    if (pkg.name === '@verdict/compiler') {
      for (const [schema, expected] of Object.entries(await publishedSchemas())) {
        const subpath = `./schemas/${schema}.schema.json`;
        const target = resolveExport(pkg.exports ?? {}, subpath);
        if (target === null) problems.push(`\`${pkg.name}/${subpath.slice(2)}\` is not exported`);
        else if (!existsSync(join(root, target))) problems.push(`\`${pkg.name}/${subpath.slice(2)}\` resolves to \`${target}\`, which is not in the tarball`);
        else if (readFileSync(join(root, target), 'utf8') !== `${JSON.stringify(expected, null, 2)}\n`) problems.push(`\`${target}\` differs from \`verdict schema ${schema}\`: rebuild`);
      }
    }
    for (const target of Object.values(pkg.bin ?? {})) {
      if (!existsSync(join(root, target))) problems.push(`bin → \`${target}\` is not in the tarball`);
    }
    const deps = { ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies };
    for (const [dep, range] of Object.entries(deps)) {
      if (String(range).startsWith('workspace:')) problems.push(`dependency ${dep} is still \`${range}\``);
    }

    const { publint } = await import('publint');
    const { formatMessage } = await import('publint/utils');
    const lint = await publint({ pkgDir: root, pack: false, level: 'warning', strict: true });
    for (const m of lint.messages) problems.push(`publint ${m.type}: ${formatMessage(m, lint.pkg) ?? m.code}`);

    if (pkg.types !== undefined || JSON.stringify(pkg.exports ?? {}).includes('"types"')) {
      const attw = run(join(ROOT, 'node_modules', '.bin', 'attw'), [
        tarball, '--format', 'json', '--ignore-rules', 'cjs-resolves-to-esm',
      ]);
      let problemsFound;
      try {
        const report = JSON.parse(attw.stdout);
        problemsFound = (report.analysis?.problems ?? []).filter((p) => p.kind !== 'CJSResolvesToESM');
      } catch {
        problemsFound = [{ kind: `attw failed (exit ${attw.status}): ${attw.stderr.slice(0, 500)}` }];
      }
      for (const p of problemsFound) problems.push(`attw: ${p.kind}${p.entrypoint ? ` at ${p.entrypoint}` : ''}${p.resolutionKind ? ` (${p.resolutionKind})` : ''}`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return problems.map((p) => `${name}: ${p}`);
}

/** Problems that span packages: one version everywhere, a CHANGELOG section for it, `verdict --version`. */
export function releaseProblems(packed) {
  const problems = [];
  const versions = new Set(packed.map((p) => p.version));
  if (versions.size !== 1) problems.push(`packages have different versions (${[...versions].join(', ')}): they are released together`);
  const [version] = versions;
  const changelog = existsSync(join(ROOT, 'CHANGELOG.md')) ? readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8') : '';
  if (!new RegExp(`^## ${version?.replace(/\./g, '\\.')}\\b`, 'm').test(changelog)) {
    problems.push(`CHANGELOG.md has no \`## ${version}\` section`);
  }
  const bin = join(ROOT, 'packages/cli/bin/verdict.mjs');
  const v = run(process.execPath, [bin, '--version']);
  if (v.stdout.trim() !== `verdict ${version}`) problems.push(`\`verdict --version\` prints \`${v.stdout.trim()}\`, want \`verdict ${version}\``);
  return problems;
}

async function main() {
  const dest = mkdtempSync(join(tmpdir(), 'verdict-release-'));
  try {
    const packed = packAll(dest);
    const problems = [...releaseProblems(packed)];
    for (const p of packed) problems.push(...(await tarballProblems(p)));
    console.log('| package | tarball | unpacked files |');
    console.log('|---|---:|---:|');
    for (const p of packed) {
      const count = run('tar', ['tzf', p.tarball]).stdout.trim().split('\n').length;
      console.log(`| ${p.name}@${p.version} | ${(statSync(p.tarball).size / 1024).toFixed(1)} kB | ${count} |`);
    }
    if (problems.length > 0) {
      console.error(`\n${problems.length} problem${problems.length === 1 ? '' : 's'}:`);
      for (const p of problems) console.error(`  ${p}`);
      process.exitCode = 1;
    } else {
      console.log('\nevery package packs and passes its checks (dry run: nothing published)');
    }
  } finally {
    rmSync(dest, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
