/**
 * The shell oracles in CI (issue 24; test/oracle/run.ts): a fixed-seed slice of generated texts
 * (test/oracle/generate.ts), each judged by Verdict's extraction and, when Verdict reads it, run in
 * bash, zsh and dash with recording stubs for every program, and parsed by `bash --pretty-print`.
 * Any text Verdict reads (not unknown) where a shell ran, wrote or exported something the reading
 * does not hold fails the test, with the text, the shell and what it did. No class of the
 * generator is left out. The long run (`node bench/shell-oracle.mjs N SEED`) is the same check over
 * a million texts; its figure is in docs/shell.md ("How the reading is tested").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extract } from '../src/index.ts';
import { CLASSES, generate } from './oracle/generate.ts';
import { argsMatch, checkBatch, disagreements, emptyTally, prettyDisagreements, reading, ShellOracle, SHELL_NAMES, tilde, type Finding, type ShellName, type Tally } from './oracle/run.ts';

/** The CI slice: texts 0..COUNT-1 of SEED (the long run starts from other seeds). */
const SEED = 24;
const COUNT = 3000;

let oracle: ShellOracle;
beforeAll(() => {
  oracle = new ShellOracle();
});
afterAll(() => oracle?.close());

function report(findings: readonly Finding[]): string {
  return findings
    .slice(0, 20)
    .map((f) => `${f.shell} #${f.id}: ${JSON.stringify(f.text)}: ${f.what}`)
    .join('\n');
}

describe('the generator', () => {
  it('is deterministic and reaches every class', () => {
    expect(generate(SEED, 7)).toEqual(generate(SEED, 7));
    expect(generate(SEED, 7)).not.toEqual(generate(SEED, 8));
    const seen = new Set(Array.from({ length: COUNT }, (_, i) => generate(SEED, i).cls));
    expect([...seen].sort()).toEqual([...CLASSES].sort());
  });

  it('writes no absolute path but /dev/null, and no program but the stubs and harmless builtins', () => {
    for (let i = 0; i < COUNT; i++) {
      const { text } = generate(SEED, i);
      expect(text.replace(/\/dev\/null/g, ''), text).not.toMatch(/(^|[\s'"=:(`|;&<>])\/[a-z]/);
      expect(text, text).not.toMatch(/(^|[;&|(\s])(kill|suspend|cd|pushd|popd|disown)(\s|$)|command -p|enable -f|\.\.\//);
    }
  });
});

describe('the oracle can tell a wrong reading', () => {
  it('matches a run against the reading: `null` words stand for any words, `~` for HOME', () => {
    expect(argsMatch(['-l', null], ['-l'])).toBe(true);
    expect(argsMatch(['-l', null], ['-l', 'a', 'b'])).toBe(true);
    expect(argsMatch(['-l', null, 'z'], ['-l', 'a', 'z'])).toBe(true);
    expect(argsMatch(['-l'], ['-l', 'a'])).toBe(false);
    expect(argsMatch(['a'], ['b'])).toBe(false);
    expect(tilde('~/x', '/h')).toBe('/h/x');
    expect(tilde('a~', '/h')).toBe('a~');
    expect(tilde('~', '/h')).toBe('/h');
  });

  it('reports what a shell ran that a reading does not hold', async () => {
    // The reading of `ls a`, held against what bash did with `ls b`, `ls a > o` and `GIT_DIR=x ls a`.
    const batch = oracle.prepare([
      { id: 1, text: 'ls b' },
      { id: 2, text: 'ls a > o' },
      { id: 3, text: 'GIT_DIR=x ls a' },
      { id: 4, text: 'ls a' },
    ]);
    const runs = await oracle.runShell('bash', batch);
    const base = await oracle.baseline('bash');
    oracle.dispose(batch);
    const r = reading('ls a')!;
    expect(disagreements(r, runs.get(1)!, base, oracle.home('bash'))).toEqual(['ran `ls b`, which the reading does not hold']);
    expect(disagreements(r, runs.get(2)!, base, oracle.home('bash'))).toEqual(['wrote the file `o`, which the reading does not hold']);
    expect(disagreements(r, runs.get(3)!, base, oracle.home('bash'))).toEqual(['ran `ls` with `GIT_DIR` in its environment']);
    expect(disagreements(r, runs.get(4)!, base, oracle.home('bash'))).toEqual([]);
  });

  it('runs each text in its own folder, with stubs only: a text that runs `rm -rf .` removes nothing', async () => {
    const batch = oracle.prepare([
      { id: 1, text: ': > keep; rm -rf .; exec rm -rf keep' },
      { id: 2, text: 'x=1; exit 3' },
    ]);
    for (const sh of SHELL_NAMES) {
      const runs = await oracle.runShell(sh, batch);
      expect(runs.get(1)!.files, sh).toEqual(['keep']);
      expect(runs.get(1)!.runs.map((s) => [s.program, ...s.args].join(' ')), sh).toEqual(['rm -rf .', 'rm -rf keep']);
      expect(runs.get(2)!.status, sh).toBe('ran');
    }
    oracle.dispose(batch);
  });
});

describe(`the shells agree with every reading (seed ${SEED}, ${COUNT} texts)`, () => {
  it(
    'oracle B: bash, zsh -f and dash ran nothing, wrote nothing and exported nothing that a known reading does not hold',
    async () => {
      const tallies = new Map<ShellName, Tally>(oracle.shells.map((s) => [s, emptyTally()]));
      const findings: Finding[] = [];
      for (let start = 0; start < COUNT; start += 500) {
        const texts = Array.from({ length: Math.min(500, COUNT - start) }, (_, k) => ({ id: start + k, text: generate(SEED, start + k).text }));
        await checkBatch(oracle, texts, tallies, findings);
      }
      expect(report(findings)).toBe('');
      for (const sh of oracle.shells) {
        const t = tallies.get(sh)!;
        // Every text is either unknown or ran; a slice where the shells ran (almost) nothing would prove nothing.
        expect(t.ran + t.unknown, sh).toBe(COUNT);
        expect(t.ran, sh).toBeGreaterThan(COUNT / 4);
        expect(t.timeouts + t.notRun, sh).toBe(0);
      }
    },
    120_000,
  );

  it(
    "oracle A: bash parses every text Verdict reads, and Verdict reads bash's printed parse as the same commands",
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'vo-pp-'));
      const findings: Finding[] = [];
      let compared = 0;
      try {
        // One bash process per text: half the slice keeps this under a minute on a loaded machine.
        for (let id = 0; id < COUNT / 2; id++) {
          const { text } = generate(SEED, id);
          const ext = extract(text);
          if (ext.unknowns.length > 0) continue;
          compared++;
          for (const what of prettyDisagreements(text, ext, dir)) findings.push({ id, shell: 'bash --pretty-print', text, what });
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      expect(report(findings)).toBe('');
      expect(compared).toBeGreaterThan(COUNT / 8);
    },
    120_000,
  );
});
