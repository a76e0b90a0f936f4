// The latency of one `verdict hook` call per agent, as the agent pays it: a fresh process per call.
// Wall time from spawn to exit, and, from the hook's own log line, how much of it came before the
// command ran (Node and module start-up) and how much was the hook (read the payload, load the
// policy, decide, answer). Baselines in the same run: `node -e ''` and `verdict --version`.
//   pnpm --filter @verdict/bench exec tsx src/hook-latency.ts [runs]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[2] ?? 9);
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'packages/cli/bin/verdict.mjs');
const dir = mkdtempSync(join(tmpdir(), 'verdict-hook-latency-'));

const CALLS = {
  claude: ['fixtures/policies/claude-code.yaml', '{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/workspace","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"npm test","description":"Run test suite","timeout":120000,"run_in_background":false},"tool_use_id":"toolu_01"}'],
  codex: ['fixtures/policies/codex.yaml', '{"session_id":"s","turn_id":"7","transcript_path":"/t.jsonl","cwd":"/workspace","hook_event_name":"PreToolUse","model":"gpt-5-codex","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"git push --force origin main"},"tool_use_id":"call_1"}'],
  gemini: ['fixtures/policies/gemini-cli.yaml', '{"session_id":"s","transcript_path":"","cwd":"/workspace","hook_event_name":"BeforeTool","timestamp":"2026-08-21T10:00:00.000Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf build","description":"clean","dir_path":"."}}'],
  cursor: ['fixtures/policies/cursor.yaml', '{"conversation_id":"c","generation_id":"g","model":"m","hook_event_name":"beforeReadFile","cursor_version":"3.5.38","workspace_roots":["/workspace"],"file_path":"/workspace/README.md","content":"# readme","attachments":[]}'],
} as const;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function wall(args: string[], input = ''): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { input, cwd: root, encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0 && r.status !== 2) throw new Error(`${args.join(' ')}: exit ${r.status} ${r.stderr}`);
  return ms;
}

try {
  const node = Array.from({ length: runs }, () => wall(['-e', '']));
  const version = Array.from({ length: runs }, () => wall([bin, '--version']));
  console.log(`runs per row: ${runs} (medians, ms)`);
  console.log(`node -e ''            wall ${median(node).toFixed(0)}`);
  console.log(`verdict --version     wall ${median(version).toFixed(0)}`);
  console.log('agent    wall  before-command  hook  decision');
  for (const [agent, [policy, payload]] of Object.entries(CALLS)) {
    const log = join(dir, `${agent}.log`);
    const walls = Array.from({ length: runs }, () => wall([bin, 'hook', '--agent', agent, '--policy', policy, '--log', log], payload));
    const entries = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { ms: number; sinceStartMs: number; decision: string });
    const hook = median(entries.map((e) => e.ms));
    const before = median(entries.map((e) => e.sinceStartMs - e.ms));
    console.log(`${agent.padEnd(8)} ${median(walls).toFixed(0).padStart(4)}  ${before.toFixed(0).padStart(14)}  ${hook.toFixed(0).padStart(4)}  ${entries[0]!.decision}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
