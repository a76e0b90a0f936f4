// `verdict diff --rev A[..B] FILE` on a temporary git repository: the file at a revision against the working
// tree or another revision, read with `git show` (no shell), and the located errors when it cannot be read.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './harness.ts';

let repo: string;
const git = (...args: string[]) => execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { stdio: 'pipe' });
const rules = () => join(repo, '.codex/rules/default.rules');

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'verdict-diff-rev-'));
  git('init', '-q');
  mkdirSync(join(repo, '.codex/rules'), { recursive: true });
  writeFileSync(rules(), 'prefix_rule(pattern=["git", "push", "--force"], decision="forbidden")\nprefix_rule(pattern=["git", "status"])\n');
  writeFileSync(join(repo, 'policy.yaml'), 'approver:\n  mode: pattern\n  default: deny\n  allow:\n    - {tool: Read}\n');
  git('add', '.');
  git('commit', '-qm', 'one');
  // The agent appends a rule ("don't ask again"), committed.
  writeFileSync(rules(), 'prefix_rule(pattern=["git", "push", "--force"], decision="forbidden")\nprefix_rule(pattern=["git", "status"])\nprefix_rule(pattern=["git", "-C"], decision="allow")\n');
  git('commit', '-qam', 'two');
  // And one more, not committed yet.
  writeFileSync(rules(), 'prefix_rule(pattern=["git", "push", "--force"], decision="forbidden")\nprefix_rule(pattern=["git", "status"])\nprefix_rule(pattern=["git", "-C"], decision="allow")\nprefix_rule(pattern=["docker"], decision="allow")\n');
  writeFileSync(join(repo, 'policy.yaml'), 'approver:\n  mode: pattern\n  default: deny\n  allow:\n    - {tool: Read}\n    - {tool: Grep}\n');
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('verdict diff --rev', () => {
  it('compares the file at a revision with the working tree', async () => {
    const r = await runCli(['diff', '--rev', 'HEAD', rules()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`old: HEAD:${rules()} (Codex rules)`);
    expect(r.stdout).toContain(`new: ${rules()} (Codex rules)`);
    // Only the uncommitted `docker` rule is new against HEAD.
    expect(r.stdout).toMatch(/newly allowed[^\n]*: 1 program\n {2}docker /);
    expect(r.stdout).not.toContain('git -C . push --force');
  });

  it('compares two revisions: A..B', async () => {
    const r = await runCli(['diff', '--rev', 'HEAD~1..HEAD', rules(), '-f', 'json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { verdict: string; old: { file: string }; new: { file: string }; changes: { direction: string; command: string; new: { rule?: { line: number } } }[] };
    expect(report.verdict).toBe('looser');
    expect(report.old.file).toBe(`HEAD~1:${rules()}`);
    expect(report.new.file).toBe(`HEAD:${rules()}`);
    expect(report.changes.filter((c) => c.direction === 'newly-allowed').map((c) => [c.command, c.new.rule?.line])).toEqual([['git -C . push --force', 3]]);
  });

  it('a Verdict policy across revisions takes the exact policy diff', async () => {
    const r = await runCli(['diff', '--rev', 'HEAD', join(repo, 'policy.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^verdict: looser\n/);
    expect(r.stdout).toContain('Grep');
  });

  it('the file not in the revision: a located error, exit 2', async () => {
    writeFileSync(join(repo, '.codex/rules/new.rules'), 'prefix_rule(pattern=["ls"])\n');
    const r = await runCli(['diff', '--rev', 'HEAD', join(repo, '.codex/rules/new.rules')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(repo, '.codex/rules/new.rules')}: error: not in revision \`HEAD\``);
    expect(r.stderr).toContain('[cli/diff-rev]');
    expect(r.stdout).toBe('');
  });

  it('no such revision, and not a git checkout: located errors, exit 2', async () => {
    const bad = await runCli(['diff', '--rev', 'no-such-branch', rules()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no revision `no-such-branch`');
    const outside = mkdtempSync(join(tmpdir(), 'verdict-diff-nogit-'));
    try {
      writeFileSync(join(outside, 'a.rules'), 'prefix_rule(pattern=["ls"])\n');
      const r = await runCli(['diff', '--rev', 'HEAD', join(outside, 'a.rules')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('not in a git checkout');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a revision that looks like an option is refused, not given to git', async () => {
    const r = await runCli(['diff', '--rev=--output=/tmp/x', rules()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--rev wants A or A\.\.B/);
  });
});
