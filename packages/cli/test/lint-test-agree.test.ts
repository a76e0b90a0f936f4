/**
 * `verdict lint` (its `tests/failing` rule) and `verdict test` say the same inline tests fail, on
 * every fixture policy with inline tests, as written and with every expectation turned to another
 * decision (so that each file's tests must fail, and both must say so). They decide through one
 * approver service: before it, lint compiled its own approver without the command judge and skipped
 * the tests of every policy with command rules in silence.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { lintSource } from '@verdict/lint';
import { runTarget } from '@verdict/testing';
import { describe, expect, it } from 'vitest';
import { DECIDING } from '../src/command-rules.ts';
import { repoRoot } from './harness.ts';

const ROTATE: Record<string, string> = { allow: 'deny', deny: 'ask', ask: 'allow' };

/** Every expectation of the file's inline tests turned to another decision, in its own syntax. */
function rotated(file: string, text: string): string {
  const turn = (d: string): string => ROTATE[d]!;
  if (file.endsWith('.verdict')) return text.replace(/(\btest \{\s*)(allow|deny|ask)\b/g, (_m, pre: string, d: string) => pre + turn(d));
  if (file.endsWith('.json')) return text.replace(/("expect"\s*:\s*")(allow|deny|ask)"/g, (_m, pre: string, d: string) => `${pre}${turn(d)}"`);
  return text.replace(/(\bexpect:\s*["']?)(allow|deny|ask)\b/g, (_m, pre: string, d: string) => pre + turn(d));
}

/** The lines of the failing inline tests, as `verdict test` finds them (`undefined`: the policy does not load). */
function testFailures(file: string, text: string): number[] | undefined {
  const run = runTarget({ policyFile: file, inline: true, caseFiles: [], source: text }, { compile: DECIDING });
  if (run.loadFailed) return undefined;
  return run.outcomes.filter((o) => !o.passed).map((o) => o.test.span?.start.line ?? -1);
}

/** The lines `verdict lint` reports `tests/failing` at. */
function lintFailures(file: string, text: string): number[] {
  return lintSource(text, file, { only: ['tests/failing'] })
    .messages.filter((m) => m.ruleId === 'tests/failing')
    .map((m) => m.span?.start.line ?? -1);
}

const files = (readdirSync(join(repoRoot, 'fixtures'), { recursive: true }) as string[])
  .map((f) => join(repoRoot, 'fixtures', f))
  .sort()
  .filter((f) => /\.(yaml|yml|json|verdict)$/.test(f) && !/\.test\.[a-z]+$/.test(f))
  .filter((f) => {
    const text = readFileSync(f, 'utf8');
    return /\btests:|"tests"|^test \{/m.test(text);
  });

describe('lint and test agree on every fixture inline test', () => {
  it('finds fixtures with inline tests, some with command rules', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.some((f) => f.endsWith('shell-commands.yaml'))).toBe(true);
  });

  for (const file of files) {
    const name = relative(repoRoot, file);
    it(name, () => {
      const text = readFileSync(file, 'utf8');
      const asWritten = testFailures(file, text);
      if (asWritten === undefined) return; // does not load: both report the load error instead
      expect(lintFailures(file, text), `${name} as written`).toEqual(asWritten);
      const turned = rotated(file, text);
      const failing = testFailures(file, turned);
      if (failing === undefined) return;
      if (turned !== text) expect(failing.length, `${name}: every expectation turned, some test fails`).toBeGreaterThan(0);
      expect(lintFailures(file, turned), `${name} with every expectation turned`).toEqual(failing);
    });
  }
});
