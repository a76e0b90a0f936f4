/** `verdict fmt --write` and `--check` on real files: nothing the layout does not own changes. */
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
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

describe('verdict fmt over folders and globs', () => {
  function folder(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-fmt-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  }

  it('--check lists each policy whose layout would change, exits 1, and changes nothing', async () => {
    const dir = folder({ 'a.policy.yaml': MESSY, 'sub/b.policy.yaml': TIDY, 'sub/c.policy.yaml': MESSY, 'k8s.yaml': 'kind:    ConfigMap\n' });
    const run = await runCli(['fmt', '--check', dir]);
    expect(run).toEqual({ code: 1, stdout: `${join(dir, 'a.policy.yaml')}\n${join(dir, 'sub/c.policy.yaml')}\n`, stderr: '' });
    expect(readFileSync(join(dir, 'a.policy.yaml'), 'utf8')).toBe(MESSY);
    expect(readFileSync(join(dir, 'k8s.yaml'), 'utf8')).toBe('kind:    ConfigMap\n');
  });

  it('--write rewrites each one losslessly (comments and other keys kept), leaves the rest, and then --check passes', async () => {
    const dir = folder({ 'a.policy.yaml': MESSY, 'sub/c.policy.yaml': MESSY, 'k8s.yaml': 'kind:    ConfigMap\n' });
    expect(await runCli(['fmt', '--write', dir])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(dir, 'a.policy.yaml'), 'utf8')).toBe(TIDY);
    expect(readFileSync(join(dir, 'sub/c.policy.yaml'), 'utf8')).toBe(TIDY);
    expect(readFileSync(join(dir, 'k8s.yaml'), 'utf8')).toBe('kind:    ConfigMap\n');
    expect(readdirSync(join(dir, 'sub'))).toEqual(['c.policy.yaml']);
    expect((await runCli(['fmt', '--check', dir])).code).toBe(0);
  });

  it('a glob takes what it matches; a file that cannot load fails the run (exit 2) without stopping the others', async () => {
    const dir = folder({ 'x.yaml': MESSY, 'broken.yaml': 'approver: [\n', 'y.json': '{"approver":   {"mode": "deny_all"}}' });
    const run = await runCli(['fmt', '--write', `${dir}/*.yaml`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('[yaml/syntax]');
    expect(readFileSync(join(dir, 'x.yaml'), 'utf8')).toBe(TIDY);
    expect(readFileSync(join(dir, 'y.json'), 'utf8')).toBe('{"approver":   {"mode": "deny_all"}}');
  });

  it('honours .gitignore and --ignore-pattern', async () => {
    const dir = folder({ '.git/HEAD': '', '.gitignore': 'gen/\n', 'gen/g.policy.yaml': MESSY, 'a.policy.yaml': MESSY, 'b.policy.yaml': MESSY });
    const run = await runCli(['fmt', '--check', dir, '--ignore-pattern', 'b.policy.yaml']);
    expect(run).toEqual({ code: 1, stdout: `${join(dir, 'a.policy.yaml')}\n`, stderr: '' });
  });

  it('several files need --check or --write, and --to converts one file only', async () => {
    const dir = folder({ 'a.policy.yaml': TIDY });
    expect((await runCli(['fmt', dir])).stderr).toContain('formatting several files needs `--check` or `--write`');
    expect((await runCli(['fmt', dir, '--to', 'verdict'])).stderr).toContain('`--to` converts one FILE: name a single file');
  });
});
