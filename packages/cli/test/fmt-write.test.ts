/** `verdict fmt --write` and `--check` on real files: nothing the layout does not own changes. */
import { chmodSync, lstatSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './harness.ts';

const MESSY = `# nightly agent
name: nightly   # kept
agent:
    approver:
        mode: pattern
        allow:
            -   tool: read
                match: ".*"
        deny:
            - {tool: bash,   match: "rm -rf"}
other: [1, 2]
`;

const TIDY = `# nightly agent
name: nightly # kept
agent:
  approver:
    mode: pattern
    allow:
      - {tool: read, match: ".*"}
    deny:
      - {tool: bash, match: "rm -rf"}
other: [1, 2]
`;

function scratch(name: string, text: string | Buffer): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-fmt-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  return { dir, file };
}

describe('verdict fmt --write', () => {
  it('lays the file out again, keeping comments and keys that are not the policy', async () => {
    const { file } = scratch('agent.yaml', MESSY);
    const run = await runCli(['fmt', '--write', file]);
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe(TIDY);
    expect(await runCli(['fmt', '--check', file])).toMatchObject({ code: 0 });
  });

  it('--check names the file and says 1 when the layout would change, and changes nothing', async () => {
    const { file } = scratch('agent.yaml', MESSY);
    expect(await runCli(['fmt', '--check', file])).toEqual({ code: 1, stdout: `${file}\n`, stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe(MESSY);
  });

  it('keeps a byte order mark and CRLF line endings', async () => {
    const { file } = scratch('agent.yaml', Buffer.from(`\ufeff${MESSY.replace(/\n/g, '\r\n')}`, 'utf8'));
    expect((await runCli(['fmt', '--write', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(`\ufeff${TIDY.replace(/\n/g, '\r\n')}`);
    expect((await runCli(['fmt', '--check', file])).code).toBe(0);
  });

  it('writes through a symbolic link, keeps the mode, and leaves no temporary file', async () => {
    const { dir, file } = scratch('real.yaml', MESSY);
    chmodSync(file, 0o640);
    const link = join(dir, 'link.yaml');
    symlinkSync(file, link);
    expect((await runCli(['fmt', '--write', link])).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(TIDY);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir).sort()).toEqual(['link.yaml', 'real.yaml']);
  });

  it('formats JSON as JSON (tokens untouched), never as YAML', async () => {
    const json = '{"approver":{"mode":"pattern","default":"allow","deny":[{"tool":"bash","match":"rm\\\\s+-rf"}]},"x":1.50}';
    const { file } = scratch('p.json', json);
    expect((await runCli(['fmt', '--write', file])).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(
      '{\n  "approver": {\n    "mode": "pattern",\n    "default": "allow",\n    "deny": [{ "tool": "bash", "match": "rm\\\\s+-rf" }]\n  },\n  "x": 1.50\n}\n',
    );
  });

  it('refuses to convert a file with comments or other keys unless --force, and writes nothing', async () => {
    const { file } = scratch('agent.yaml', MESSY);
    const refused = await runCli(['fmt', file, '--to', 'verdict']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('converting to verdict would drop 2 comments and the keys `name`, `other` [fmt/lossy-conversion]');
    const forced = await runCli(['fmt', file, '--to', 'verdict', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('deny bash /rm -rf/');
    expect(readFileSync(file, 'utf8')).toBe(MESSY);
  });
});
