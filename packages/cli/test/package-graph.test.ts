/**
 * The README's package graph is drawn from the real imports, and the imports keep the layering:
 * no cycle, every import declared in the importing package's package.json, every workspace
 * dependency it declares used, and the design's rules (the engine imports no front end; the
 * compiler never imports the linter). A new package is picked up from packages/ by itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { importsOf, layers, packageGraph, readmeSection, renderGraph, ROOT } from '../../../scripts/package-graph.mjs';

interface PackageNode {
  dir: string;
  name: string;
  internal: string[];
  external: string[];
  declared: Record<string, string>;
}
const graph = packageGraph() as PackageNode[];
const byDir = new Map(graph.map((p) => [p.dir, p]));

describe('the package graph', () => {
  it('reads imports, re-exports and dynamic imports, not strings or comments', () => {
    const text = [
      "import { a } from '@verdict/engine';",
      "import type { B } from 'yaml/types';",
      "export { c } from '@scope/pkg/sub';",
      "const m = await import('chevrotain');",
      "import './side-effect.ts';",
      "import { x } from 'node:fs';",
      "const s = 'import x from \"y\"';",
      "// import z from 'commented';",
      "/* import w from 'blocked'; */",
    ].join('\n');
    expect([...(importsOf(text) as Set<string>)].sort()).toEqual(['@scope/pkg', '@verdict/engine', 'chevrotain', 'yaml']);
  });

  it('finds every package, and the layers it draws', () => {
    expect(graph.map((p) => p.dir)).toEqual(expect.arrayContaining(['cli', 'compiler', 'engine', 'lint', 'testing']));
    const l = layers(graph) as Map<string, number>;
    expect(l.get('@verdict/engine')).toBe(1);
    for (const p of graph) for (const d of p.internal) expect(l.get(d), `${p.name} → ${d}`).toBeLessThan(l.get(p.name) ?? 0);
  });

  it('refuses a cycle', () => {
    const cyclic = [
      { dir: 'a', name: 'a', internal: ['b'], external: [], declared: {} },
      { dir: 'b', name: 'b', internal: ['a'], external: [], declared: {} },
    ];
    expect(() => layers(cyclic)).toThrow('the packages import each other in a cycle: a → b → a');
  });

  it('declares every import in package.json, and imports every workspace package it declares', () => {
    for (const p of graph) {
      for (const d of [...p.internal, ...p.external]) expect(Object.keys(p.declared), `${p.name} imports ${d}`).toContain(d);
      const names = new Set(graph.map((g) => g.name));
      for (const d of Object.keys(p.declared).filter((x) => names.has(x))) expect(p.internal, `${p.name} declares ${d}`).toContain(d);
    }
  });

  it('keeps the layering of the design', () => {
    const engine = byDir.get('engine');
    for (const banned of ['@verdict/compiler', '@verdict/lint', '@verdict/cli', '@verdict/testing', 'yaml', 'ajv', 'chevrotain']) {
      expect([...(engine?.internal ?? []), ...(engine?.external ?? [])], `the engine imports ${banned}`).not.toContain(banned);
    }
    expect(byDir.get('compiler')?.internal).not.toContain('@verdict/lint');
    for (const p of graph) if (p.dir !== 'cli') expect(p.internal, `${p.name} imports the CLI`).not.toContain('@verdict/cli');
  });

  it("keeps the CLI's own layers: hook/, serve/ and input/ import nothing from commands/", () => {
    // input/ (the readers, the eval line format) sits below commands/, hook/ and serve/; commands/
    // may import hook/ and serve/ (the `hook` and `serve` commands start them), never the reverse.
    const src = join(ROOT as string, 'packages/cli/src');
    const offenders: string[] = [];
    for (const layer of ['hook', 'serve', 'input']) {
      for (const f of readdirSync(join(src, layer), { recursive: true, encoding: 'utf8' })) {
        if (!f.endsWith('.ts')) continue;
        const text = readFileSync(join(src, layer, f), 'utf8');
        for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)) {
          const target = m[1]!;
          if (!target.startsWith('.')) continue;
          const resolved = join(layer, dirname(f), target).split(sep).join('/');
          const into = resolved.split('/')[0];
          if (into === 'commands' || (layer === 'input' && (into === 'hook' || into === 'serve'))) offenders.push(`${layer}/${f} imports ${resolved}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("has one shell quoter (@verdict/engine's shell-quote.ts): no other source writes the `'\\''` escape", () => {
    const escape = "'\\\\''"; // the text `'\\''` as it is written in a template literal
    const writers: string[] = [];
    for (const p of graph) {
      const src = join(ROOT as string, 'packages', p.dir, 'src');
      for (const f of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
        if (!/\.[cm]?ts$/.test(f) || f.endsWith('.test.ts')) continue;
        if (readFileSync(join(src, f), 'utf8').includes(escape)) writers.push(`${p.dir}/src/${f}`);
      }
    }
    expect(writers).toEqual(['engine/src/shell-quote.ts']);
  });

  it("has bench/ import packages by their names (what @verdict/cli and the libraries' index.ts export), not their files", () => {
    const bench = join(ROOT as string, 'bench');
    // Left, each for a reason: the in-process profiler of `verdict eval`'s loop (with a stub approver)
    // needs the CLI's stream loop, which the CLI does not export (its package exports only the
    // `verdict` command, a bundle); the shell oracles' long run drives the shell package's test oracle.
    const allowed = new Set([
      'src/eval-measure.ts → packages/cli/src/commands/eval.ts',
      'src/eval-measure.ts → packages/cli/src/input/eval-request.ts',
      'src/eval-measure.ts → packages/cli/src/args.ts',
      'src/shell-oracle.ts → packages/shell/test/oracle/generate.ts',
      'src/shell-oracle.ts → packages/shell/test/oracle/run.ts',
    ]);
    const found: string[] = [];
    for (const f of readdirSync(bench, { recursive: true, encoding: 'utf8' })) {
      if (f.startsWith('node_modules') || !/\.[cm]?[jt]s$/.test(f)) continue;
      const text = readFileSync(join(bench, f), 'utf8');
      for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)) {
        if (!m[1]!.startsWith('.')) continue;
        const target = join(dirname(f), m[1]!).split(sep).join('/');
        if (target.startsWith('../packages/')) found.push(`${f.split(sep).join('/')} → ${target.slice(3)}`);
      }
    }
    expect(found.filter((x) => !allowed.has(x))).toEqual([]);
  });

  it('is the one the README draws (regenerate with `node scripts/package-graph.mjs --write`)', () => {
    const readme = readFileSync(join(ROOT as string, 'README.md'), 'utf8');
    expect(readmeSection(readme)).toBe(renderGraph(graph));
  });
});
