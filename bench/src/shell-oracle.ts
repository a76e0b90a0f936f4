/**
 * The long run of the shell oracles (packages/shell/test/oracle): `node bench/shell-oracle.mjs N
 * SEED [--findings=FILE] [--max-seconds=S] [--batch=B] [--pretty-every=K]`.
 *
 * Generates texts 0..N-1 of SEED, judges each distinct text once with Verdict's extraction, runs the
 * distinct texts it reads in bash, zsh -f and dash (a batch of B per shell process, the three shells
 * at once, the next batch judged while they run), and prints texts/s and, per shell, how many texts
 * ran, were unknown, agreed, were findings, timed out or did not run. A text generated twice takes the
 * outcome of its first run (the counts say how many were distinct). Every K-th distinct text Verdict
 * reads also goes to oracle A (`bash --pretty-print`). With `--max-seconds`, generation stops at the
 * first batch boundary past S seconds and the figures are those of the texts reached, never more.
 * Exit status 1 when there is a finding.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execSync } from 'node:child_process';
import { extract } from '@verdict/shell';
import { generate } from '../../packages/shell/test/oracle/generate.ts';
import {
  emptyTally,
  prettyDisagreements,
  readingOf,
  runKnown,
  ShellOracle,
  tallyOutcome,
  type Outcome,
  type Reading,
  type ShellName,
  type Tally,
} from '../../packages/shell/test/oracle/run.ts';

interface Options {
  n: number;
  seed: number;
  findings?: string;
  maxSeconds: number;
  batch: number;
  prettyEvery: number;
}

function parseArgs(argv: readonly string[]): Options | string {
  const pos = argv.filter((a) => !a.startsWith('--'));
  const flag = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const n = Number(pos[0]);
  const seed = Number(pos[1]);
  if (!Number.isInteger(n) || n <= 0 || !Number.isInteger(seed)) return 'usage: node bench/shell-oracle.mjs N SEED [--findings=FILE] [--max-seconds=S] [--batch=B] [--pretty-every=K]';
  const findings = flag('findings');
  return { n, seed, ...(findings ? { findings } : {}), maxSeconds: Number(flag('max-seconds') ?? Infinity), batch: Number(flag('batch') ?? 2000), prettyEvery: Number(flag('pretty-every') ?? 50) };
}

/** The outcome of each distinct text, per shell (`unknown`: Verdict does not read it). */
type Result = 'unknown' | Map<ShellName, Outcome>;

export async function main(argv: readonly string[]): Promise<number> {
  const o = parseArgs(argv);
  if (typeof o === 'string') {
    console.error(o);
    return 2;
  }
  // The commit the code was loaded from (the run may outlast later commits).
  let commit = '?';
  try {
    commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
  } catch {
    /* not a clone */
  }
  const oracle = new ShellOracle();
  const shells = oracle.shells;
  const t0 = performance.now();
  const elapsed = () => (performance.now() - t0) / 1000;
  const first = new Map<string, number>(); // text -> index into results
  const results: Result[] = [];
  const ofText: number[] = []; // per generated id: its distinct index
  const ppDir = mkdtempSync(join(tmpdir(), 'vo-pp-'));
  if (o.findings) writeFileSync(o.findings, '');
  let findingCount = 0;
  let pretty = { compared: 0, findings: 0 };
  let knownDistinct = 0;
  const record = (id: number, text: string, shell: string, what: string) => {
    findingCount++;
    if (o.findings) appendFileSync(o.findings, `${JSON.stringify({ seed: o.seed, id, shell, text, what })}\n`);
  };

  let id = 0;
  let stoppedByTime = false;
  let pending: Promise<void> | null = null;
  while (id < o.n) {
    if (elapsed() > o.maxSeconds) {
      stoppedByTime = true;
      break;
    }
    // Judge the next batch (while the previous one runs in the shells).
    const known: { id: number; text: string; r: Reading; slot: number }[] = [];
    while (id < o.n && known.length < o.batch) {
      const { text } = generate(o.seed, id);
      let slot = first.get(text);
      if (slot === undefined) {
        slot = results.length;
        first.set(text, slot);
        const ext = extract(text);
        const r = readingOf(ext);
        results.push('unknown');
        if (r !== null) {
          knownDistinct++;
          known.push({ id, text, r, slot });
          if (o.prettyEvery > 0 && knownDistinct % o.prettyEvery === 0) {
            pretty.compared++;
            for (const what of prettyDisagreements(text, ext, ppDir)) {
              pretty.findings++;
              record(id, text, 'bash --pretty-print', what);
            }
          }
        }
      }
      ofText.push(slot);
      id++;
    }
    if (pending) await pending;
    const upTo = id;
    const distinct = results.length;
    const read = knownDistinct;
    pending = runKnown(oracle, known).then((outcomes) => {
      for (const k of known) {
        const m = new Map<ShellName, Outcome>();
        for (const sh of shells) {
          const out = outcomes.get(sh)!.get(k.id)!;
          m.set(sh, out);
          if ('what' in out) for (const w of out.what) record(k.id, k.text, sh, w);
          if (out.kind.startsWith('timeout') && o.findings) appendFileSync(o.findings, `${JSON.stringify({ seed: o.seed, id: k.id, shell: sh, text: k.text, timeout: true })}\n`);
        }
        results[k.slot] = m;
      }
      process.stderr.write(`${upTo} texts, ${distinct} distinct, ${read} read by Verdict and run, ${elapsed().toFixed(0)} s, ${(upTo / elapsed()).toFixed(0)} texts/s, ${findingCount} findings\n`);
    });
  }
  if (pending) await pending;
  const seconds = elapsed();
  rmSync(ppDir, { recursive: true, force: true });
  oracle.close();

  const tallies = new Map<ShellName, Tally>(shells.map((s) => [s, emptyTally()]));
  for (const slot of ofText) {
    const r = results[slot]!;
    for (const sh of shells) tallyOutcome(tallies.get(sh)!, r === 'unknown' ? 'unknown' : r.get(sh)!);
  }
  console.log(`seed ${o.seed}: ${id} texts${stoppedByTime ? ` (stopped by --max-seconds=${o.maxSeconds}; ${o.n} asked)` : ''}, ${results.length} distinct, ${knownDistinct} distinct texts read by Verdict ran in each shell`);
  console.log(`${seconds.toFixed(0)} s wall, ${(id / seconds).toFixed(0)} texts/s, commit ${commit}, network ${oracle.isolated ? 'none (unshare -n)' : 'not isolated'}`);
  console.log('shell | ran | unknown | agreed | findings | timeouts | not run');
  for (const sh of shells) {
    const t = tallies.get(sh)!;
    console.log(`${sh} | ${t.ran} | ${t.unknown} | ${t.agreed} | ${t.findings} | ${t.timeouts} | ${t.notRun}`);
  }
  console.log(`bash --pretty-print | ${pretty.compared} compared | ${pretty.findings} findings`);
  return findingCount > 0 ? 1 : 0;
}
