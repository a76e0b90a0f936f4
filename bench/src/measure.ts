/** Timing and memory helpers. */
import type { ApprovalRequest } from '@verdict/engine';

type Decide = (call: ApprovalRequest) => unknown;

let sink = 0;
/** Keeps results alive so the optimiser cannot drop the work. */
export function consume(x: unknown): void {
  if (x === undefined) sink++;
}
export function sinkValue(): number {
  return sink;
}

/** CPU time of this process in milliseconds (user + system): steadier than wall time on a shared machine. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Decisions per CPU second of several engines measured in turns: `rounds` rounds, each giving every
 * engine `minMs / rounds` of CPU time (whole passes over `calls`), then each engine's median round.
 * A shared machine's slow moments then fall on every engine alike, and the ratios between them hold
 * steadier than when each engine has its own stretch of time.
 */
export function interleavedThroughput(decides: readonly Decide[], calls: readonly ApprovalRequest[], minMs: number, rounds: number): number[] {
  for (const decide of decides) for (const c of calls) consume(decide(c));
  const rates: number[][] = decides.map(() => []);
  const slice = minMs / rounds;
  for (let r = 0; r < rounds; r++) {
    decides.forEach((decide, e) => {
      let n = 0;
      const start = cpuMs();
      let now = start;
      while (now - start < slice) {
        for (const c of calls) consume(decide(c));
        n += calls.length;
        now = cpuMs();
      }
      rates[e]!.push(n / ((now - start) / 1000));
    });
  }
  return rates.map((xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  });
}

/** Per-call latency percentiles in nanoseconds (each call timed alone; the timer adds ~50-100 ns). */
export function latency(decide: Decide, calls: readonly ApprovalRequest[]): { p50: number; p99: number } {
  const ns: number[] = [];
  for (const c of calls) {
    const s = process.hrtime.bigint();
    consume(decide(c));
    ns.push(Number(process.hrtime.bigint() - s));
  }
  ns.sort((a, b) => a - b);
  return { p50: ns[Math.floor(ns.length * 0.5)] ?? 0, p99: ns[Math.floor(ns.length * 0.99)] ?? 0 };
}

export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
}

export function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

/** CPU milliseconds `f` takes (median of `runs`), and its last result. */
export function timeMs<T>(f: () => T, runs = 1): { ms: number; value: T } {
  const times: number[] = [];
  let value!: T;
  for (let i = 0; i < runs; i++) {
    const s = cpuMs();
    value = f();
    times.push(cpuMs() - s);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)] ?? 0, value };
}

export const fmt = {
  n: (x: number) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)}M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)}k` : x.toFixed(0)),
  ns: (x: number) => (x >= 1e6 ? `${(x / 1e6).toFixed(1)} ms` : x >= 1e3 ? `${(x / 1e3).toFixed(1)} µs` : `${x.toFixed(0)} ns`),
  ms: (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(x < 10 ? 2 : 0)} ms`),
  mb: (x: number) => `${(x / 1048576).toFixed(1)} MB`,
  ratio: (x: number) => `${x.toFixed(x < 10 ? 2 : 1)}×`,
};
