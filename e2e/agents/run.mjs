#!/usr/bin/env node
// The real-agent suite: every case of every agent, hooked (and deny cases also unhooked, to show the
// call would have run), judged by the side effect on disk and by what the model was sent back.
//
//   node run.mjs [--agent claude,codex,gemini,claude-2.1.240] [--case REGEX] [--jobs N] [--no-baseline]
//                [--latency-rounds N]   (then also the latency table of lib/latency.mjs, one run at a time)
//
// Writes out/results.json (the matrix generator reads it) and ends with the counts:
//   `N passed, N failed` and, on their own lines, the expected failures and unexpected passes.
// An agent that cannot be run fails its cases loudly: nothing is skipped.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AGENTS, E2E } from './lib/agents.mjs';
import { casesFor } from './lib/cases.mjs';
import { measureLatency } from './lib/latency.mjs';
import { runCase, VERDICT } from './lib/run-case.mjs';

const { values } = parseArgs({
  options: {
    agent: { type: 'string', default: 'claude,claude-2.1.240,codex,gemini' },
    case: { type: 'string' },
    jobs: { type: 'string', default: '3' },
    'no-baseline': { type: 'boolean', default: false },
    'latency-rounds': { type: 'string', default: '0' },
    keep: { type: 'boolean', default: false },
    out: { type: 'string', default: join(E2E, 'out', 'results.json') },
    // Judge the runs of an earlier results file again instead of running the agents.
    from: { type: 'string' },
  },
});

const started = Date.now();
const root = mkdtempSync(join(tmpdir(), 'verdict-e2e-'));
const agents = values.agent.split(',').map((id) => {
  const a = AGENTS[id];
  if (!a) throw new Error(`unknown agent ${id} (want ${Object.keys(AGENTS).join(', ')})`);
  return a;
});
const filter = values.case ? new RegExp(values.case) : undefined;
const CASES = new Map(agents.map((a) => [a, casesFor(a)]));

const problems = [];
if (!existsSync(VERDICT) || !existsSync(join(VERDICT, '..', '..', 'dist'))) problems.push(`the built verdict is missing (${VERDICT}): run \`pnpm build\` first`);
for (const a of agents) if (!existsSync(a.bin)) problems.push(`${a.name} ${a.version} is not installed (${a.bin}): run \`npm ci\` in e2e/agents${a.id === 'claude-2.1.240' ? '/claude-old' : ''}`);

/** Every run to make: the hooked run of each case, and the baseline of each deny case. */
const jobs = [];
for (const a of agents) {
  for (const c of CASES.get(a)) {
    if (filter && !filter.test(c.id)) continue;
    jobs.push({ a, c, hooked: true });
    if (!values['no-baseline'] && c.expect === 'deny' && c.baseline !== false) jobs.push({ a, c, hooked: false });
  }
}

const runs = [];
async function worker() {
  for (;;) {
    const job = jobs.shift();
    if (!job) return;
    let r;
    try {
      r = await runCase(job.a, job.c, { hooked: job.hooked, root });
    } catch (err) {
      r = { agent: job.a.id, version: job.a.version, case: job.c.id, hooked: job.hooked, error: String(err?.stack ?? err), sessions: [], results: [], log: [] };
    }
    runs.push({ ...r, job });
    process.stdout.write(`${job.hooked ? 'hook ' : 'none '} ${job.a.id.padEnd(15)} ${job.c.id.padEnd(34)} effect=${r.effect ?? '-'}${r.effect2 !== undefined ? `/${r.effect2}` : ''} ${r.error ? `ERROR ${r.error.split('\n')[0]}` : `${r.sessions.map((s) => `${s.ms}ms`).join('+')}`}\n`);
  }
}

let earlier;
if (values.from) {
  jobs.length = 0;
  earlier = JSON.parse(readFileSync(values.from, 'utf8'));
  for (const r of earlier.runs) {
    const a = agents.find((x) => x.id === r.agent);
    const c = a && CASES.get(a).find((x) => x.id === r.case);
    if (c) runs.push({ ...r, job: { a, c, hooked: r.hooked } });
  }
} else if (problems.length === 0) {
  const n = Math.max(1, Number(values.jobs) || 1);
  await Promise.all(Array.from({ length: n }, worker));
}

// The latency table, measured in this run after the cases (alone, so that the cases do not load the machine).
let latency = earlier?.latency;
const latencyRounds = Number(values['latency-rounds']) || 0;
if (!values.from && problems.length === 0 && latencyRounds > 0) {
  const measured = agents.filter((a) => a.id !== 'claude-2.1.240');
  try {
    latency = await measureLatency(measured, latencyRounds, { root, log: (s) => process.stdout.write(`latency ${s}`) });
  } catch (err) {
    problems.push(`latency: ${String(err?.message ?? err)}`);
  }
}

/** Judge one case from its hooked run (and its baseline). */
function judge(a, c, hooked, baseline) {
  const row = { agent: a.id, agentName: a.name, version: a.version, case: c.id, title: c.title, expect: c.expect, expectedFailure: c.expectedFailure };
  if (!hooked || hooked.error) {
    row.status = 'failed';
    row.why = hooked?.error ?? 'not run';
    return row;
  }
  const results = hooked.results;
  // Verdict blocked a call: its log holds a deny (or an ask, which Claude Code's `-p` turns into a
  // deny) and the model read Verdict's reason.
  const logBlocked = hooked.log.some((l) => l.decision === 'deny' || l.decision === 'ask');
  const verdictSaid = logBlocked && results.some((t) => t.includes('verdict: '));
  const ranEffect = hooked.effect || hooked.effect2 === true;
  row.sawVerdict = verdictSaid;
  row.effect = ranEffect;
  row.seen = results.at(-1) ?? '';
  row.logDecisions = hooked.log.map((l) => l.decision ?? (l.error ? 'error' : '?'));
  row.ms = hooked.sessions.map((s) => s.ms);
  row.hookRan = hooked.log.length > 0;
  let ok;
  let why = '';
  if (hooked.sessions.some((s) => s.results.length === 0)) {
    ok = false;
    why = `the agent sent no tool result back (exit ${hooked.sessions.map((s) => s.code).join('/')}; did it run?): ${hooked.sessions.at(-1)?.tail.slice(-400)}`;
  } else if (c.expect === 'allow') {
    ok = hooked.effect && !logBlocked && hooked.log.some((l) => l.decision === 'allow');
    if (!ok) why = !hooked.effect ? 'the allowed call had no effect' : logBlocked ? 'Verdict denied a call of it' : 'the hook log shows no allow';
  } else {
    ok = !ranEffect && (!c.needsVerdictReason || verdictSaid);
    if (!ok) why = ranEffect ? 'the denied call took effect' : 'no Verdict deny reached the model';
  }
  // Who stopped a denied call: Verdict, or the agent itself (its own refusal, its shell, or a failed hook).
  row.by = c.expect === 'deny' && !ranEffect ? (verdictSaid ? 'verdict' : 'agent') : undefined;
  if (baseline) {
    row.baseline = baseline.error ? 'error' : baseline.effect || baseline.effect2 === true ? 'ran' : 'did not run';
    row.baselineSeen = baseline.results?.at(-1) ?? '';
  }
  if (ok) row.status = c.expectedFailure ? 'xpass' : 'passed';
  else row.status = c.expectedFailure ? 'xfail' : 'failed';
  row.why = why;
  return row;
}

const rows = [];
for (const p of problems) rows.push({ agent: '-', case: p.startsWith('latency: ') ? 'latency' : 'setup', status: 'failed', why: p });
for (const a of agents) {
  for (const c of CASES.get(a)) {
    if (filter && !filter.test(c.id)) continue;
    if (problems.some((p) => !p.startsWith('latency: '))) {
      rows.push({ agent: a.id, case: c.id, status: 'failed', why: 'not run: setup failed' });
      continue;
    }
    const hooked = runs.find((r) => r.job.a === a && r.job.c === c && r.job.hooked);
    const baseline = runs.find((r) => r.job.a === a && r.job.c === c && !r.job.hooked);
    rows.push(judge(a, c, hooked, baseline));
  }
}

mkdirSync(join(values.out, '..'), { recursive: true });
writeFileSync(values.out, `${JSON.stringify({ date: earlier?.date ?? new Date().toISOString(), seconds: earlier?.seconds ?? Math.round((Date.now() - started) / 1000), agents: agents.map((a) => ({ id: a.id, name: a.name, version: a.version })), rows, ...(latency ? { latency } : {}), runs: runs.map(({ job, ...r }) => r) }, null, 1)}\n`);
if (!values.keep) rmSync(root, { recursive: true, force: true });

const count = (s) => rows.filter((r) => r.status === s);
console.log('');
for (const r of count('failed')) console.log(`FAILED  ${r.agent} ${r.case}: ${r.why}`);
for (const r of count('xpass')) console.log(`UNEXPECTED PASS  ${r.agent} ${r.case} (marked ${r.expectedFailure}): switch it on`);
for (const r of count('xfail')) console.log(`expected failure  ${r.agent} ${r.case}: ${r.expectedFailure}`);
const weak = rows.filter((r) => r.baseline === 'did not run');
for (const r of weak) console.log(`note  ${r.agent} ${r.case}: without the hook the call did not take effect either (stopped by ${r.by === 'agent' ? 'the agent' : 'Verdict'}; Verdict answered ${r.logDecisions?.join(', ') || 'nothing'})`);
console.log(`real agents: ${earlier?.seconds ?? Math.round((Date.now() - started) / 1000)} s, ${runs.length} agent runs`);
console.log(`${count('xfail').length} expected failures, ${count('xpass').length} unexpected passes`);
console.log(`${count('passed').length + count('xpass').length} passed, ${count('failed').length} failed`);
process.exitCode = count('failed').length > 0 ? 1 : 0;
