// One large shell call through `verdict hook` against the same call through `verdict eval`, a fresh
// process each, alternating, medians (issue 25: the hook must cost no more than 1.2x eval). The call
// is a 480 KB command (a heredoc writing a generated file, as an agent writes one) under the Claude
// Code starter policy; both processes must give the same decision.
//   pnpm --filter @verdict/bench exec tsx src/hook-vs-eval.ts [runs]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 11);
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, process.env['VERDICT_BIN'] ?? 'packages/cli/bin/verdict.mjs');
const policy = join(root, 'fixtures/policies/claude-code.yaml');
const dir = mkdtempSync(join(tmpdir(), 'verdict-hook-vs-eval-'));

const line = (i: number): string => `{"id":${i},"name":"item-${i}","tags":["a","b"],"ok":true}`;
let body = '';
for (let i = 0; body.length < 480 * 1024; i++) body += `${line(i)}\n`;
const command = `cat > data.jsonl <<'EOF'\n${body}EOF`;
const input = JSON.stringify({ command, description: 'Write the fixture data' });
const payload = `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/workspace","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":${input},"tool_use_id":"toolu_01"}`;
const request = `${JSON.stringify({ toolName: 'Bash', input })}\n`;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function run(args: string[], stdin: string): { ms: number; stdout: string } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args], { input: stdin, cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 2) throw new Error(`${args.join(' ')}: exit ${r.status} ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

try {
  const log = join(dir, 'hook.log');
  const hook: number[] = [];
  const evalMs: number[] = [];
  let evalDecision = '';
  for (let i = 0; i < runs; i++) {
    hook.push(run(['hook', '--agent', 'claude', '--policy', policy, '--log', log], payload).ms);
    const e = run(['eval', '--policy', policy], request);
    evalMs.push(e.ms);
    evalDecision = (JSON.parse(e.stdout) as { decision: string }).decision;
  }
  const entries = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { ms: number; decision: string });
  if (entries.some((e) => e.decision !== evalDecision)) throw new Error(`hook decided ${entries[0]!.decision}, eval ${evalDecision}`);
  const h = median(hook);
  const ev = median(evalMs);
  console.log(`command: ${command.length} characters (${Buffer.byteLength(input)} bytes of input); decision ${evalDecision}; ${runs} runs each, alternating`);
  console.log(`verdict hook   wall median ${h.toFixed(0)} ms (the hook's own part ${median(entries.map((e) => e.ms)).toFixed(0)} ms)`);
  console.log(`verdict eval   wall median ${ev.toFixed(0)} ms`);
  console.log(`hook / eval    ${(h / ev).toFixed(2)}x`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
