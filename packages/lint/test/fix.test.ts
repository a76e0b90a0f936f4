/** The fix loop: passes, its limit, offsets as editors read them, and what it never touches. */
import { describe, expect, it } from 'vitest';
import { createRule } from '../src/create-rule.ts';
import { fixSource, MAX_FIX_PASSES } from '../src/fix.ts';
import { lintSource } from '../src/runner.ts';
import { formatters } from '../src/formatters/index.ts';
import { allRules } from '../src/rules/index.ts';

describe('fixSource', () => {
  it('lints the fixed text again until nothing is left to fix', () => {
    const text = 'mode: pattern\ndeny:\n  - {tool: bash, match: "^rm -rf$"} # both anchors\n';
    const fixed = fixSource(text, 'p.yaml');
    expect(fixed.passes).toBe(2);
    expect(fixed.output).toBe('mode: pattern\ndeny:\n  - {tool: bash, match: "rm -rf"} # both anchors\n');
    expect(fixed.result.messages.filter((m) => m.ruleId === 'regex/impossible-anchor')).toEqual([]);
  });

  it('stops after 10 passes, as ESLint does', () => {
    const grow = createRule({
      id: 'test/grow',
      meta: { description: 'x', severity: 'warning', category: 'lint', messages: { m: 'm' }, docs: { recommended: false }, fixable: 'code' },
      create: (ctx) => ({ rule: (r) => ctx.report({ node: r, messageId: 'm', fix: ctx.fixPattern(r, `${r.match}x`) }) }),
    });
    const fixed = fixSource('mode: pattern\ndeny:\n  - {tool: bash, match: "a"}\n', 'p.yaml', { rules: [grow] });
    expect(MAX_FIX_PASSES).toBe(10);
    expect(fixed.passes).toBe(10);
    expect(fixed.output).toBe(`mode: pattern\ndeny:\n  - {tool: bash, match: "a${'x'.repeat(10)}"}\n`);
  });

  it('refuses a fix that would change anything but a pattern, and says so', () => {
    const wrong = createRule({
      id: 'test/wrong',
      meta: { description: 'x', severity: 'warning', category: 'lint', messages: { m: 'm' }, docs: { recommended: false }, fixable: 'code' },
      create: (ctx) => ({
        rule: (r) => ctx.report({ node: r, messageId: 'm', fix: { range: [r.toolSpan!.start.offset, r.toolSpan!.end.offset], text: 'sh' } }),
      }),
    });
    const text = 'mode: pattern\ndeny:\n  - {tool: bash, match: "a"}\n';
    const fixed = fixSource(text, 'p.yaml', { rules: [wrong] });
    expect(fixed.output).toBeUndefined();
    expect(fixed.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual(['fix/lossy: the fixes were not applied: a value other than the fixed patterns would change']);
    expect(fixed.result.messages.map((m) => m.ruleId)).toEqual(['test/wrong']);
  });

  it('a rule without meta.fixable cannot report a fix', () => {
    const sneaky = createRule({
      id: 'test/sneaky',
      meta: { description: 'x', severity: 'warning', category: 'lint', messages: { m: 'm' }, docs: { recommended: false } },
      create: (ctx) => ({ rule: (r) => ctx.report({ node: r, messageId: 'm', fix: { range: [0, 0], text: 'x' } }) }),
    });
    const result = lintSource('mode: pattern\ndeny:\n  - {tool: bash, match: "a"}\n', 'p.yaml', { rules: [...allRules, sneaky] });
    expect(result.messages.find((m) => m.ruleId === 'lint/internal-error')?.message).toContain('`meta.fixable`');
  });

  it('keeps a byte order mark of the text it is given', () => {
    const fixed = fixSource('\ufeffmode: pattern\ndeny:\n  - {tool: bash, match: "^sudo"}\n', 'p.yaml');
    expect(fixed.output).toBe('\ufeffmode: pattern\ndeny:\n  - {tool: bash, match: "sudo"}\n');
  });

  it('gives UTF-16 offsets into the text: an editor applying the JSON fix gets the fixed file', () => {
    // Astral characters (two code units each) and CRLF before the pattern.
    const text = '# 🚫 naïve policy 🚫\r\nmode: pattern\r\ndeny:\r\n  - {tool: bash, match: "^rm 🔥"}\r\n';
    const [result] = JSON.parse(formatters.json([lintSource(text, 'p.yaml')])) as { messages: { ruleId: string; fix?: { range: [number, number]; text: string } }[] }[];
    const fix = result!.messages.find((m) => m.ruleId === 'regex/impossible-anchor')!.fix!;
    expect(text.slice(0, fix.range[0]) + fix.text + text.slice(fix.range[1])).toBe(text.replace('"^rm', '"rm'));
  });

  it('gives no output when nothing is fixable', () => {
    expect(fixSource('mode: pattern\ndeny:\n  - {tool: bash, match: "sudo"}\n', 'p.yaml').output).toBeUndefined();
  });
});
