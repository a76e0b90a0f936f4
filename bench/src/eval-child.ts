// `verdict eval` as a child process, measured as main.ts's toolchainSection does (CPU time of the
// child from bash's `times`, start-up on an empty stdin subtracted), without the rest of the suite:
//   pnpm --filter @verdict/bench exec tsx src/eval-child.ts [distinct] [repeats] [runs]
//   BASELINE_ROOT=/path/to/an/older/checkout (installed): that CLI against this one, alternating runs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCalls, makePolicy } from './corpus.ts';

const [distinctArg, repeatArg, runsArg] = process.argv.slice(2);
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const policy = makePolicy(100);
const distinct = makeCalls(Number(distinctArg ?? 10_000));
const calls = Array.from({ length: Number(repeatArg ?? 10) }, () => distinct).flat();
const dir = mkdtempSync(join(tmpdir(), 'verdict-eval-child-'));
try {
  const file = join(dir, 'policy.json');
  writeFileSync(file, JSON.stringify({ approver: { mode: policy.mode, default: policy.default, reason: policy.reason, deny: policy.deny, allow: policy.allow } }, null, 1));
  const lines = join(dir, 'calls.jsonl');
  writeFileSync(lines, calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const empty = join(dir, 'empty.jsonl');
  writeFileSync(empty, '');
  const bin = join(root, 'packages/cli/bin/verdict.mjs');
  const run = (input: string, cli = bin) => {
    const script = `"${process.execPath}" "${cli}" eval --policy "${file}" < "${input}" > "${dir}/out.jsonl"; s=$?; times; exit $s`;
    const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 600_000 });
    const m = (r.stdout.trim().split('\n')[1] ?? '').match(/([\d.]+)m([\d.]+)s\s+([\d.]+)m([\d.]+)s/);
    if (r.status !== 0 || !m) throw new Error(`eval failed: ${r.status} ${r.stderr.slice(0, 300)}`);
    return (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000;
  };
  const baseRoot = process.env['BASELINE_ROOT'];
  if (baseRoot) {
    // A/B: the same lines through BASELINE_ROOT's CLI (an older checkout, installed) and this one,
    // alternating, start-up subtracted from each; the answers must be the same bytes.
    const baseBin = join(baseRoot, 'packages/cli/bin/verdict.mjs');
    const rates: Record<'baseline' | 'current', number[]> = { baseline: [], current: [] };
    const outputs: Record<string, string> = {};
    for (let i = 0; i < Number(runsArg ?? 2); i++) {
      for (const which of i % 2 === 0 ? (['baseline', 'current'] as const) : (['current', 'baseline'] as const)) {
        const cli = which === 'baseline' ? baseBin : bin;
        const startup = run(empty, cli);
        const full = run(lines, cli);
        outputs[which] = readFileSync(join(dir, 'out.jsonl'), 'utf8');
        rates[which].push((calls.length / (full - startup)) * 1000);
      }
      if (outputs['baseline'] !== outputs['current']) throw new Error('the two CLIs answered differently');
    }
    for (const which of ['baseline', 'current'] as const) {
      const v = [...rates[which]].sort((a, b) => a - b);
      console.log(`${which.padEnd(8)}: median ${(v[Math.floor(v.length / 2)]! / 1000).toFixed(1)}k decisions/s, best ${(v[v.length - 1]! / 1000).toFixed(1)}k (${v.length} runs of ${calls.length} lines, CPU time)`);
    }
    process.exit(0);
  }
  for (let i = 0; i < Number(runsArg ?? 2); i++) {
    const startup = run(empty);
    const full = run(lines);
    const out = readFileSync(join(dir, 'out.jsonl'), 'utf8');
    const n = out.length === 0 ? 0 : out.split('\n').length - 1;
    if (n !== calls.length) throw new Error(`wrote ${n} lines for ${calls.length} requests`);
    console.log(`${((calls.length / (full - startup)) * 1000 / 1000).toFixed(1)}k decisions/s (start-up ${startup.toFixed(0)} ms, all ${full.toFixed(0)} ms, ${calls.length} lines)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
