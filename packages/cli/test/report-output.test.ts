/** `-o FILE` on the commands that write a report: folders are made; a file that cannot be written is one line and exit 2. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './harness.ts';

describe('-o FILE', () => {
  it.each([
    ['lint', ['lint', '-f', 'sarif', 'fixtures/policies/workspace.yaml'], '"$schema"'],
    ['test', ['test', '-f', 'junit', 'fixtures/policies/workspace.yaml'], '<testsuites'],
  ])('%s writes its report into folders it makes', async (_name, argv, marker) => {
    const out = join(mkdtempSync(join(tmpdir(), 'verdict-o-')), 'reports', 'ci', 'report.out');
    const run = await runCli([...argv, '-o', out]);
    expect(run.stdout).toBe('');
    expect(run.code).toBeLessThan(2);
    expect(readFileSync(out, 'utf8')).toContain(marker);
  });

  it.each([['lint'], ['test']])('%s says in one line that a folder is in the way, and exits 2', async (name) => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-o-'));
    const run = await runCli([name, 'fixtures/policies/workspace.yaml', '-o', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`verdict ${name}: cannot write the report to \`${dir}\`: illegal operation on a directory, open '${dir}'\n`);
  });
});
