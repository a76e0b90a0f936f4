#!/usr/bin/env node
// Latency through the real agents (issue 27 item 4): a whole headless agent run against the fake model
// server, with one and with five tool calls (`ls` and others every starter allows), under no hook, a no-op hook (`true`, installed
// the same way with `--binary /bin/true`) and `verdict hook`; the three alternate within each round (the
// order rotates), one run at a time. Prints a Markdown table of medians.
//
//   pnpm build && (cd e2e/agents && npm ci) && node bench/real-agents.mjs [--rounds 7] [--agent claude,codex,gemini]
import { parseArgs } from 'node:util';
import { AGENTS } from '../e2e/agents/lib/agents.mjs';
import { runCase } from '../e2e/agents/lib/run-case.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' }, agent: { type: 'string', default: 'claude,codex,gemini' } } });
const rounds = Number(values.rounds);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const MODES = ['none', 'true', 'verdict'];
/** Allowed by every starter policy. */
const COMMANDS = ['ls', 'ls sub', 'pwd', 'git status', 'ls -a'];
const rowsOut = [];
for (const id of values.agent.split(',')) {
  const a = AGENTS[id];
  for (const calls of [1, 5]) {
    const times = { none: [], true: [], verdict: [] };
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < MODES.length; k++) {
        const mode = MODES[(k + r) % MODES.length];
        const c = {
          id: `bench-${calls}`,
          // Distinct commands: Gemini CLI's loop detection stops a turn that repeats one call.
          calls: COMMANDS.slice(0, calls).map((cmd) => a.shell(cmd)),
          effect: (ctx, results) => results.length === calls && results[0].text.includes('hello.txt'),
          install: mode === 'true' ? { binary: '/bin/true' } : undefined,
        };
        const res = await runCase(a, c, { hooked: mode !== 'none' });
        if (!res.effect) throw new Error(`${a.name} ${mode} ${calls} calls: the calls did not all run: ${JSON.stringify(res.results).slice(0, 400)}`);
        if (mode === 'verdict' && res.log.filter((l) => l.decision === 'allow').length !== calls) throw new Error(`${a.name}: verdict did not answer every call`);
        times[mode].push(res.sessions[0].ms);
      }
    }
    const m = Object.fromEntries(MODES.map((k) => [k, median(times[k])]));
    rowsOut.push({ agent: `${a.name} ${a.version}`, calls, ...m });
    process.stderr.write(`${a.name} ${calls}: ${JSON.stringify(times)}\n`);
  }
}
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
const per = (x, calls) => `${x >= 0 ? '+' : ''}${Math.round(x / calls)} ms`;
console.log(`| agent | tool calls | no hook | \`true\` hook | \`verdict hook\` | verdict − no hook, per call | verdict − \`true\`, per call |`);
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rowsOut) console.log(`| ${r.agent} | ${r.calls} | ${fmt(r.none)} | ${fmt(r.true)} | ${fmt(r.verdict)} | ${per(r.verdict - r.none, r.calls)} | ${per(r.verdict - r.true, r.calls)} |`);
console.log(`\n(medians of ${rounds} rounds; ${new Date().toISOString().slice(0, 10)}; load average ${(await import('node:os')).loadavg()[0].toFixed(1)})`);
