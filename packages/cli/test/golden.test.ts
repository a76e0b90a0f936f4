/**
 * Golden CLI runs: each folder of fixtures/cli/ holds `args.json` (argv), optional `stdin`,
 * the expected `stdout`, the expected `exit` code, and optionally `stderr` (expected exactly) or
 * `stderr.contains` (lines that must appear), and optionally `env.json` (the environment, default
 * empty) and `tty` (present: standard output is a terminal). `$TMP` in an argument is a fresh empty
 * folder; when the fixture has a `tmp/` folder, the files the run wrote there must equal it (a report
 * written with `-o`). The repository's own `file://` URL in standard output is written `file:///$ROOT/`
 * (SARIF's `%SRCROOT%`), so a golden holds no checkout's path. A fixture's `setup/` folder is copied
 * into `$TMP` before the run, with `$TMP`, `$ROOT` (the checkout) and `$NODE` (the Node binary) in
 * its files' text and in env.json's values replaced by the real paths; those paths are written back
 * as `$TMP`, `$ROOT` and `$NODE` in standard output and error. UPDATE_GOLDEN=1 rewrites stdout/exit
 * from the actual run.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../src/cli.ts';
import { repoRoot, runCli } from './harness.ts';

const dir = join(repoRoot, 'fixtures/cli');
const cases = existsSync(dir) ? readdirSync(dir).filter((n) => existsSync(join(dir, n, 'args.json'))).sort() : [];
const update = process.env['UPDATE_GOLDEN'] === '1';
const rootUrl = `${pathToFileURL(repoRoot).href.replace(/\/$/, '')}/`;

beforeAll(() => process.chdir(repoRoot));

/** Every file under `dir`, by its path relative to `dir`, with its text. */
function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out[relative(dir, join(e.parentPath, e.name))] = readFileSync(join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

describe('golden CLI runs', () => {
  it('has golden runs for every command of the command table (counted by the command each run names)', () => {
    const named = cases.map((c) => (JSON.parse(readFileSync(join(dir, c, 'args.json'), 'utf8')) as string[])[0]);
    for (const { name } of commands) expect(named.filter((n) => n === name).length, name).toBeGreaterThan(1);
  });
  for (const name of cases) {
    it(name, async () => {
      const at = (f: string) => join(dir, name, f);
      const tmp = mkdtempSync(join(tmpdir(), `verdict-golden-${name}-`));
      const root = repoRoot.replace(/\/$/, '');
      const fill = (text: string): string => text.replaceAll('$TMP', tmp).replaceAll('$ROOT', root).replaceAll('$NODE', process.execPath);
      const argv = (JSON.parse(readFileSync(at('args.json'), 'utf8')) as string[]).map((a) => a.replaceAll('$TMP', tmp));
      const stdin = existsSync(at('stdin')) ? readFileSync(at('stdin')) : '';
      const env = existsSync(at('env.json')) ? (JSON.parse(readFileSync(at('env.json'), 'utf8')) as Record<string, string>) : {};
      for (const k of Object.keys(env)) env[k] = fill(env[k]!);
      if (existsSync(at('setup'))) {
        for (const [file, text] of Object.entries(filesUnder(at('setup')))) {
          mkdirSync(dirname(join(tmp, file)), { recursive: true });
          writeFileSync(join(tmp, file), fill(text));
        }
      }
      const run = await runCli(argv, stdin, { env, isTTY: existsSync(at('tty')) });
      const written = filesUnder(tmp);
      run.stdout = run.stdout.replaceAll(rootUrl, 'file:///$ROOT/');
      if (existsSync(at('setup'))) {
        const unfill = (text: string): string => text.replaceAll(process.execPath, '$NODE').replaceAll(tmp, '$TMP').replaceAll(root, '$ROOT');
        run.stdout = unfill(run.stdout);
        run.stderr = unfill(run.stderr);
      }
      if (update) {
        writeFileSync(at('stdout'), run.stdout);
        writeFileSync(at('exit'), `${run.code}\n`);
        if (existsSync(at('stderr'))) writeFileSync(at('stderr'), run.stderr);
        if (existsSync(at('tmp'))) {
          rmSync(at('tmp'), { recursive: true });
          cpSync(tmp, at('tmp'), { recursive: true });
        }
        rmSync(tmp, { recursive: true, force: true });
        return;
      }
      if (existsSync(at('tmp'))) expect(written).toEqual(filesUnder(at('tmp')));
      rmSync(tmp, { recursive: true, force: true });
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
