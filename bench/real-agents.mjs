#!/usr/bin/env node
// Latency through the real agents (issue 27 item 4): see e2e/agents/lib/latency.mjs for what is timed.
// Prints a Markdown table of medians (the raw times on stderr). The suite measures the same in its run
// (`node e2e/agents/run.mjs --latency-rounds N`), for docs/real-agents.md.
//
//   pnpm build && (cd e2e/agents && npm ci) && node bench/real-agents.mjs [--rounds 7] [--agent claude,codex,gemini]
import { parseArgs } from 'node:util';
import { AGENTS } from '../e2e/agents/lib/agents.mjs';
import { latencyTable, measureLatency } from '../e2e/agents/lib/latency.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' }, agent: { type: 'string', default: 'claude,codex,gemini' } } });
const m = await measureLatency(values.agent.split(',').map((id) => AGENTS[id]), Number(values.rounds), { log: (s) => process.stderr.write(s) });
console.log(latencyTable(m));
