import { describe, expect, it } from 'vitest';
import { commands } from '../src/cli.ts';
import { runCli } from './harness.ts';

describe('command table', () => {
  it.each(commands.map((c) => [c.name, c] as const))('%s: the lazy entry matches its implementation', async (_name, entry) => {
    const command = await entry.load();
    expect(command.name).toBe(entry.name);
    expect(command.summary).toBe(entry.summary);
  });

  it.each(commands.map((c) => [c.name] as const))('%s --help prints usage and exits 0', async (name) => {
    const run = await runCli([name, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^usage: verdict ${name}`));
    expect(run.stderr).toBe('');
  });
});

describe('version', () => {
  it.each([['--version'], ['-v']])('%s prints the version of the cli package', async (flag) => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { repoRoot } = await import('./harness.ts');
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'packages/cli/package.json'), 'utf8')) as { version: string };
    expect(await runCli([flag])).toEqual({ code: 0, stdout: `verdict ${pkg.version}\n`, stderr: '' });
  });
});
