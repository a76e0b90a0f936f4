/**
 * Golden CLI runs: each folder of fixtures/cli/ holds `args.json` (argv), optional `stdin`,
 * the expected `stdout`, the expected `exit` code, and optionally `stderr` (expected exactly) or
 * `stderr.contains` (lines that must appear), and optionally `env.json` (the environment, default
 * empty) and `tty` (present: standard output is a terminal). UPDATE_GOLDEN=1 rewrites stdout/exit from the actual run.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './harness.ts';

const dir = join(repoRoot, 'fixtures/cli');
const cases = existsSync(dir) ? readdirSync(dir).filter((n) => existsSync(join(dir, n, 'args.json'))).sort() : [];
const update = process.env['UPDATE_GOLDEN'] === '1';

beforeAll(() => process.chdir(repoRoot));

describe('golden CLI runs', () => {
  it('has golden runs for every command family', () => {
    for (const family of ['eval-', 'explain-', 'check-', 'lint-', 'test-', 'fuzz-', 'fmt-', 'diff-']) {
      expect(cases.filter((c) => c.startsWith(family)).length, family).toBeGreaterThan(1);
    }
  });
  for (const name of cases) {
    it(name, async () => {
      const at = (f: string) => join(dir, name, f);
      const argv = JSON.parse(readFileSync(at('args.json'), 'utf8')) as string[];
      const stdin = existsSync(at('stdin')) ? readFileSync(at('stdin')) : '';
      const env = existsSync(at('env.json')) ? (JSON.parse(readFileSync(at('env.json'), 'utf8')) as NodeJS.ProcessEnv) : {};
      const run = await runCli(argv, stdin, { env, isTTY: existsSync(at('tty')) });
      if (update) {
        writeFileSync(at('stdout'), run.stdout);
        writeFileSync(at('exit'), `${run.code}\n`);
        if (existsSync(at('stderr'))) writeFileSync(at('stderr'), run.stderr);
        return;
      }
      expect({ exit: run.code, stdout: run.stdout }).toEqual({
        exit: Number(readFileSync(at('exit'), 'utf8').trim()),
        stdout: readFileSync(at('stdout'), 'utf8'),
      });
      if (existsSync(at('stderr'))) expect(run.stderr).toBe(readFileSync(at('stderr'), 'utf8'));
      if (existsSync(at('stderr.contains'))) {
        for (const line of readFileSync(at('stderr.contains'), 'utf8').split('\n').filter(Boolean)) {
          expect(run.stderr).toContain(line);
        }
      }
      expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/); // never a stack trace
    });
  }
});
