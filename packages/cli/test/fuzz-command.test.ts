/** `verdict fuzz`: the behaviours a user notices (its golden runs, fixtures/cli/fuzz-*, run in golden.test.ts). */
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

  it('rejects a --where that is not RE2 with Go error text', async () => {
    const r = await runCommand(fuzzCommand, ['--policy', flawed, '--where', '(?=x)']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('`--where` is not a valid regex: error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
  });
});
