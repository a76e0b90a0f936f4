import { describe, expect, it } from 'vitest';
import { createRule } from '../create-rule.ts';
import { lintSource } from '../runner.ts';
import { allRules } from './index.ts';
import rule from './lint-internal-error.ts';

const boom = createRule({
  id: 'test/boom',
  meta: { description: 'throws', severity: 'error', category: 'lint', messages: { x: 'x' }, docs: { recommended: false } },
  create() {
    return {
      rule() {
        throw new Error('kaboom\nstack');
      },
    };
  },
});

describe('lint/internal-error', () => {
  it('has no visitor: the runner reports it', () => {
    expect(rule.create({} as never)).toBeUndefined();
  });
  it('turns a crashing rule into one finding at the file start; other rules still run', () => {
    const src = 'mode: pattern\nallow:\n  - {match: x}\n';
    const r = lintSource(src, 'p.yaml', { rules: [...allRules, boom] });
    const crash = r.messages.filter((m) => m.ruleId === 'lint/internal-error');
    expect(crash.map((m) => [m.span?.start.line, m.span?.start.column, m.severity, m.message])).toEqual([
      [1, 1, 'error', 'rule `test/boom` crashed on this file: kaboom'],
    ]);
    expect(crash[0]?.messageId).toBe('crashed');
    expect(r.messages.some((m) => m.ruleId === 'rules/missing-tool')).toBe(true);
    expect(r.errorCount).toBeGreaterThanOrEqual(1);
  });
  it('never throws on hostile input', () => {
    for (const src of ['', '\u0000', ':', '[', '{"a":', 'a: *x', '- - - -', '\uFEFF\uD800', 'approver: {allow: [{match: 1}]}']) {
      expect(() => lintSource(src, 'p.yaml')).not.toThrow();
      expect(() => lintSource(src, 'p.verdict')).not.toThrow();
      expect(() => lintSource(src, 'p.json')).not.toThrow();
    }
  });
});
