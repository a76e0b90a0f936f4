/**
 * The inputs the unit tests feed the front end and the engine to prove they never blow up (alias
 * fans, wide mappings, files over a budget, 10 MB inputs), timed at a quarter and at the full size
 * in the same run. Linear (or constant) work keeps the ratio near 4 (or 1); the quadratic paths they
 * guard against would put it near 16. The unit tests assert only what a user would see; the time is
 * measured here.
 */
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileFile, compileSource, parseDescriptorSource, parseVerdictSource } from '@verdict/compiler';
import { canonicalize, compileRegex } from '@verdict/engine';
import { consume, timeMs } from './measure.ts';

export interface ScalingCase {
  name: string;
  /** The full size; the quarter run uses `n / 4`. */
  n: number;
  /** Builds the input of size `n` (outside the timing) and returns the work to time. */
  prepare(n: number): () => unknown;
}

/** Folders the cases made, removed once measured. */
const made: string[] = [];

const aliasFan = (n: number): string =>
  ['mode: pattern', 'default: deny', 'allow:', '  - &r {tool: bash, match: "^ls$"}', `deny: [${Array(n).fill('*r').join(',')}]`].join('\n');

export const SCALING_CASES: readonly ScalingCase[] = [
  { name: 'YAML: aliases of one anchor', n: 20_000, prepare: (n) => { const t = aliasFan(n); return () => compileSource(t, 'a.yaml'); } },
  {
    name: 'YAML: keys of one mapping',
    n: 40_000,
    prepare: (n) => {
      const t = 'approver:\n  mode: pattern\nextra:\n' + Array.from({ length: n }, (_, i) => `  k${i}: 1`).join('\n') + '\n';
      return () => compileSource(t, 'wide.yaml');
    },
  },
  { name: 'YAML: flow sequence over the value budget', n: 4_500_000, prepare: (n) => { const t = 'x: [' + '1,'.repeat(n) + '1]\n'; return () => compileSource(t, 'w.yaml'); } },
  { name: 'descriptor over the value budget', n: 2_000_000, prepare: (n) => { const t = '{"type": [' + '1,'.repeat(n) + '1]}'; return () => parseDescriptorSource(t, 'd.json'); } },
  {
    name: 'DSL file over its size limit',
    n: 20 * 1024 * 1024,
    prepare: (n) => {
      const t = 'approver pattern {\n' + '  allow bash /x/\n'.repeat(Math.ceil(n / 16));
      return () => parseVerdictSource(t, 'p.verdict');
    },
  },
  {
    name: 'sparse file over the size limit (not read)',
    n: 50 * 1024 * 1024,
    prepare: (n) => {
      const dir = mkdtempSync(join(tmpdir(), 'verdict-bench-'));
      const file = join(dir, `huge-${n}.yaml`);
      const fd = openSync(file, 'w');
      ftruncateSync(fd, n);
      closeSync(fd);
      made.push(dir);
      return () => compileFile(file);
    },
  },
  {
    name: 'regex search of a 10 MB input',
    n: 10 * 1024 * 1024,
    prepare: (n) => {
      const big = 'a'.repeat(n);
      const a = compileRegex('rm -rf');
      const b = compileRegex('(a+)+$');
      return () => a.ok && b.ok && [a.regex.test(big), b.regex.test(big)];
    },
  },
  {
    name: 'canonical JSON of a 10 MB input',
    n: 10 * 1024 * 1024,
    prepare: (n) => { const t = `{"b":"${'x'.repeat(n)}","a":[${'1,'.repeat(100_000)}1]}`; return () => canonicalize(t); },
  },
];

export interface ScalingRow {
  name: string;
  quarterMs: number;
  fullMs: number;
  /** Full-size time over quarter-size time. */
  ratio: number;
}

/** Times each case once at a quarter of its size and once at its full size (fresh inputs each run). */
export function measureScaling(cases: readonly ScalingCase[] = SCALING_CASES): ScalingRow[] {
  try {
    return cases.map(measureOne);
  } finally {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

function measureOne(c: ScalingCase): ScalingRow {
  {
    const once = (n: number): number => {
      const work = c.prepare(n);
      return timeMs(() => consume(work()), 1).ms;
    };
    once(Math.floor(c.n / 16)); // warm up
    const quarterMs = once(Math.floor(c.n / 4));
    const fullMs = once(c.n);
    return { name: c.name, quarterMs, fullMs, ratio: fullMs / Math.max(quarterMs, 0.001) };
  }
}
