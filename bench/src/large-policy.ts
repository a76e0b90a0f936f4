// Cost that grows with the rule count: `verdict lint` and `verdict diff` on one generated policy of
// many rules (inside the load limits), timed as child processes (wall time and peak RSS from
// GNU time when present, else wall time alone):
//   pnpm --filter @verdict/bench exec tsx src/large-policy.ts [rules ...]   (default 20000)
// Writes the policies to a temporary folder; `--keep DIR` writes them there and keeps them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApproverIR, RuleIR } from '@verdict/engine';
import { makePolicy } from './corpus.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(root, 'packages/cli/bin/verdict.mjs');

const args = process.argv.slice(2);
const keepAt = args.indexOf('--keep');
const keep = keepAt >= 0 ? args.splice(keepAt, 2)[1] : undefined;
const sizes = args.length > 0 ? args.map(Number) : [20_000];

/** The benchmark approver of `size` rules as a YAML policy file (canonical input, some bash rules made `field` rules). */
export function largePolicyText(size: number, change = false): string {
  const ir: ApproverIR = makePolicy(size);
  const fieldify = (rules: RuleIR[]): object[] =>
    rules.map((r, i) => {
      if (i % 10 === 3 && r.tool.toLowerCase() === 'bash') return { tool: r.tool, field: 'command', match: `.*${r.match.replace(/^\^/, '')}.*` };
      return { tool: r.tool, match: r.match };
    });
  const deny = fieldify(ir.deny);
  const allow = fieldify(ir.allow);
  // The changed twin: one deny rule dropped (the policy gets looser).
  if (change) deny.splice(Math.floor(deny.length / 2), 1);
  // One rule a line (JSON flow mappings are YAML): the load limit counts lines and commas.
  const list = (rules: object[]): string => rules.map((r) => `    - ${JSON.stringify(r)}\n`).join('');
  return `approver:\n  mode: pattern\n  default: deny\n  reason: ${JSON.stringify(ir.reason)}\n  input: canonical\n  deny:\n${list(deny)}  allow:\n${list(allow)}`;
}

const hasGnuTime = existsSync('/usr/bin/time');

/** Wall time, CPU time (user + system, from GNU time: less sensitive to a loaded machine) and peak RSS. */
function run(argv: string[]): { ms: number; cpuMs: number | undefined; rssMb: number | undefined; code: number | null; out: string } {
  const cmd = hasGnuTime ? '/usr/bin/time' : process.execPath;
  const full = hasGnuTime ? ['-f', 'TIME %U %S %M', process.execPath, bin, ...argv] : [bin, ...argv];
  const t0 = performance.now();
  const r = spawnSync(cmd, full, { encoding: 'utf8', timeout: 900_000, maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  const m = /TIME ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(r.stderr);
  return {
    ms,
    cpuMs: m === null ? undefined : (Number(m[1]) + Number(m[2])) * 1000,
    rssMb: m === null ? undefined : Number(m[3]) / 1024,
    code: r.status,
    out: `${r.stdout}${r.stderr}`.slice(0, 4000),
  };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'verdict-large-'));
  mkdirSync(dir, { recursive: true });
  try {
    for (const size of sizes) {
      const a = join(dir, `policy-${size}.yaml`);
      const b = join(dir, `policy-${size}-changed.yaml`);
      writeFileSync(a, largePolicyText(size));
      writeFileSync(b, largePolicyText(size, true));
      for (const [name, argv] of [
        ['lint', ['lint', a, '--format', 'json']],
        ['diff F F', ['diff', a, a]],
        ['diff F F\'', ['diff', a, b]],
      ] as const) {
        const r = run([...argv]);
        const summary = r.out.split('\n').find((l) => /equivalent|looser|stricter|unknown|neither/.test(l)) ?? '';
        console.log(
          `${size} rules  ${name.padEnd(9)} ${(r.ms / 1000).toFixed(1).padStart(6)} s wall  ${r.cpuMs === undefined ? '' : `${(r.cpuMs / 1000).toFixed(1).padStart(6)} s CPU  `}${r.rssMb === undefined ? '' : `${r.rssMb.toFixed(0)} MB  `}exit ${r.code}  ${summary.slice(0, 160)}`,
        );
      }
    }
  } finally {
    if (keep === undefined) rmSync(dir, { recursive: true, force: true });
  }
}
