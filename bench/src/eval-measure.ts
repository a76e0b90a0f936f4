// Where `verdict eval`'s time per line goes, in-process (not part of `pnpm bench`):
//   pnpm --filter @verdict/bench exec tsx src/eval-measure.ts [lines]
// Feeds the bench corpus (100-rule policy, makeCalls lines) through streamDecisions with an in-memory
// stdin (64 KiB chunks, as a file on stdin gives) and a discarding stdout, with the real approver and
// with a stub one (one fixed result: the cost outside the engine), plus the pieces alone.
//   ONLY=stub|real     only streamDecisions, 10 passes (for --cpu-prof)
//   ONLY=ab BASELINE=/path/to/an/older/eval.ts [PASSES=12]   that copy against the current one, alternating passes (CPU and wall time)
// The machine is shared: compare figures from one process, and trust minimums over single runs.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileFile } from '@verdict/compiler';
import type { ApprovalRequest, CompiledApprover, RuledResult } from '@verdict/engine';
import { makeCalls, makePolicy } from './corpus.ts';
import { streamDecisions } from '../../packages/cli/src/commands/eval.ts';
import { parseRequestLine } from '../../packages/cli/src/input/eval-request.ts';
import type { CommandIo } from '../../packages/cli/src/args.ts';

const count = Number(process.argv[2] ?? 100_000);
const policy = makePolicy(100);
const distinct = makeCalls(10_000);
const calls = Array.from({ length: Math.ceil(count / distinct.length) }, () => distinct).flat().slice(0, count);
const text = calls.map((c) => JSON.stringify(c)).join('\n') + '\n';
const bytes = Buffer.from(text, 'utf8');
const lines = text.slice(0, -1).split('\n');

const dir = mkdtempSync(join(tmpdir(), 'verdict-eval-measure-'));
const file = join(dir, 'policy.json');
writeFileSync(file, JSON.stringify({ approver: { mode: policy.mode, default: policy.default, reason: policy.reason, deny: policy.deny, allow: policy.allow } }, null, 1));
const compiled = compileFile(file);
rmSync(dir, { recursive: true, force: true });
const real = compiled.approver as CompiledApprover;
if (!real) throw new Error('the benchmark policy does not load');

// The stub answers like a real rule hit (a rule with a span), so formatting does its usual work.
const sample = real.decide(calls[0]!);
const stub = { ...real, decide: (_r: ApprovalRequest): RuledResult => sample } as CompiledApprover;

function io(sink: { n: number }): CommandIo {
  async function* stdin() {
    for (let i = 0; i < bytes.length; i += 65536) yield bytes.subarray(i, i + 65536);
  }
  const stdout = { write: (s: string) => ((sink.n += s.length), true), once: () => stdout };
  return { stdin: stdin() as unknown as NodeJS.ReadableStream, stdout: stdout as unknown as NodeJS.WritableStream, stderr: process.stderr, cwd: '.', isTTY: false };
}

async function best(name: string, f: () => unknown | Promise<unknown>, runs = 7): Promise<void> {
  await f(); // warm-up
  let min = Infinity;
  const all: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    const ms = performance.now() - t;
    all.push(ms);
    min = Math.min(min, ms);
  }
  all.sort((a, b) => a - b);
  const med = all[Math.floor(all.length / 2)]!;
  console.log(`${name.padEnd(44)} ${((min * 1000) / count).toFixed(2)} µs/line best, ${((med * 1000) / count).toFixed(2)} median  (${((count / med) * 1000 / 1000).toFixed(0)}k/s median)`);
}

const sink = { n: 0 };
const only = process.env['ONLY'];
if (only === 'ab') {
  // A/B against BASELINE in one process, ABBA order, per-pass minimum and median of PASSES (12)
  // passes each, the first two dropped; CPU time of the process (user + system), which a busy
  // shared machine inflates less than wall time, and wall time beside it.
  const base = ((await import(process.env['BASELINE']!)) as { streamDecisions: typeof streamDecisions }).streamDecisions;
  const passes = Number(process.env['PASSES'] ?? 12);
  for (const [label, a] of [['stub', stub], ['real', real]] as const) {
    const cpu: Record<'A' | 'B', number[]> = { A: [], B: [] };
    const wall: Record<'A' | 'B', number[]> = { A: [], B: [] };
    for (let i = 0; i < passes; i++) {
      for (const which of i % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
        const c = process.cpuUsage();
        const t = performance.now();
        await (which === 'A' ? base : streamDecisions)(a, io(sink));
        wall[which].push(((performance.now() - t) * 1000) / count);
        const used = process.cpuUsage(c);
        cpu[which].push((used.user + used.system) / count);
      }
    }
    const stats = (xs: number[]) => {
      const v = xs.slice(2).sort((x, y) => x - y);
      return `min ${v[0]!.toFixed(2)} median ${v[Math.floor(v.length / 2)]!.toFixed(2)}`;
    };
    for (const k of ['A', 'B'] as const) {
      console.log(`${label} ${k === 'A' ? 'baseline' : 'current '}: CPU ${stats(cpu[k])} µs/line; wall ${stats(wall[k])}`);
    }
  }
  process.exit(0);
}
if (only === 'stub' || only === 'real') {
  const a = only === 'stub' ? stub : real;
  const impl = process.env['BASELINE'] ? ((await import(process.env['BASELINE'])) as { streamDecisions: typeof streamDecisions }).streamDecisions : streamDecisions;
  const t = performance.now();
  for (let i = 0; i < 10; i++) await impl(a, io(sink));
  console.log(`${only}: ${(((performance.now() - t) * 1000) / count / 10).toFixed(2)} µs/line over 10 passes`);
  process.exit(0);
}
const requests = lines.map((l) => parseRequestLine(l) as ApprovalRequest);
console.log(`${count} lines, ${bytes.length} bytes`);
await best('TextDecoder over 64 KiB chunks alone', () => { const d = new TextDecoder(); for (let i = 0; i < bytes.length; i += 65536) d.decode(bytes.subarray(i, i + 65536), { stream: true }); });
await best('JSON.parse alone', () => { for (const l of lines) JSON.parse(l); });
await best('parseRequestLine alone', () => { for (const l of lines) parseRequestLine(l); });
await best('decide alone (parsed once)', () => { for (const r of requests) real.decide(r); });
await best('decide alone (fresh input strings)', () => { for (const r of requests) real.decide({ toolName: r.toolName, input: (' ' + r.input).slice(1) }); });
// The requests as streamDecisions sees them: parsed from lines sliced out of decoded 64 KiB chunks.
const streamed: ApprovalRequest[] = [];
{
  const d = new TextDecoder();
  for (let i = 0, pending = ''; i < bytes.length; i += 65536) {
    const t = pending + d.decode(bytes.subarray(i, i + 65536), { stream: true });
    let s = 0;
    for (let nl = t.indexOf('\n'); nl >= 0; nl = t.indexOf('\n', s)) { streamed.push(parseRequestLine(t.slice(s, nl)) as ApprovalRequest); s = nl + 1; }
    pending = t.slice(s);
  }
}
await best('decide alone (requests parsed from chunks)', () => { for (const r of streamed) real.decide(r); });
// BASELINE=path/to/an/older/eval.ts measures that copy side by side (interleaved, same process).
const baseline = process.env['BASELINE'] ? ((await import(process.env['BASELINE'])) as { streamDecisions: typeof streamDecisions }).streamDecisions : undefined;
for (let round = 0; round < (baseline ? 2 : 1); round++) {
  if (baseline) await best('baseline streamDecisions, stub approver', () => baseline(stub, io(sink)));
  await best('streamDecisions, stub approver', () => streamDecisions(stub, io(sink)));
  if (baseline) await best('baseline streamDecisions, real approver', () => baseline(real, io(sink)));
  await best('streamDecisions, real approver', () => streamDecisions(real, io(sink)));
}
