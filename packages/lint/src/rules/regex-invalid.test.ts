import { describe, expect, it } from 'vitest';
import { runRuleTests } from '../../test/support/rule-tester.ts';
import { lintSource } from '../runner.ts';
import rule from './regex-invalid.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'allow:', '  - {tool: bash, match: "git (status|diff)"}'),
    y('mode: pattern', 'allow:', '  - {tool: read}'),
  ],
  invalid: [
    {
      code: y('mode: pattern', 'default: deny', 'allow:', '  - {tool: bash, match: "git (status"}'),
      errors: [
        {
          messageId: 'invalid',
          line: 4,
          column: 25,
          message: 'pattern `git (status` does not compile: error parsing regexp: missing closing ): `git (status`',
        },
      ],
    },
    {
      name: 'deny list and a .verdict-free JSON file',
      filename: 'p.json',
      code: '{"mode": "pattern", "deny": [{"tool": "bash", "match": "x{2,1}"}]}',
      errors: [{ messageId: 'invalid', line: 1, column: 56 }],
    },
  ],
});

describe('regex/invalid and regex/unsupported-syntax', () => {
  it('a construct RE2 lacks is reported once, by regex/unsupported-syntax (its `supersedes`)', () => {
    const r = lintSource(y('mode: pattern', 'allow:', '  - {tool: bash, match: "a(?=b)"}'), 'p.yaml');
    expect(r.messages.filter((m) => m.ruleId.startsWith('regex/')).map((m) => [m.ruleId, m.span?.start.line, m.span?.start.column])).toEqual([
      ['regex/unsupported-syntax', 3, 25],
    ]);
  });
  it('with regex/unsupported-syntax off, regex/invalid reports it', () => {
    const config = { rules: { 'regex/unsupported-syntax': { severity: 'off' as const } }, categories: {}, include: [], ignore: [] };
    const r = lintSource(y('mode: pattern', 'allow:', '  - {tool: bash, match: "a(?=b)"}'), 'p.yaml', { config });
    expect(r.messages.filter((m) => m.ruleId.startsWith('regex/')).map((m) => m.ruleId)).toEqual(['regex/invalid']);
  });
});
