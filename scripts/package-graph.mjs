#!/usr/bin/env node
/**
 * The package graph, derived from what each package's sources import (tests and test helpers
 * left out), rendered into the root README between the `packages:begin` and `packages:end`
 * markers. `node scripts/package-graph.mjs --write` rewrites that section; without `--write` it
 * prints it. packages/cli/test/package-graph.test.ts fails when the README and the imports drift.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BEGIN = '<!-- packages:begin (generated from the imports by `node scripts/package-graph.mjs --write`) -->';
export const END = '<!-- packages:end -->';

/** Files that are tests or test support, not the package: their imports are not its dependencies. */
const NOT_SHIPPED = /\.test\.ts$|(^|\/)(testutil|test-support|case-files)\.ts$|(^|\/)testing\//;

function* sourceFiles(dir, rel = '') {
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel === '' ? name : `${rel}/${name}`;
    if (statSync(join(dir, r)).isDirectory()) yield* sourceFiles(dir, r);
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') && !NOT_SHIPPED.test(r)) yield join(dir, r);
  }
}

/** The bare module specifiers (`yaml`, `@verdict/engine`) a source text imports or re-exports. */
export function importsOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out = new Set();
  // Statements start a line (a string that holds `import x from "y"` is no import); `import()` may be anywhere.
  const re = /^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const m of code.matchAll(re)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec === undefined || spec.startsWith('.') || spec.startsWith('node:') || spec.startsWith('/')) continue;
    const parts = spec.split('/');
    out.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return out;
}

/**
 * Every workspace package under packages/: its name, what its package.json declares, and what its
 * sources import (itself left out), internal (`@verdict/…`) and external apart.
 */
export function packageGraph(root = ROOT) {
  const dirs = readdirSync(join(root, 'packages')).filter((d) => {
    try {
      return statSync(join(root, 'packages', d, 'package.json')).isFile();
    } catch {
      return false;
    }
  });
  const pkgs = dirs.map((dir) => {
    const json = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
    return { dir, name: json.name, json };
  });
  const names = new Set(pkgs.map((p) => p.name));
  return pkgs
    .map(({ dir, name, json }) => {
      const imported = new Set();
      for (const file of sourceFiles(join(root, 'packages', dir, 'src'))) for (const s of importsOf(readFileSync(file, 'utf8'))) imported.add(s);
      imported.delete(name);
      const sorted = [...imported].sort();
      return {
        dir,
        name,
        internal: sorted.filter((s) => names.has(s)),
        external: sorted.filter((s) => !names.has(s)),
        declared: { ...json.peerDependencies, ...json.devDependencies, ...json.dependencies },
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Each package's layer: 1 for one that imports no other package, else one more than its highest import. */
export function layers(graph) {
  const byName = new Map(graph.map((p) => [p.name, p]));
  const memo = new Map();
  const layer = (name, path = []) => {
    if (path.includes(name)) throw new Error(`the packages import each other in a cycle: ${[...path, name].join(' → ')}`);
    if (memo.has(name)) return memo.get(name);
    const deps = byName.get(name)?.internal ?? [];
    const l = 1 + Math.max(0, ...deps.map((d) => layer(d, [...path, name])));
    memo.set(name, l);
    return l;
  };
  for (const p of graph) layer(p.name);
  return memo;
}

/** The README section: the layers, top first, and each package's imports. */
export function renderGraph(graph) {
  const l = layers(graph);
  const top = Math.max(...l.values());
  const lines = [BEGIN, '', '```'];
  for (let i = top; i >= 1; i--) {
    const here = graph.filter((p) => l.get(p.name) === i).map((p) => p.dir);
    lines.push(`${i === top ? '' : '  ▼\n'}${here.join('   ')}`);
  }
  lines.push('```', '', '| package | imports (workspace) | imports (npm) |', '|---|---|---|');
  for (const p of [...graph].sort((a, b) => l.get(b.name) - l.get(a.name) || (a.name < b.name ? -1 : 1))) {
    const list = (xs) => (xs.length === 0 ? '(none)' : xs.map((x) => `\`${x}\``).join(', '));
    lines.push(`| \`${p.name}\` | ${list(p.internal)} | ${list(p.external)} |`);
  }
  lines.push('', END);
  return lines.join('\n');
}

/** The README's current section, from marker to marker, or `undefined`. */
export function readmeSection(readme) {
  const a = readme.indexOf(BEGIN);
  const b = readme.indexOf(END);
  return a < 0 || b < 0 ? undefined : readme.slice(a, b + END.length);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const section = renderGraph(packageGraph());
  if (process.argv.includes('--write')) {
    const file = join(ROOT, 'README.md');
    const readme = readFileSync(file, 'utf8');
    const current = readmeSection(readme);
    if (current === undefined) throw new Error(`README.md lacks the markers ${BEGIN} … ${END}`);
    writeFileSync(file, readme.replace(current, section));
    console.log('README.md: package graph written');
  } else {
    console.log(section);
  }
}
