/** `verdict fuzz`: the behaviours a user notices (its golden runs, fixtures/cli/fuzz-*, run in golden.test.ts). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fuzzCommand } from '../src/commands/fuzz.ts';
import { runCommand } from './command-harness.ts';
import { repoRoot } from './harness.ts';

beforeAll(() => process.chdir(repoRoot));

describe('verdict fuzz', () => {
  const flawed = 'fixtures/testing/rm-flawed.yaml';

  it('draws a progress bar on a terminal and clears it before the report', async () => {
    const tty = await runCommand(fuzzCommand, ['--policy', 'fixtures/testing/rm-fixed.yaml', '--runs', '60', '--seed', '5'], { isTTY: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toContain('\rrespelling [##############################] 60/60');
    expect(tty.stdout).toContain('\r\x1b[K');
    const pipe = await runCommand(fuzzCommand, ['--policy', 'fixtures/testing/rm-fixed.yaml', '--runs', '60', '--seed', '5']);
    expect(pipe.stdout).not.toContain('\r');
    expect(tty.stdout.replace(/(?:\r[^\r\n]*)*\r\x1b\[K/g, '')).toBe(pipe.stdout);
  });

  it('prints a random seed that replays the same run', async () => {
    const first = await runCommand(fuzzCommand, ['--policy', flawed, '--runs', '50']);
    const seed = /seed (-?\d+)\n/.exec(first.stdout)?.[1];
    expect(seed).toBeDefined();
    const again = await runCommand(fuzzCommand, ['--policy', flawed, '--runs', '50', '--seed', seed!]);
    expect(again.stdout).toBe(first.stdout);
    expect(again.code).toBe(first.code);
  });

  it('stops at --time-limit and says what it skipped: properties not run, rules given no aimed calls', async () => {
    // A limit that has passed before anything starts: every rule and property is skipped, whatever the machine.
    const dir = mkdtempSync(join(tmpdir(), 'verdict-fuzz-'));
    const file = join(dir, 'p.yaml');
    writeFileSync(file, "mode: pattern\ndefault: allow\ndeny:\n  - {tool: bash, match: '\\pL{1000}'}\n");
    const r = await runCommand(fuzzCommand, ['--policy', file, '--seed', '1', '--time-limit', '0.000001']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('time limit of 0.000001 s reached (--time-limit):\n  not run: respelling\n');
    expect(r.stdout).toContain('0 properties: 0 held, 0 failed, 1 not run (seed 1)');
    expect(r.stdout).toContain(`no calls aimed at 1 rule (their regexes were still being sampled):\n    deny[0] \`\\pL{1000}\` (${file}:4:25)`);
    const json = await runCommand(fuzzCommand, ['--policy', file, '--seed', '1', '--time-limit', '0.000001', '-f', 'json', '--property', 'respelling', '--property', 'duplicate-keys']);
    expect(JSON.parse(json.stdout).skipped).toEqual({ timeLimit: 0.000001, notRun: ['respelling', 'duplicate-keys'], stopped: [], unsampledRules: [`deny[0] \`\\pL{1000}\` (${file}:4:25)`] });
    const bad = await runCommand(fuzzCommand, ['--policy', file, '--time-limit', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('`--time-limit` wants a positive number of seconds, not `0`');
  });

  it('rejects a --where that is not RE2 with Go error text', async () => {
    const r = await runCommand(fuzzCommand, ['--policy', flawed, '--where', '(?=x)']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('`--where` is not a valid regex: error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
  });
});
