/**
 * The runner's services (`meta.needs`) and the closed list of rule lists it walks (`eachRule`).
 */
import { MAX_PATTERN_CHARS, RULE_LISTS } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import { createRule } from '../src/create-rule.ts';
import { lintSource } from '../src/runner.ts';
import { allRules } from '../src/rules/index.ts';

const meta = { description: 'x', severity: 'warning', category: 'lint', messages: { m: '{{d}}' }, docs: { recommended: false } } as const;

/** A rule that reports the decision of `Bash {"command":"git status"}` by the approver service. */
const decides = (needs: boolean) =>
  createRule({
    id: 'test/decides',
    meta: { ...meta, ...(needs ? { needs: ['approver'] as const } : {}) },
    create: (ctx) => ({
      approver(a) {
        const approver = ctx.services.approver;
        ctx.report({ node: a, messageId: 'm', data: { d: approver === null ? 'none' : approver.decide({ toolName: 'Bash', input: '{"command":"git status"}' }).decision } });
      },
    }),
  });

const withCommandRules = 'approver:\n  mode: pattern\n  reason: no\n  allow:\n    - {tool: Bash, command: [git, status]}\n';

describe('the approver service', () => {
  it('is the file’s approver with the command judge: command rules decide', () => {
    const r = lintSource(withCommandRules, 'p.yaml', { rules: [decides(true)], only: ['test/decides'] });
    expect(r.messages.map((m) => m.message)).toEqual(['allow']);
  });
  it('is `null` for an approver that does not load (the compiler says why)', () => {
    const r = lintSource('approver:\n  mode: pattern\n  default: maybe\n', 'p.yaml', { rules: [decides(true)], only: ['test/decides'] });
    expect(r.messages.map((m) => m.message)).toEqual(['none']);
  });
  it('read without `meta.needs` is a located internal error, not silence', () => {
    const r = lintSource(withCommandRules, 'p.yaml', { rules: [...allRules.filter((x) => x.id === 'lint/internal-error'), decides(false)], only: ['test/decides'] });
    expect(r.messages.map((m) => `${m.ruleId}: ${m.message}`)).toEqual([
      'lint/internal-error: rule `test/decides` crashed on this file: read the `approver` service without declaring it in `meta.needs`',
    ]);
    expect(r.errorCount).toBe(1);
  });
  it('every rule that reads it declares it', () => {
    expect(allRules.filter((r) => r.meta.needs?.includes('approver')).map((r) => r.id).sort()).toEqual(['rules/field-deny-evasion', 'tests/failing']);
  });
});

describe('an over-long pattern', () => {
  const visited = createRule({
    id: 'test/visited',
    meta,
    create: (ctx) => ({ rule: (r, list) => ctx.report({ node: r, messageId: 'm', data: { d: list } }) }),
  });
  // Each list: a file with one pattern past the engine's limit runs no rule (the compiler refuses it);
  // the `ask` list was once forgotten, and a 3 M-character pattern there took ~9 s and 1.7 GB.
  for (const list of RULE_LISTS) {
    it(`under \`${list}:\` runs no rule`, () => {
      const long = 'a'.repeat(MAX_PATTERN_CHARS + 1);
      const text = `approver:\n  mode: pattern\n  reason: no\n  ${list}:\n    - {tool: Bash, match: "${long}"}\n`;
      const r = lintSource(text, 'p.yaml', { rules: [visited], only: ['test/visited'] });
      expect(r.messages.filter((m) => m.ruleId === 'test/visited')).toEqual([]);
      const short = lintSource(text.replace(long, 'a'), 'p.yaml', { rules: [visited], only: ['test/visited'] });
      expect(short.messages.map((m) => m.message)).toEqual([list]);
    });
  }
});
