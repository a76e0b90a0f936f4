#!/usr/bin/env node
// The differential of Verdict's models of Codex `.rules` and Gemini CLI policy TOML against the agents' own
// engines: generated (rule file, call) pairs, each decided by the engine and by the model; every
// disagreement printed; exit 1 on any, or when fewer pairs ran than asked.
//   node e2e/native-diff/run.mjs --seed 1 --pairs 2000 [--agent codex,gemini,codex-agent,claude-agent] [--agent-cases 150] [--claude-cases 1000]
//                                [--show 20] [--out file.json]
// codex: `codex execpolicy check` on generated .rules files and argvs; gemini: Gemini CLI's TOML loader and
// PolicyEngine in-process; codex-agent: one `codex exec` run (fake model server) playing generated shell
// scripts, for the `bash -lc` split that `execpolicy check` does not do.
import { writeFileSync } from 'node:fs';
import { claudeAgentDiff } from './lib/claude-agent.mjs';
import { codexAgentDiff } from './lib/codex-agent.mjs';
import { codexDiff } from './lib/codex.mjs';
import { geminiDiff } from './lib/gemini.mjs';
import { loadModels } from './lib/model.mjs';
import { rng } from './lib/rng.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const seed = Number(opt('seed', '1'));
const pairs = Number(opt('pairs', '2000'));
const agents = opt('agent', 'codex,gemini,codex-agent,claude-agent').split(',');
const out = opt('out', undefined);
const maxShown = Number(opt('show', '20'));
// The agent-level Codex check (the bash -lc split) runs `codex exec` once with this many scripts.
const agentCases = Number(opt('agent-cases', '150'));
// Claude Code's matcher is closed: the real client (from e2e/agents) answers this many generated commands.
const claudeCases = Number(opt('claude-cases', '1000'));

const print = (s) => process.stdout.write(`${s}\n`);
const models = await loadModels();
const results = {};
let shown = 0;
const onDisagreement = (d) => {
  if (shown++ < maxShown) print(`DISAGREE ${JSON.stringify(d)}`);
};
for (const agent of agents) {
  const t0 = Date.now();
  const r = rng(seed * 7919 + agent.length);
  const res = agent === 'codex'
    ? await codexDiff({ r, pairs, models, onDisagreement })
    : agent === 'codex-agent'
      ? await codexAgentDiff({ r, cases: agentCases, models, onDisagreement })
      : agent === 'claude-agent'
        ? await claudeAgentDiff({ r, cases: claudeCases, models, onDisagreement })
        : await geminiDiff({ r, pairs, models, onDisagreement });
  res.seconds = (Date.now() - t0) / 1000;
  results[agent] = res;
  print(`${agent}: ${res.pairs} pairs (${res.files} rule files), ${res.agree} agree, ${res.disagree} disagree, ${res.seconds.toFixed(1)} s ${JSON.stringify(res.detail ?? { loadErrors: res.loadErrors, decidedByARule: res.matched })}`);
}
const wanted = (agent) => (agent === 'codex-agent' ? agentCases : agent === 'claude-agent' ? claudeCases : pairs);
const failed = Object.entries(results).filter(([a, x]) => x.disagree > 0 || x.pairs < wanted(a)).length;
// One row per engine, counted by .ci/run like the real-agent suite's rows.
const rows = Object.entries(results).map(([agent, x]) => ({ agent, status: x.disagree === 0 && x.pairs >= wanted(agent) ? 'passed' : 'failed', ...x }));
if (out) writeFileSync(out, JSON.stringify({ seed, pairs, rows }, null, 2));
print(`${Object.keys(results).length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
