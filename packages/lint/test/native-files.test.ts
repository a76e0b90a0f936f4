/**
 * How `verdict lint` meets agents' own permission files on disk: found by name in a folder walk
 * (inside `.claude`, `.codex`, `.gemini`, `.cursor`, which the walk otherwise never enters), named
 * explicitly, symlinked (Codex and Gemini CLI skip those), and never mistaken for policies.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeFor, lintFiles } from '../src/index.ts';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'verdict-native-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('agents\' permission files in a lint run', () => {
  it('finds them by name in a folder walk, and reads nothing else in those folders', () => {
    const root = tree({
      '.claude/settings.json': '{ "permissions": { "allow": ["Write(x)"] } }',
      '.claude/agents/helper.json': '{ "not": "a policy" }',
      '.claude/notes.policy.yaml': 'approver: {mode: pattern, allow: [{match: ".*"}]}\n',
      '.codex/rules/default.rules': 'prefix_rule(["git", "-C"])\n',
      '.codex/rules/README.md': 'notes',
      '.gemini/policies/p.toml': '[[rule]]\ntoolName = "run_command"\ndecision = "allow"\npriority = 1\n',
      'pyproject.toml': '[tool.x]\n',
      'src/settings.json': '{}',
    });
    const run = lintFiles(['.'], { cwd: root });
    expect(run.results.map((r) => [r.file, r.native])).toEqual([
      ['.claude/settings.json', 'claude-settings'],
      ['.codex/rules/default.rules', 'codex-rules'],
      ['.gemini/policies/p.toml', 'gemini-policy'],
    ]);
    expect(run.results.map((r) => r.messages.map((m) => m.ruleId))).toEqual([['native/never-consulted'], ['native/allow-runs-anything'], ['native/unknown-tool']]);
    expect(exitCodeFor(run)).toBe(0);
  });

  it('reads a file named on the command line by its name, and a `.rules` file anywhere', () => {
    const root = tree({ 'team/shared.rules': 'prefix_rule(["env"])\n' });
    const run = lintFiles(['team/shared.rules'], { cwd: root });
    expect(run.results.map((r) => [r.native, r.messages.map((m) => m.ruleId)])).toEqual([['codex-rules', ['native/allow-runs-anything']]]);
  });

  it('says that a symlinked Gemini CLI policy is never loaded', () => {
    const root = tree({ 'shared/team.toml': '[[rule]]\ntoolName = "read_file"\ndecision = "deny"\npriority = 900\n' });
    mkdirSync(join(root, '.gemini/policies'), { recursive: true });
    symlinkSync(join(root, 'shared/team.toml'), join(root, '.gemini/policies/team.toml'));
    const run = lintFiles(['.'], { cwd: root });
    const r = run.results.find((x) => x.file === '.gemini/policies/team.toml');
    expect(r?.messages.map((m) => [m.ruleId, m.severity, m.message])).toEqual([['native/file-not-loaded', 'error', 'Gemini CLI skips symbolic links among its rules files: none of the rules in this file apply']]);
    expect(exitCodeFor(run)).toBe(1);
  });

  it('reports a file that does not parse where it breaks, as the agent refuses it, without failing the run', () => {
    const root = tree({ '.claude/settings.local.json': '{ "permissions": { "allow": ["Bash(ls)",] } }' });
    const run = lintFiles(['.'], { cwd: root });
    expect(run.results[0]?.messages.map((m) => [m.ruleId, m.severity, m.span?.start.line, m.span?.start.column])).toEqual([['native/syntax', 'error', 1, 41]]);
    expect(exitCodeFor(run)).toBe(1);
  });
});

describe('names above the folder linted', () => {
  it('say nothing: a `settings.json` at the root of a repository called `claude` is no Claude Code file', () => {
    const root = tree({ 'claude/settings.json': '{ "permissions": { "allow": ["Write(x)"] } }' });
    const run = lintFiles(['.'], { cwd: join(root, 'claude') });
    expect(run.results).toEqual([]);
    const named = lintFiles(['.'], { cwd: root });
    expect(named.results.map((r) => r.file)).toEqual(['claude/settings.json']);
  });
});

describe('standard input', () => {
  it('is read as the agent file `--stdin-filename` names', () => {
    const run = lintFiles(['-'], { cwd: tmpdir(), stdin: { name: '.claude/settings.json', read: { text: '{ "permissions": { "allow": ["Write(x)"] } }', diagnostics: [] } } });
    expect(run.results.map((r) => [r.file, r.native, r.messages.map((m) => m.ruleId)])).toEqual([['.claude/settings.json', 'claude-settings', ['native/never-consulted']]]);
  });
});
