// Latency through the real agents: a whole headless agent run against the fake model server, with one and
// with five tool calls (`ls` and others every starter allows), under no hook, a no-op hook (`true`, installed
// the same way with `--binary /bin/true`) and `verdict hook`; the three alternate within each round (the
// order rotates), one run at a time. Used by `run.mjs --latency-rounds N` (the matrix's latency table) and
// by bench/real-agents.mjs.
import { loadavg } from 'node:os';
import { runCase } from './run-case.mjs';

export const MODES = ['none', 'true', 'verdict'];
/** Allowed by every starter policy. */
const COMMANDS = ['ls', 'ls sub', 'pwd', 'git status', 'ls -a'];

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Medians per agent and number of calls: `{agent, version, calls, none, true, verdict, raw}` (milliseconds).
 * Throws when a run's calls did not all run, or `verdict hook` did not allow each of them.
 */
export async function measureLatency(agents, rounds, { root, log = () => {} } = {}) {
  const rows = [];
  for (const a of agents) {
    for (const calls of [1, 5]) {
      const times = { none: [], true: [], verdict: [] };
      for (let r = 0; r < rounds; r++) {
        for (let k = 0; k < MODES.length; k++) {
          const mode = MODES[(k + r) % MODES.length];
          const c = {
            id: `latency-${calls}`,
            // Distinct commands: Gemini CLI's loop detection stops a turn that repeats one call.
            calls: COMMANDS.slice(0, calls).map((cmd) => a.shell(cmd)),
            effect: (ctx, results) => results.length === calls && results[0].text.includes('hello.txt'),
            install: mode === 'true' ? { binary: '/bin/true' } : undefined,
          };
          const res = await runCase(a, c, { hooked: mode !== 'none', ...(root ? { root } : {}) });
          if (!res.effect) throw new Error(`${a.name} ${mode} ${calls} calls: the calls did not all run: ${JSON.stringify(res.results).slice(0, 400)}`);
          if (mode === 'verdict' && res.log.filter((l) => l.decision === 'allow').length !== calls) throw new Error(`${a.name}: verdict did not answer every call`);
          times[mode].push(res.sessions[0].ms);
        }
      }
      rows.push({ agent: a.id, name: a.name, version: a.version, calls, ...Object.fromEntries(MODES.map((k) => [k, median(times[k])])), raw: times });
      log(`${a.name} ${calls}: ${JSON.stringify(times)}\n`);
    }
  }
  return { rounds, date: new Date().toISOString(), load: Number(loadavg()[0].toFixed(1)), rows };
}

/** The Markdown table of a measurement. */
export function latencyTable(m) {
  const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const per = (x, calls) => `${x >= 0 ? '+' : ''}${Math.round(x / calls)} ms`;
  const out = [
    '| agent | tool calls | no hook | `true` hook | `verdict hook` | verdict − no hook, per call | verdict − `true`, per call |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of m.rows) out.push(`| ${r.name} ${r.version} | ${r.calls} | ${fmt(r.none)} | ${fmt(r.true)} | ${fmt(r.verdict)} | ${per(r.verdict - r.none, r.calls)} | ${per(r.verdict - r.true, r.calls)} |`);
  out.push('', `(medians of ${m.rounds} rounds; ${m.date.slice(0, 10)}; load average ${m.load})`);
  return out.join('\n');
}
