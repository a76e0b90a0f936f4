/**
 * Issue 24's classes of texts that the shells read unlike the parser, or unlike one another
 * (fixtures/shell/readings.jsonl, several spellings of each), are never allowed: under every agent
 * starter policy (YAML and `.verdict`), on each shell tool of the default table, and under the
 * read-only shell policy. Here, with the CLI's tests, because the starters are compiled files.
 * A policy whose `shells:` leaves out every shell a text depends on (its `shells` in the file:
 * `ls =touch` is only zsh's) may read it as the shells it names do.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileFile, compileSource } from '@verdict/compiler';
import type { CompiledApprover } from '@verdict/engine';
import { DECIDING } from '../src/command-rules.ts';
import { repoRoot, runCli } from './harness.ts';

const POLICIES = [
  'fixtures/policies/claude-code.yaml',
  'fixtures/policies/claude-code.verdict',
  'fixtures/policies/codex.yaml',
  'fixtures/policies/codex.verdict',
  'fixtures/policies/gemini-cli.yaml',
  'fixtures/policies/gemini-cli.verdict',
  'fixtures/policies/cursor.yaml',
  'fixtures/policies/cursor.verdict',
  'fixtures/shell/read-only.policy.yaml',
];
const TOOLS = ['Bash', 'run_shell_command', 'Shell'];

const readings = readFileSync(join(repoRoot, 'fixtures/shell/readings.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { class: string; command: string; shells?: string[] });

function load(file: string): CompiledApprover {
  return loadWithShells(file).approver;
}

/** The approver, and the shells its policy says may run the text (`any`: all three). */
function loadWithShells(file: string): { approver: CompiledApprover; shells: string[] } {
  const r = compileFile(join(repoRoot, file), DECIDING);
  if (r.approver === undefined) throw new Error(`${file} does not load`);
  const named = r.ir?.approver?.shells;
  return { approver: r.approver, shells: named === undefined || named.includes('any') ? ['bash', 'zsh', 'sh'] : named };
}

describe('texts read unlike the shells are never allowed', () => {
  it('has several spellings of each class', () => {
    const counts = new Map<string, number>();
    for (const r of readings) counts.set(r.class, (counts.get(r.class) ?? 0) + 1);
    expect([...counts.values()].every((n) => n >= 3)).toBe(true);
    expect(counts.size).toBeGreaterThanOrEqual(15);
  });

  for (const file of POLICIES) {
    it(`under ${file}`, () => {
      const { approver, shells } = loadWithShells(file);
      const allowed: string[] = [];
      for (const { command, shells: dependsOn } of readings) {
        if (!(dependsOn ?? ['bash', 'zsh', 'sh']).some((s) => shells.includes(s))) continue;
        for (const toolName of TOOLS) {
          if (approver.decide({ toolName, input: JSON.stringify({ command }) }).decision === 'allow') allowed.push(`${toolName}: ${JSON.stringify(command)}`);
        }
      }
      expect(allowed).toEqual([]);
    });
  }

  it('the same text without the construct is allowed by the starter (the test can fail)', () => {
    const approver = load('fixtures/policies/claude-code.yaml');
    expect(approver.decide({ toolName: 'Bash', input: JSON.stringify({ command: 'ls x' }) }).decision).toBe('allow');
    expect(approver.decide({ toolName: 'Bash', input: JSON.stringify({ command: 'git log --oneline' }) }).decision).toBe('allow');
  });

  it("a starter for bash alone reads what only zsh or sh read otherwise; one for any shell does not", () => {
    const gemini = loadWithShells('fixtures/policies/gemini-cli.yaml');
    const claude = loadWithShells('fixtures/policies/claude-code.yaml');
    expect(gemini.shells).toEqual(['bash']);
    expect(claude.shells).toEqual(['bash', 'zsh', 'sh']);
    for (const command of ["jq . <<< '{}'", 'git diff =rm', '[[ -f a && -f b ]] && ls', "ls $'a\\eb'"]) {
      expect(gemini.approver.decide({ toolName: 'run_shell_command', input: JSON.stringify({ command }) }).decision, command).toBe('allow');
      expect(claude.approver.decide({ toolName: 'Bash', input: JSON.stringify({ command }) }).decision, command).toBe('deny');
    }
    // What bash itself may read unlike the parser stays unknown under bash alone.
    for (const command of ["ls x[ ; touch m", "X='$(touch m)'; ls ${X@P}", "tr , $'\\n'", 'ls $"x"']) {
      expect(gemini.approver.decide({ toolName: 'run_shell_command', input: JSON.stringify({ command }) }).decision, command).toBe('deny');
    }
  });
});

describe('`shells:` and `environment:` that cannot load are located errors, in YAML and the DSL', () => {
  const at = (d: { span?: { start: { line: number; column: number }; end: { line: number; column: number } } }) =>
    d.span ? `${d.span.start.line}:${d.span.start.column}-${d.span.end.line}:${d.span.end.column}` : '';
  const head = (clause: string) => `approver pattern default deny ${clause} {\n  allow Bash command ["ls"]\n}\n`;
  it.each([
    [head('shells ["fish"]'), 'p.verdict', '1:38-1:46', 'command/invalid-shells'],
    [head('environment ["PATH"]'), 'p.verdict', '1:43-1:51', 'command/invalid-environment'],
    ['mode: pattern\ndefault: deny\nshells: [fish]\nallow:\n  - {tool: Bash, command: [ls]}\n', 'p.yaml', '3:10-3:14', 'schema/invalid-value'],
  ])('%j', (text, file, where, code) => {
    const r = compileSource(text, file, DECIDING);
    expect(r.approver).toBeUndefined();
    expect(r.diagnostics.map((d) => [at(d), d.code])).toEqual([[where, code]]);
  });
});

describe('`verdict diff` and `shells:`', () => {
  it('never calls two policies that differ only in `shells:` equivalent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-shells-'));
    const policy = (shells: string) => `approver:\n  mode: pattern\n  default: deny\n${shells}  allow:\n    - {tool: Bash, command: [cat]}\n`;
    writeFileSync(join(dir, 'any.yaml'), policy(''));
    writeFileSync(join(dir, 'bash.yaml'), policy('  shells: [bash]\n'));
    writeFileSync(join(dir, 'bash2.yaml'), policy('  shells: [bash]\n'));
    const changed = await runCli(['diff', join(dir, 'any.yaml'), join(dir, 'bash.yaml')]);
    expect(changed.stdout).not.toContain('verdict: equivalent');
    // `cat <<< x` is such a call: unknown under any shell, allowed under bash alone.
    expect(compileFile(join(dir, 'any.yaml'), DECIDING).approver!.decide({ toolName: 'Bash', input: JSON.stringify({ command: 'cat <<< x' }) }).decision).toBe('deny');
    expect(compileFile(join(dir, 'bash.yaml'), DECIDING).approver!.decide({ toolName: 'Bash', input: JSON.stringify({ command: 'cat <<< x' }) }).decision).toBe('allow');
    const same = await runCli(['diff', join(dir, 'bash.yaml'), join(dir, 'bash2.yaml')]);
    expect(same.stdout).toContain('verdict: equivalent');
  });
});
