#!/usr/bin/env node
// `pnpm bench:startup [--rounds N] [--write] [--bin FILE]`: start-up of the built `verdict` command against a
// bare `node -e 0`, in the same run, in turns (one of each per round, so load on this shared
// machine hits them alike), medians of wall time. Prints the ratios and, with --write, rewrites
// the "Start-up" table in bench/README.md. Needs `pnpm build` first (it runs the bin users run).
// Each command is run once before timing, so the compile cache (Node 22.1+) is warm as it is in
// a hook that runs on every tool call. `--bin FILE` times another build of the command (e.g. an
// older checkout's bin/verdict.mjs) in the same way, for before/after figures.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const bin = args.includes('--bin') ? args[args.indexOf('--bin') + 1] : join(root, 'packages/cli/bin/verdict.mjs');
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 31;
if (!args.includes('--bin') && !existsSync(join(root, 'packages/cli/dist/cli.cjs'))) {
  console.error('bench/startup: packages/cli/dist/ is missing: run `pnpm build` first');
  process.exit(2);
}
const oneCall = `${JSON.stringify({ toolName: 'bash', input: '{"command":"git status"}', sessionId: 's1' })}\n`;

/** name, argv, stdin, target ratio (undefined: the baseline). */
const cases = [
  { name: '`node -e 0`', argv: ['-e', '0'] },
  { name: '`verdict --help`', argv: [bin, '--help'], target: 1.5 },
  { name: '`verdict eval`, one call', argv: [bin, 'eval', '--policy', 'fixtures/policies/workspace.yaml'], input: oneCall, target: 2 },
  { name: '`verdict lint`, one file', argv: [bin, 'lint', 'fixtures/policies/workspace.yaml'], target: 3 },
];

function once(c) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, c.argv, { cwd: root, input: c.input ?? '', encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
  return ms;
}

for (const c of cases) once(c);
const times = cases.map(() => []);
for (let i = 0; i < rounds; i++) cases.forEach((c, j) => times[j].push(once(c)));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(times[0]);
const rows = cases.map((c, j) => {
  const m = median(times[j]);
  const ratio = m / base;
  const verdict = c.target === undefined ? 'baseline' : ratio <= c.target ? `≤ ${c.target}x: met` : `≤ ${c.target}x: MISSED`;
  return `| ${c.name} | ${m.toFixed(1)} | ${ratio.toFixed(2)}x | ${verdict} |`;
});
const table = [
  `Node ${process.version}, ${rounds} rounds in turns, median wall time of a child process:`,
  '',
  '| command | median ms | ratio to `node -e 0` | target |',
  '|---|---:|---:|---|',
  ...rows,
].join('\n');
console.log(table);
const missed = rows.some((r) => r.includes('MISSED'));
if (args.includes('--write')) {
  const readme = join(root, 'bench/README.md');
  const text = readFileSync(readme, 'utf8');
  const start = '<!-- startup:begin -->';
  const end = '<!-- startup:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`bench/README.md has no ${start} … ${end} block`);
  writeFileSync(readme, `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`);
}
process.exitCode = missed ? 1 : 0;
