// Parse and judge shell commands with @verdict/shell (issue 19): a typical 60-character agent
// command and a 10 KB script, each timed alone (p50, p99), beside two baselines in the same run:
// one RE2 rule over the raw text (what a regex rule costs) and just-bash's `parse()` alone (what the
// extraction adds on top of the parser).
//   pnpm --filter @verdict/bench exec tsx src/shell-parse.ts [calls]
import { compileRegex } from '@verdict/engine';
import { compileCommandRules, judge } from '@verdict/shell';
import { parse } from 'just-bash';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consume } from './measure.ts';

const calls = Number(process.argv[2] ?? 20_000);
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const starter = compileCommandRules(JSON.parse(readFileSync(join(root, 'fixtures/shell/starter.json'), 'utf8')));
if (!starter.ok) throw new Error('fixtures/shell/starter.json does not compile');
const rules = starter.rules;

const typical = 'git status && git diff --stat | head -20 && npm test 2>&1'; // 57 characters
const lines = readFileSync(join(root, 'fixtures/shell/benign.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { command: string }).command);
let script = '';
for (let i = 0; script.length < 10_240; i++) script += `${lines[i % lines.length]}\n`;

const regex = compileRegex('(?:^|[;&|]\\s*)rm\\s');
if (!regex.ok) throw new Error(regex.error);

function percentiles(f: () => unknown, n: number): { p50: number; p99: number } {
  for (let i = 0; i < Math.min(n, 2_000); i++) consume(f()); // warm-up
  const t: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    consume(f());
    t[i] = performance.now() - a;
  }
  t.sort((x, y) => x - y);
  return { p50: t[Math.floor(n * 0.5)]!, p99: t[Math.floor(n * 0.99)]! };
}

const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
const rows: [string, string, () => unknown, number][] = [
  ['60-char command', 'judge (parse + extract + decide)', () => judge(rules, typical), calls],
  ['60-char command', 'just-bash parse() alone', () => parse(typical), calls],
  ['60-char command', 'one RE2 rule over the text', () => regex.regex.test(typical), calls],
  [`${(script.length / 1024).toFixed(1)} KB script`, 'judge (parse + extract + decide)', () => judge(rules, script), Math.max(50, calls / 100)],
  [`${(script.length / 1024).toFixed(1)} KB script`, 'just-bash parse() alone', () => parse(script), Math.max(50, calls / 100)],
  [`${(script.length / 1024).toFixed(1)} KB script`, 'one RE2 rule over the text', () => regex.regex.test(script), Math.max(50, calls / 100)],
];
console.log(`decision on the 60-char command: ${judge(rules, typical).decision}; on the script: ${judge(rules, script).decision} (${judge(rules, script).commands.length} commands)`);
console.log('| input | what | p50 | p99 |');
console.log('|---|---|---:|---:|');
const results = rows.map(([input, what, f, n]) => {
  const r = percentiles(f, n);
  console.log(`| ${input} | ${what} | ${us(r.p50)} | ${us(r.p99)} |`);
  return r;
});
console.log(`judge / parse() alone, p50: ${(results[0]!.p50 / results[1]!.p50).toFixed(2)}x (60 chars), ${(results[3]!.p50 / results[4]!.p50).toFixed(2)}x (10 KB)`);
