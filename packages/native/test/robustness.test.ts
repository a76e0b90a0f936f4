/**
 * A reader never throws, and every finding it makes is located inside the text: whatever the
 * bytes of a file the agents would load (random text, truncations of real-looking files, deep
 * nesting), a user sees located diagnostics, never a crash.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { readNative } from '../src/index.ts';
import type { NativeFormat } from '../src/index.ts';

const FORMATS: NativeFormat[] = ['claude-settings', 'codex-rules', 'codex-requirements', 'gemini-policy', 'gemini-settings', 'cursor-cli'];

const SAMPLES: Record<NativeFormat, string> = {
  'claude-settings': '{ "permissions": { "allow": ["Bash(git log:*)", "Read(~/.x)"], "deny": ["Bash(rm -rf *)"], "defaultMode": "plan" } }',
  'codex-rules': 'prefix_rule(\n  pattern = ["git", ["push", "fetch"]],\n  decision = "prompt",\n  match = ["git push origin"],\n)\nhost_executable(name = "git", paths = ["/usr/bin/git"])\n',
  'codex-requirements': '[rules]\nprefix_rules = [{ pattern = [{ token = "git" }, { any_of = ["push"] }], decision = "forbidden" }]\n',
  'gemini-policy': '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["git status", "ls"]\ndecision = "allow"\npriority = 10\n',
  'gemini-settings': '{ // c\n "tools": { "allowed": ["run_shell_command(git status)"], "exclude": ["x"] } }',
  'cursor-cli': '{ "permissions": { "allow": ["Shell(git)"], "deny": ["Write(.env)"] } }',
};

function located(format: NativeFormat, text: string): void {
  const r = readNative('f', text, format);
  for (const d of r.diagnostics) {
    expect(d.span, d.message).toBeDefined();
    expect(d.span!.start.offset).toBeGreaterThanOrEqual(0);
    expect(d.span!.end.offset).toBeLessThanOrEqual(text.length);
  }
  // What the reader refuses to read statically makes the result incomplete, never a guess.
  if (r.diagnostics.some((d) => d.code === 'native/syntax' || d.code === 'native/not-static')) expect(r.complete).toBe(false);
}

describe('native readers on any text', () => {
  for (const format of FORMATS) {
    test.prop([fc.string({ maxLength: 300 })], { numRuns: 300 })(`${format}: random text`, (text) => located(format, text));
    test.prop([fc.nat({ max: SAMPLES[format].length }), fc.string({ maxLength: 8 })], { numRuns: 300 })(`${format}: a real-looking file cut and spliced`, (at, insert) => {
      const s = SAMPLES[format];
      located(format, s.slice(0, at) + insert + s.slice(at));
    });
  }

  it('reads deep nesting without exhausting the stack', () => {
    located('codex-rules', `prefix_rule(pattern = ${'['.repeat(5000)}"x"${']'.repeat(5000)})`);
    located('gemini-policy', `x = ${'['.repeat(5000)}1${']'.repeat(5000)}`);
    located('claude-settings', `{"permissions": ${'['.repeat(5000)}${']'.repeat(5000)}}`);
  });
});
