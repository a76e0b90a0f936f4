/**
 * Runs Verdict on the generated cases and compares each decision and reason with the Go reference's,
 * at two levels:
 * - `eval`: the request line's bytes through `verdict eval --policy FILE --compat` (the real CLI
 *   entry, so line reading and decoding are part of what is compared);
 * - `engine`: the request as Go decoded it (tool name and input text), through the compiled approver.
 * A bad line (Go cannot decode it into the request struct) must be denied by `eval`; its reason is
 * Verdict's own.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileFile } from '@verdict/compiler';
import { runCli } from '../harness.ts';
import type { GoCase } from './generate.ts';
import type { GoRun } from './reference.ts';

export interface Mismatch {
  /** `<case name> line <i> <level>`: what the list of expected mismatches holds. */
  key: string;
  level: 'eval' | 'engine';
  policy: string;
  /** The request line, JSON-escaped (invalid bytes as `\xNN`). */
  line: string;
  go: string;
  verdict: string;
}

export interface Comparison {
  cases: number;
  /** Requests compared, at each level. */
  compared: { eval: number; engine: number };
  /** Go's answers among the compared lines: the comparison is only as good as their mix. */
  goAnswers: { allow: number; deny: number; compileError: number; badLine: number };
  /** Requests and cases left out, by reason (README.md, "What is left out"). */
  skipped: Map<string, number>;
  mismatches: Mismatch[];
}

/** A line's bytes as readable text: valid UTF-8 as it is, each invalid byte as `\xNN`. */
export function showLine(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  const dec = new TextDecoder('utf-8', { fatal: true });
  while (i < bytes.length) {
    let done = false;
    for (let n = 4; n >= 1; n--) {
      if (i + n > bytes.length) continue;
      try {
        out += dec.decode(bytes.subarray(i, i + n));
        i += n;
        done = true;
        break;
      } catch {
        // not a whole character of n bytes
      }
    }
    if (!done) out += `\\x${bytes[i++]!.toString(16).padStart(2, '0')}`;
  }
  return out;
}

const show = (decision: string | undefined, reason: string | undefined): string => `${decision} ${JSON.stringify(reason ?? '')}`;

export async function compareWithGo(cases: readonly GoCase[], go: GoRun): Promise<Comparison> {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-go-'));
  const skipped = new Map<string, number>();
  const skip = (why: string, n = 1) => skipped.set(why, (skipped.get(why) ?? 0) + n);
  const mismatches: Mismatch[] = [];
  const compared = { eval: 0, engine: 0 };
  const goAnswers = { allow: 0, deny: 0, compileError: 0, badLine: 0 };
  try {
    for (let c = 0; c < cases.length; c++) {
      const kase = cases[c]!;
      const expected = go.cases[c]!;
      if (expected.skip !== undefined) {
        skip(expected.skip, kase.lines.length);
        continue;
      }
      const file = join(dir, `case-${c}.json`);
      writeFileSync(file, kase.policy);
      const miss = (i: number, level: 'eval' | 'engine', goText: string, verdictText: string) =>
        mismatches.push({
          key: `${kase.name} line ${i} ${level}`,
          level,
          policy: kase.policy.trimEnd(),
          line: showLine(kase.lines[i] ?? new Uint8Array()),
          go: goText,
          verdict: verdictText,
        });
      if (expected.policyError !== undefined || expected.results === undefined) {
        miss(-1, 'engine', `policy error: ${expected.policyError}`, 'loads');
        continue;
      }
      const stdin = Buffer.concat(kase.lines.flatMap((l) => [Buffer.from(l), Buffer.from('\n')]));
      const run = await runCli(['eval', '--policy', file, '--compat'], stdin);
      const answers = run.code === 0 ? run.stdout.split('\n').filter((l) => l !== '') : [];
      const compiled = compileFile(file, { compat: true });
      for (let i = 0; i < kase.lines.length; i++) {
        const want = expected.results[i]!;
        if (want.skip !== undefined) {
          skip(want.skip);
          continue;
        }
        // eval: the line's bytes through the CLI.
        compared.eval++;
        if (want.badLine) goAnswers.badLine++;
        else if (want.decision === 'allow') goAnswers.allow++;
        else if (want.reason?.startsWith('approver: pattern compile: ')) goAnswers.compileError++;
        else goAnswers.deny++;
        const answer = answers[i];
        if (answer === undefined) {
          miss(i, 'eval', show(want.decision, want.reason), `no answer (exit ${run.code}): ${run.stderr.trim().split('\n')[0]}`);
        } else {
          const got = JSON.parse(answer) as { decision: string; reason: string };
          if (want.badLine) {
            if (got.decision !== 'deny' || !got.reason.startsWith('verdict: ')) miss(i, 'eval', 'bad line: deny', show(got.decision, got.reason));
          } else if (got.decision !== want.decision || got.reason !== want.reason) {
            miss(i, 'eval', show(want.decision, want.reason), show(got.decision, got.reason));
          }
        }
        // engine: the request as Go read it.
        if (want.badLine || want.tool === undefined || want.input === undefined) continue;
        compared.engine++;
        if (compiled.approver === undefined) {
          miss(i, 'engine', show(want.decision, want.reason), `policy does not load: ${compiled.diagnostics[0]?.message}`);
          continue;
        }
        const got = compiled.approver.decide({ toolName: want.tool, input: want.input });
        if (got.decision !== want.decision || got.reason !== want.reason) {
          miss(i, 'engine', show(want.decision, want.reason), show(got.decision, got.reason));
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { cases: cases.length, compared, goAnswers, skipped, mismatches };
}

/** A short, readable report of a comparison (for test output and bench/README.md). */
export function describe(go: GoRun, cmp: Comparison, limit = Number(process.env["VERDICT_GO_SHOW"] ?? "") || 20): string {
  const lines = [
    `go reference: ${go.go} (unicode ${go.unicode}); ${cmp.cases} cases, ${cmp.compared.eval} request lines through eval, ${cmp.compared.engine} requests through the engine`,
  ];
  const a = cmp.goAnswers;
  lines.push(`  go answered: ${a.allow} allow, ${a.deny} deny by a rule or default, ${a.compileError} deny for an invalid pattern, ${a.badLine} bad lines`);
  for (const [why, n] of cmp.skipped) lines.push(`  left out: ${n} × ${why}`);
  const engine = cmp.mismatches.filter((m) => m.level === 'engine').length;
  const evalOnly = cmp.mismatches.filter((m) => m.level === 'eval' && !cmp.mismatches.some((o) => o.level === 'engine' && o.key === m.key.replace(/ eval$/, ' engine')));
  const invalid = evalOnly.filter((m) => /\\x[0-9a-f]{2}/.test(m.line)).length;
  lines.push(
    `  mismatches: ${cmp.mismatches.length} (engine level: ${engine}; eval level only: ${evalOnly.length}, of which ${invalid} on lines with invalid UTF-8)`,
  );
  for (const m of cmp.mismatches.slice(0, limit)) {
    lines.push(`  - ${m.key}: go ${m.go}, verdict ${m.verdict}`, `      policy ${m.policy}`, `      line   ${m.line}`);
  }
  return lines.join('\n');
}
