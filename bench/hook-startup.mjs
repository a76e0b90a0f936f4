#!/usr/bin/env node
// `pnpm bench:hook [--rounds N] [--write] [--bin FILE] [--before FILE]` (after `pnpm build`): the
// whole-process cost of one `verdict hook` call under the Claude Code starter
// (fixtures/policies/claude-code.yaml), against a bare `node -e 0` in the same run (issue 25 item
// 5). One of each per round, in turns (the order rotates every round, so the load of this shared
// machine falls on all of them alike); the figure is each command's median wall time from spawn to
// exit, the ratio is to `node -e 0`'s median.
//   - hook Bash: a PreToolUse Bash `npm test` (command rules: the shell reader is loaded);
//   - hook Read: a PreToolUse Read inside /workspace (no shell reader);
//   - hook --server: the Bash call again, answered by a running `verdict serve` over a unix socket
//     (started here on the same policy, stopped at the end).
// Every command runs a few times before timing, so Node's code cache and Verdict's compiled-policy
// cache are warm as they are for a hook that runs on every tool call (the code cache in a fresh
// XDG_CACHE_HOME of this run; the policy cache in the user's own ~/.cache/verdict/policies/, which no
// variable moves). Every answer is checked (exit code and decision) on every run.
// `--write` rewrites the "Hook start-up" table in bench/README.md; `--bin FILE` times another
// build; `--before FILE` adds the same three hook rows for another build (an older checkout's
// bin/verdict.cjs or bin/verdict.mjs, built) to the same rounds, for before/after figures measured side by side.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const bin = opt('--bin') ?? join(root, 'packages/cli/bin/verdict.cjs');
const rounds = Number(opt('--rounds')) || 31;
if (opt('--bin') === undefined && !existsSync(join(root, 'packages/cli/dist/cli.cjs'))) {
  console.error('bench/hook-startup: packages/cli/dist/ is missing: run `pnpm build` first');
  process.exit(2);
}
const policy = 'fixtures/policies/claude-code.yaml';
const tmp = mkdtempSync(join(tmpdir(), 'verdict-hook-startup-'));
const socket = join(tmp, 'serve.sock');
const env = { ...process.env, XDG_CACHE_HOME: join(tmp, 'cache') };
delete env.NODE_OPTIONS;

const payload = (tool, input) =>
  JSON.stringify({
    session_id: 's',
    transcript_path: '/t.jsonl',
    cwd: '/workspace',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
    tool_use_id: 'toolu_01',
  });
const bash = payload('Bash', { command: 'npm test', description: 'Run test suite', timeout: 120000, run_in_background: false });
const read = payload('Read', { file_path: '/workspace/src/index.ts' });

/** name, argv, stdin, expected decision in the answer, target ratio (undefined: the baseline). */
const cases = [
  { name: '`node -e 0`', argv: ['-e', '0'] },
  { name: 'hook, Bash `npm test`', argv: [bin, 'hook', '--agent', 'claude', '--policy', policy], input: bash, allow: true, target: 1.5, before: '255 ms, 3.2x' },
  { name: 'hook, Read in /workspace', argv: [bin, 'hook', '--agent', 'claude', '--policy', policy], input: read, allow: true, target: 1.3, before: '2.3x' },
  { name: 'hook --server, Bash `npm test`', argv: [bin, 'hook', '--agent', 'claude', '--server', `unix:${socket}`], input: bash, allow: true, target: 1.2, before: 'not measured' },
];
const before = opt('--before');
if (before !== undefined) {
  for (const c of cases.slice(1)) cases.push({ ...c, name: `${c.name} (before)`, argv: [before, ...c.argv.slice(1)], target: undefined, before: undefined });
}

/**
 * The CPU time (user + system, ms, all threads) of one run of `c`, which the load of this shared
 * machine stretches far less than wall time: a second run, apart from the timed one, with a preload
 * that writes `process.cpuUsage()` at exit.
 */
const cpuPreload = join(tmp, 'cpu.cjs');
const cpuOut = join(tmp, 'cpu.json');
writeFileSync(cpuPreload, "process.on('exit', () => require('node:fs').writeFileSync(process.env.VERDICT_BENCH_CPU, JSON.stringify(process.cpuUsage())));\n");
function cpu(c) {
  const r = spawnSync(process.execPath, ['--require', cpuPreload, ...c.argv], { cwd: root, input: c.input ?? '', encoding: 'utf8', env: { ...env, VERDICT_BENCH_CPU: cpuOut } });
  if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stdout}${r.stderr}`);
  const { user, system } = JSON.parse(readFileSync(cpuOut, 'utf8'));
  return (user + system) / 1000;
}

function once(c) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, c.argv, { cwd: root, input: c.input ?? '', encoding: 'utf8', env });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stdout}${r.stderr}`);
  // Claude Code's PreToolUse allow (without --approve) is exit 0 and nothing on stdout or stderr.
  if (c.allow && (r.stdout !== '' || r.stderr !== '')) throw new Error(`${c.name}: not an allow: ${r.stdout}${r.stderr}`);
  return ms;
}

function healthy() {
  return new Promise((resolve) => {
    const req = request({ socketPath: socket, path: '/healthz' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', () => resolve(false));
    req.end();
  });
}

const server = spawn(process.execPath, [bin, 'serve', '--policy', policy, '--listen', `unix:${socket}`, '--no-watch'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
try {
  const t = Date.now();
  while (!(await healthy())) {
    if (Date.now() - t > 30_000) throw new Error('verdict serve did not start within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const c of cases) for (let i = 0; i < 3; i++) once(c);
  const times = cases.map(() => []);
  const cpus = cases.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (let k = 0; k < cases.length; k++) {
      const j = (i + k) % cases.length;
      times[j].push(once(cases[j]));
      cpus[j].push(cpu(cases[j]));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const base = median(times[0]);
  let missed = false;
  const rows = cases.map((c, j) => {
    const m = median(times[j]);
    const ratio = m / base;
    if (c.target !== undefined && ratio > c.target) missed = true;
    const verdict = c.target === undefined ? (j === 0 ? 'baseline' : '') : ratio <= c.target ? `≤ ${c.target}x: met` : `≤ ${c.target}x: MISSED`;
    const cpuCol = ` ${median(cpus[j]).toFixed(1)} | ${(median(cpus[j]) / median(cpus[0])).toFixed(2)}x |`;
    return `| ${c.name} | ${m.toFixed(1)} | ${ratio.toFixed(2)}x |${cpuCol} ${c.before ?? ''} | ${verdict} |`;
  });
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const table = [
    `Node ${process.version}, ${rounds} rounds in turns, medians of a child process's wall time and, in separate runs, its CPU time (load average at the end: ${load}):`,
    '',
    '| command | median ms | ratio to `node -e 0` | CPU ms (user+sys) | CPU ratio | before (issue 25) | target (wall) |',
    '|---|---:|---:|---:|---:|---|---|',
    ...rows,
  ].join('\n');
  console.log(table);
  if (args.includes('--write')) {
    const readme = join(root, 'bench/README.md');
    const text = readFileSync(readme, 'utf8');
    const start = '<!-- hook-startup:begin -->';
    const end = '<!-- hook-startup:end -->';
    const a = text.indexOf(start);
    const b = text.indexOf(end);
    if (a < 0 || b < a) throw new Error(`bench/README.md has no ${start} … ${end} block`);
    writeFileSync(readme, `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`);
  }
  process.exitCode = missed ? 1 : 0;
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(tmp, { recursive: true, force: true });
}
