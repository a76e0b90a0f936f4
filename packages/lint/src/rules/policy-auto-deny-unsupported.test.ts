import { describe, expect, it } from 'vitest';
import { lintSource } from '../runner.ts';
import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './policy-auto-deny-unsupported.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('driver: claude', 'policy:', '  preset: approvals_auto_deny'),
    y('driver: codex', 'policy:', '  approvals:', '    permission: auto_approve'),
  ],
  invalid: [
    {
      code: y('driver: codex', 'policy:', '  preset: approvals_auto_deny'),
      errors: [
        {
          messageId: 'unsupported',
          line: 3,
          column: 11,
          message:
            'auto-reject for every kind (`approvals_auto_deny`) needs driver support for all three, and driver `codex` cannot auto-reject `permission`, `plan_review`, `question`',
        },
      ],
    },
    {
      code: y('driver: cursor', 'policy:', '  approvals:', '    permission: auto_reject', '    plan_review: auto_reject', '    question: auto_reject'),
      errors: [{ messageId: 'unsupported', line: 4, column: 17 }],
    },
  ],
});

describe('policy/auto-deny-unsupported supersedes policy/mode-unsupported in the file', () => {
  const code = y('driver: cursor', 'policy:', '  approvals:', '    permission: auto_reject', '    plan_review: auto_reject', '    question: auto_reject');
  const policyFindings = (r: ReturnType<typeof lintSource>) => r.messages.filter((m) => m.ruleId.startsWith('policy/')).map((m) => [m.ruleId, m.span?.start.line]);
  it('says the auto-deny shape once, not once per kind', () => {
    expect(policyFindings(lintSource(code, 'p.yaml'))).toEqual([['policy/auto-deny-unsupported', 4]]);
    const preset = y('driver: codex', 'policy:', '  preset: approvals_auto_deny');
    expect(policyFindings(lintSource(preset, 'p.yaml'))).toEqual([['policy/auto-deny-unsupported', 3]]);
  });
  it('with policy/auto-deny-unsupported off, each kind the driver cannot auto-reject is reported', () => {
    const config = { rules: { 'policy/auto-deny-unsupported': { severity: 'off' as const } }, categories: {}, include: [], ignore: [] };
    const found = policyFindings(lintSource(code, 'p.yaml', { config }));
    expect(found.length).toBeGreaterThan(0);
    expect(found.every(([id]) => id === 'policy/mode-unsupported')).toBe(true);
  });
});
