/**
 * Issue 24's classes of texts that the shells read unlike the parser, or unlike one another
 * (fixtures/shell/readings.jsonl, several spellings of each), are never allowed: under every agent
 * starter policy (YAML and `.verdict`), on each shell tool of the default table, and under the
 * read-only shell policy. Here, with the CLI's tests, because the starters are compiled files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileFile } from '@verdict/compiler';
import type { CompiledApprover } from '@verdict/engine';
import { DECIDING } from '../src/command-rules.ts';
import { repoRoot } from './harness.ts';

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
  .map((l) => JSON.parse(l) as { class: string; command: string });

function load(file: string): CompiledApprover {
  const r = compileFile(join(repoRoot, file), DECIDING);
  if (r.approver === undefined) throw new Error(`${file} does not load`);
  return r.approver;
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
      const approver = load(file);
      const allowed: string[] = [];
      for (const { command } of readings) {
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
});
