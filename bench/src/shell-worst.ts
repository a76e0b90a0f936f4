// The command judge on hostile texts (issue 19: "parsing is total, bounded time on 1 MB and
// depth-10,000 inputs"): each shape judged a few times, the slowest and the median run, with its
// decision, beside one RE2 rule over the same text (the baseline, in the same run). A hook decides
// synchronously, so these times are what an agent waits at worst before its hook answers.
//   pnpm --filter @verdict/bench exec tsx src/shell-worst.ts [runs]
import { compileRegex } from '@verdict/engine';
import { compileCommandRules, judge, LIMITS } from '@verdict/shell';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consume } from './measure.ts';

const runs = Number(process.argv[2] ?? 5);
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const starter = compileCommandRules(JSON.parse(readFileSync(join(root, 'fixtures/shell/starter.json'), 'utf8')));
if (!starter.ok) throw new Error('fixtures/shell/starter.json does not compile');
const rules = starter.rules;
const regex = compileRegex('(?:^|[;&|]\\s*)rm\\s');
if (!regex.ok) throw new Error(regex.error);

const benign = readFileSync(join(root, 'fixtures/shell/benign.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { command: string }).command);
const script = (bytes: number): string => {
  let s = '';
  for (let i = 0; s.length < bytes; i++) s += `${benign[i % benign.length]}\n`;
  return s;
};
const N = 10_000;
const M = LIMITS.maxChars / 2 - 10;
const MB = LIMITS.maxChars - 1_000;

const shapes: [string, string][] = [
  ['10 KB of benign commands (reference)', script(10_240)],
  ['1 MB of benign commands', script(MB)],
  ['one 1 MB argument', `ls ${'a'.repeat(MB)}`],
  ['10,000 `&&`', `${'ls && '.repeat(N)}rm x`],
  ['10,000 nested `$( )`', `${'echo $('.repeat(N)}rm x${')'.repeat(N)}`],
  ['10,000 nested subshells', `${'( '.repeat(N)}rm x${' )'.repeat(N)}`],
  ['10,000 nested brace groups', `${'{ '.repeat(N)}rm x${'; }'.repeat(N)}`],
  ['10,000 nested `if`', `${'if true; then '.repeat(N)}rm x${'; fi'.repeat(N)}`],
  ['1 MB of nested `$( )`', `${'$('.repeat(M)}rm${')'.repeat(M)}`],
  ['199 nested `$( )` around 1 MB', `${'$('.repeat(199)}ls ${'a'.repeat(MB)}${')'.repeat(199)}`],
  ['16 nested `eval` around 1 MB', `${'eval '.repeat(16)}ls ${'a'.repeat(MB)}`],
  ['two `eval`s around 1 MB', `eval eval ls ${'a'.repeat(MB)}`],
  ['1 MB of one unclosed quote', `echo '${'a'.repeat(MB)}`],
];

const time = (f: () => unknown): number => {
  const a = performance.now();
  consume(f());
  return performance.now() - a;
};
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));

console.log(`node ${process.version}; ${runs} runs a shape; the starter command rules`);
console.log('| text | characters | decision | judge, median | judge, slowest | one RE2 rule, median | judge / RE2 |');
console.log('|---|---:|---|---:|---:|---:|---:|');
let worst = 0;
for (const [name, text] of shapes) {
  const first = judge(rules, text); // also the warm-up
  const decision = first.decision === null ? 'no rule decides' : first.decision === 'ask' && first.unknown ? `unknown (${first.unknown.reason.slice(0, 60)})` : first.decision;
  const j: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < runs; i++) {
    j.push(time(() => judge(rules, text)));
    r.push(time(() => regex.regex.test(text)));
  }
  j.sort((a, b) => a - b);
  r.sort((a, b) => a - b);
  const med = (xs: number[]) => xs[Math.floor(xs.length / 2)]!;
  worst = Math.max(worst, j[j.length - 1]!);
  console.log(`| ${name} | ${text.length.toLocaleString('en')} | ${decision} | ${ms(med(j))} ms | ${ms(j[j.length - 1]!)} ms | ${ms(med(r))} ms | ${(med(j) / Math.max(med(r), 0.001)).toFixed(0)}× |`);
}
console.log(`slowest judge call of all: ${ms(worst)} ms`);
