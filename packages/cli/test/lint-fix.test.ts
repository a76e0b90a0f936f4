/** `verdict lint --fix` on real files: what is rewritten, what is kept byte for byte, and how it is written. */
import { chmodSync, copyFileSync, lstatSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from './harness.ts';

const FIX = join(repoRoot, 'fixtures/lint/fix');

function scratch(name: string, text: string | Buffer): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-lint-fix-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  return { dir, file };
}

function copy(name: string): { dir: string; file: string } {
  const { dir, file } = scratch(name, '');
  copyFileSync(join(FIX, name), file);
  return { dir, file };
}

describe('verdict lint --fix', () => {
  it('rewrites only the fixed patterns of a YAML agent configuration; comments and other keys stay byte for byte', async () => {
    const { file } = copy('agent.yaml');
    const before = readFileSync(file, 'utf8');
    const run = await runCli(['lint', '--fix', '--no-config-lookup', file]);
    // What is left is reported (the shell-injection error has no safe rewrite): exit 1.
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('rules/shell-injection');
    expect(run.stdout).not.toMatch(/regex\/(mixed-alternation|yaml-escape|impossible-anchor)/);
    const after = readFileSync(file, 'utf8');
    expect(after).toBe(
      before
        .replace(`'"command":"npm test|npm run lint'`, `'"command":"(?:npm test|npm run lint)'`)
        .replace(`'rm\\\\s+-rf'`, `'rm\\s+-rf'`)
        .replace('match: ^curl .*$', 'match: curl .*$'),
    );
    // A second run has nothing left to fix and changes nothing.
    await runCli(['lint', '--fix', '--no-config-lookup', file]);
    expect(readFileSync(file, 'utf8')).toBe(after);
  });

  it('applies fixes that only show after another fix (up to 10 passes)', async () => {
    const { file } = copy('two-pass.verdict');
    const run = await runCli(['lint', '--fix', '--no-config-lookup', file]);
    expect(run.stdout).not.toMatch(/regex\/(unsupported-syntax|impossible-anchor)/);
    expect(readFileSync(file, 'utf8')).toBe(
      readFileSync(join(FIX, 'two-pass.verdict'), 'utf8')
        .replace('/^git push$/', '/git push/')
        .replace('/\\u0073udo(?>\\s+)-i/', '/\\x{0073}udo(?:\\s+)-i/'),
    );
  });

  it('--fix-dry-run writes nothing and shows the fixed text as `output` in JSON', async () => {
    const { file } = copy('agent.yaml');
    const before = readFileSync(file, 'utf8');
    const run = await runCli(['lint', '--fix-dry-run', '-f', 'json', '--no-config-lookup', file]);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const [result] = JSON.parse(run.stdout) as { output?: string }[];
    expect(result?.output).toContain(`'rm\\s+-rf'}   # doubled in single quotes`);
  });

  it('keeps a byte order mark, CRLF line endings, the mode and a symbolic link, and leaves no temporary file', async () => {
    const text = `\ufeff${readFileSync(join(FIX, 'agent.yaml'), 'utf8').replace(/\n/g, '\r\n')}`;
    const { dir, file } = scratch('real.yaml', text);
    chmodSync(file, 0o640);
    const link = join(dir, 'link.yaml');
    symlinkSync(file, link);
    await runCli(['lint', '--fix', '--no-config-lookup', link]);
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith('\ufeff# The nightly agent')).toBe(true);
    expect(after).toContain(`'rm\\s+-rf'}   # doubled in single quotes\r\n`);
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir).sort()).toEqual(['link.yaml', 'real.yaml']);
  });

  it('under --quiet fixes errors only, as ESLint does', async () => {
    const text = "mode: pattern\ndeny:\n  - {tool: bash, match: '^sudo '}\n  - {tool: bash, match: 'rm\\\\s+-rf'}\n";
    const { file } = scratch('p.policy.yaml', text);
    await runCli(['lint', '--fix', '--quiet', '--no-config-lookup', file]);
    // regex/impossible-anchor is an error and is fixed; regex/yaml-escape is a warning and is not.
    expect(readFileSync(file, 'utf8')).toBe(text.replace("'^sudo '", "'sudo '"));
  });

  it('never fixes a suppressed finding', async () => {
    const text = "mode: pattern\ndeny:\n  # verdict-disable-next-line regex/yaml-escape -- a literal backslash is meant\n  - {tool: bash, match: 'a\\\\.b'}\n";
    const { file } = scratch('p.policy.yaml', text);
    const run = await runCli(['lint', '--fix', '--no-config-lookup', file]);
    expect(run.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('says so in one line when the fixed file cannot be written, exit 2', async () => {
    const { dir, file } = copy('agent.yaml');
    chmodSync(dir, 0o500);
    try {
      const run = await runCli(['lint', '--fix', '--no-config-lookup', file]);
      if (process.getuid?.() === 0) return; // root writes anyway
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^verdict lint: cannot write the fixes to `.*agent\.yaml`: permission denied/m);
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it('--fix and --fix-dry-run together are a usage error', async () => {
    const run = await runCli(['lint', '--fix', '--fix-dry-run', 'fixtures/lint/fix/agent.yaml']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('`--fix` and `--fix-dry-run` cannot be combined');
  });
});
