/**
 * `-` reads standard input for every command that takes a policy file; it is read as a file is:
 * at most 10 MiB (reading stops there), strict UTF-8, and the same bytes out as from a file.
 * The goldens `*-stdin*` in fixtures/cli/ show each command's output.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './harness.ts';

/** An endless standard input of 1 MiB lines of `a`, counting what was pulled from it. */
function endless(): { chunks: Iterable<string>; pulled: () => number } {
  let pulled = 0;
  const line = `${'a'.repeat(1024 * 1024 - 1)}\n`;
  return {
    chunks: (function* () {
      for (;;) {
        pulled++;
        yield line;
      }
    })(),
    pulled: () => pulled,
  };
}

describe('standard input is bounded as a file is', () => {
  for (const argv of [['lint', '-'], ['compile', '-'], ['fmt', '-'], ['check', '-'], ['test', '-'], ['diff', 'fixtures/testing/rm-fixed.yaml', '-']]) {
    it(`verdict ${argv.join(' ')} stops reading past 10 MiB and says so`, async () => {
      const input = endless();
      const run = await runCli(argv, input.chunks);
      expect(run.code).toBe(2);
      expect(`${run.stdout}${run.stderr}`).toContain('larger than 10 MiB, over the 10 MiB limit');
      // A few chunks of read-ahead at most, not the endless stream.
      expect(input.pulled()).toBeLessThan(20);
    });
  }
});

describe('a policy from standard input is the same policy as from a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-stdin-'));
  it('fmt - keeps the byte order mark and CRLF line endings as fmt FILE does', async () => {
    const text = '\ufeffapprover:\r\n  mode:   pattern\r\n  deny:\r\n    - {tool: Bash,  match: rm}\r\n';
    const file = join(dir, 'p.yaml');
    writeFileSync(file, text);
    const fromFile = await runCli(['fmt', file]);
    const fromStdin = await runCli(['fmt', '-', '--stdin-filename', file], text);
    expect(fromStdin).toEqual(fromFile);
    expect(fromStdin.stdout).toContain('\r\n');
  });
  it('lint - finds the configuration of the folder --stdin-filename names, as for the file there', async () => {
    const file = 'fixtures/cli/lint-config-nearest/repo/sub/p.policy.yaml';
    const text = await import('node:fs').then((fs) => fs.readFileSync(file, 'utf8'));
    expect(await runCli(['lint', '-', '--stdin-filename', file], text)).toEqual(await runCli(['lint', file]));
    // Without the name, no configuration turns the rule off.
    expect((await runCli(['lint', '-'], text)).stdout).toContain('approver/default-allow');
  });
  it('a NUL byte from standard input is refused as in a file', async () => {
    const run = await runCli(['compile', '-'], 'approver:\n  reason: "a\0b"\n');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('<stdin>:2:13: error: file contains a NUL byte [load/nul-byte]\n  help: this looks like a binary file; policy files are UTF-8 text\n');
  });
});
