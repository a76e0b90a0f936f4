import { describe, expect, it, vi } from 'vitest';
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
  it('never throws on hostile input, and nothing crashes on it', () => {
    expect(crashes(lintSource)).toEqual([]);
  });
  it('the check above fails when the compiler crashes on every file', async () => {
    vi.resetModules();
    vi.doMock('@verdict/compiler', async (original) => ({
      ...(await original<typeof import('@verdict/compiler')>()),
      compileSource: () => {
        throw new Error('injected');
      },
    }));
    try {
      const { lintSource: crashing } = await import('../runner.ts');
      const found = crashes(crashing);
      expect(found.length).toBe(HOSTILE.length * 3);
      expect(found[0]).toBe('p.yaml: the compiler crashed on this file: injected');
    } finally {
      vi.doUnmock('@verdict/compiler');
      vi.resetModules();
    }
  });
});

const HOSTILE = ['', '\u0000', ':', '[', '{"a":', 'a: *x', '- - - -', '\uFEFF\uD800', 'approver: {allow: [{match: 1}]}'];

/** Every throw and every internal-error finding of `lint` over the hostile inputs, in each syntax. */
function crashes(lint: typeof lintSource): string[] {
  const out: string[] = [];
  for (const src of HOSTILE) {
    for (const file of ['p.yaml', 'p.verdict', 'p.json']) {
      try {
        for (const m of lint(src, file).messages) if (m.ruleId === 'lint/internal-error') out.push(`${file}: ${m.message}`);
      } catch (e) {
        out.push(`${file}: threw ${String(e)}`);
      }
    }
  }
  return out;
}
