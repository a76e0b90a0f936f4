#!/usr/bin/env node
// `node bench/hook-breakdown.mjs [--rounds N] [--bin FILE]...`: where the time of one `verdict hook`
// call goes (issue 25 item 5), by timing marks rather than a CPU profile (`--cpu-prof` makes V8 drop
// the code cache, so it shows compile costs a real call does not pay). Each run has a preload that
// records, for every module file the bundle loads, its own load time (reading, compiling from the
// code cache, running its top level; the files it loads in turn counted apart), and when the process
// exits. A chunk is counted under what most of its source is (its source map says: yaml, the
// compiler, re2js, the engine, just-bash, @verdict/shell, the CLI). What is left is Node's own start
// (process start to the first module of the bundle) and the work after loading (compiling the policy
// or building it from the cache, deciding, answering, exiting). Medians over the runs, ms. Each
// `--bin` is another build (the first is this checkout's); Bash `npm test` and Read under the Claude
// Code starter, alternating, after warm-up runs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 15;
const bins = [join(root, 'packages/cli/bin/verdict.cjs')];
args.forEach((a, i) => a === '--bin' && bins.push(args[i + 1]));
const tmp = mkdtempSync(join(tmpdir(), 'verdict-hook-breakdown-'));
const preload = join(tmp, 'marks.cjs');
writeFileSync(
  preload,
  `const Module = require('node:module'); const fs = require('node:fs');
const load = Module._load; const stack = []; const rows = [];
Module._load = function (request, parent, isMain) {
  let file = request; try { file = Module._resolveFilename(request, parent, isMain); } catch {}
  if (!file.startsWith('/') || Module._cache[file]) return load.apply(this, arguments);
  const t = performance.now(); stack.push(0);
  try { return load.apply(this, arguments); } finally {
    const d = performance.now() - t; const nested = stack.pop();
    if (stack.length) stack[stack.length - 1] += d;
    rows.push({ file, start: t, self: d - nested });
  }
};
process.on('exit', () => fs.writeFileSync(process.env.MARKS_OUT, JSON.stringify({ rows, exit: performance.now() })));
`,
);
const payload = (tool, input) =>
  JSON.stringify({ session_id: 's', transcript_path: '/t.jsonl', cwd: '/workspace', permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: 't' });
const calls = {
  Bash: payload('Bash', { command: 'npm test' }),
  Read: payload('Read', { file_path: '/workspace/src/index.ts' }),
};

const groupCache = new Map();
/** What most of a chunk's source is. */
function groupOf(file) {
  if (!file.endsWith('.cjs') || !file.includes('/dist/')) return file.includes('/bin/') ? 'entry (bin, code cache)' : 'other';
  if (groupCache.has(file)) return groupCache.get(file);
  let group = 'cli';
  try {
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
    const size = {};
    map.sources.forEach((s, i) => {
      const n = (map.sourcesContent?.[i] ?? '').length;
      const k = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(yaml|re2js|just-bash|ajv)\//.exec(s)?.[1] ?? /packages\/(compiler|engine|shell)\//.exec(s)?.[1] ?? (/\.\.\/\.\.\/\.\.\/(compiler|engine|shell)\//.exec(s)?.[1] ?? 'cli');
      size[k] = (size[k] ?? 0) + n;
    });
    group = Object.entries(size).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'cli';
  } catch {
    // no map: the CLI's own
  }
  const names = { yaml: 'compiler (yaml, validators, checks)', compiler: 'compiler (yaml, validators, checks)', re2js: 'engine: re2js, canonical JSON', engine: 'engine: approver', 'just-bash': 'shell parser (just-bash) and judge', shell: 'shell: capability table, judge', cli: 'cli (entry, hook, dialects, cache)', ajv: 'compiler (yaml, validators, checks)' };
  groupCache.set(file, names[group] ?? group);
  return groupCache.get(file);
}

function once(bin, call) {
  const out = join(tmp, 'marks.json');
  const r = spawnSync(process.execPath, ['--require', preload, bin, 'hook', '--agent', 'claude', '--policy', 'fixtures/policies/claude-code.yaml'], {
    cwd: root,
    input: calls[call],
    encoding: 'utf8',
    env: { ...process.env, MARKS_OUT: out },
  });
  if (r.status !== 0 || r.stdout !== '') throw new Error(`${bin} ${call}: not an allow: ${r.status} ${r.stdout}${r.stderr}`);
  const { rows, exit } = JSON.parse(readFileSync(out, 'utf8'));
  const first = Math.min(...rows.map((x) => x.start));
  const by = { 'Node start (to the first module of the bundle)': first };
  let loads = 0;
  for (const x of rows) {
    const g = groupOf(x.file);
    by[`load: ${g}`] = (by[`load: ${g}`] ?? 0) + x.self;
    loads += x.self;
  }
  by['after loading: compile or cache, decide, answer, exit'] = exit - first - loads;
  by['total (process start to exit)'] = exit;
  return by;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
try {
  for (const bin of bins) if (!existsSync(bin)) throw new Error(`no ${bin}`);
  const runs = new Map();
  for (let i = 0; i < 2; i++) for (const bin of bins) for (const call of Object.keys(calls)) once(bin, call);
  for (let i = 0; i < rounds; i++) {
    for (const bin of bins) {
      for (const call of Object.keys(calls)) {
        const key = `${bin}\0${call}`;
        if (!runs.has(key)) runs.set(key, []);
        runs.get(key).push(once(bin, call));
      }
    }
  }
  const columns = [...runs.keys()];
  const rowNames = [...new Set(columns.flatMap((k) => runs.get(k).flatMap((r) => Object.keys(r))))];
  const order = (n) => (n.startsWith('Node') ? 0 : n.startsWith('load') ? 1 : n.startsWith('after') ? 2 : 3);
  rowNames.sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const label = (k) => {
    const [bin, call] = k.split('\0');
    return `${call}${bin === bins[0] ? '' : ` (${bin.replace(root, '')})`}`;
  };
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`Node ${process.version}, ${rounds} runs each, medians (ms); load average ${load}`);
  console.log('');
  console.log(`| | ${columns.map(label).join(' | ')} |`);
  console.log(`|---|${columns.map(() => '---:').join('|')}|`);
  for (const n of rowNames) console.log(`| ${n} | ${columns.map((k) => median(runs.get(k).map((r) => r[n] ?? 0)).toFixed(1)).join(' | ')} |`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
