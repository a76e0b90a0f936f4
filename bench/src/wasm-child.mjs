// re2-wasm in its own process: its 16 MiB heap never frees compiled regexes and the process aborts
// after ~990 compilations, so each measurement gets a fresh child. Reads a job file, prints JSON.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { RE2 } = require('re2-wasm');

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { policy, calls, minMs } = job;
const t0 = performance.now();
const prep = (list, rules) =>
  rules.map((r, index) => ({ list, index, tool: r.tool.toLowerCase(), re: r.match === '' ? null : new RE2(r.match, 'u') }));
const deny = prep('deny', policy.deny);
const allow = prep('allow', policy.allow);
const compileMs = performance.now() - t0;
const reason = policy.reason === '' ? 'denied by pattern policy' : policy.reason;
const defaultAllow = policy.default.toLowerCase() === 'allow';
const first = (rules, tool, input) => {
  for (const r of rules) {
    if (r.tool !== '' && r.tool !== tool) continue;
    if (r.re === null || r.re.test(input)) return r;
  }
  return undefined;
};
const decide = (call) => {
  const tool = call.toolName.toLowerCase();
  const d = first(deny, tool, call.input);
  if (d) return `deny|${reason}|deny:${d.index}`;
  const a = first(allow, tool, call.input);
  if (a) return `allow||allow:${a.index}`;
  return defaultAllow ? 'allow||default' : `deny|${reason}|default`;
};
const outcomes = calls.map(decide);
// throughput
let n = 0;
const start = performance.now();
while (performance.now() - start < minMs) for (const c of calls) (decide(c), n++);
const perSec = n / ((performance.now() - start) / 1000);
const lat = [];
for (const c of calls) {
  const s = process.hrtime.bigint();
  decide(c);
  lat.push(Number(process.hrtime.bigint() - s));
}
lat.sort((a, b) => a - b);
process.stdout.write(
  JSON.stringify({
    compileMs,
    perSec,
    p50: lat[Math.floor(lat.length * 0.5)],
    p99: lat[Math.floor(lat.length * 0.99)],
    rss: process.memoryUsage().rss,
    outcomes,
  }),
);
