import { describe, expect, it } from 'vitest';
import { lintSource } from '../runner.ts';
import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './lint-unused-suppression.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [y('mode: allow_all')],
  invalid: [
    {
      code: y('mode: pattern', '# verdict-disable-next-line rules/duplicate -- not a duplicate', 'default: deny'),
      errors: [
        {
          messageId: 'unused',
          line: 2,
          column: 1,
          message: 'this comment suppresses `rules/duplicate`, but nothing is reported there on the next line',
        },
      ],
    },
  ],
});

describe('suppressions through the whole linter', () => {
  const src = y(
    'mode: pattern',
    'reason: only reads inside /workspace are allowed; ask the operator',
    'allow:',
    '  # verdict-disable-next-line rules/missing-tool -- every tool may read the workspace',
    '  - {match: "/workspace/"}',
    '  # verdict-disable-next-line',
    '  - {match: "/tmp/"}',
    '  # verdict-disable-next-line regex/invalid, rules/missing-tool',
    '  - {tool: read, match: ".*"}',
  );
  const result = lintSource(src, 'p.yaml');
  it('silences the named rule on the next line and reports it as suppressed', () => {
    expect(result.suppressed.map((m) => `${m.ruleId}@${m.span?.start.line}`)).toEqual(['rules/missing-tool@5', 'rules/missing-tool@7']);
  });
  it('warns about the rule ids that suppressed nothing', () => {
    expect(result.messages.map((m) => `${m.ruleId}@${m.span?.start.line}:${m.span?.start.column} ${m.message}`)).toEqual([
      'lint/unused-suppression@8:3 this comment suppresses `regex/invalid`, but nothing is reported there on the next line',
      'lint/unused-suppression@8:3 this comment suppresses `rules/missing-tool`, but nothing is reported there on the next line',
    ]);
  });
  it('works in .verdict files too', () => {
    const r = lintSource('# verdict-disable-next-line rules/duplicate\n', 'p.verdict');
    expect(r.messages.filter((m) => m.ruleId === 'lint/unused-suppression').map((m) => m.span?.start.line)).toEqual([1]);
  });
  it('JSON has no comments and so no suppressions', () => {
    const r = lintSource('{"mode": "allow_all"}', 'p.json');
    expect(r.messages).toEqual([]);
  });
});
