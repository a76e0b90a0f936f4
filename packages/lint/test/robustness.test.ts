/**
 * The linter never throws and no rule crashes, whatever the policy says: random approver blocks
 * with regex-like patterns (the probing rules build witnesses from them), random run policies, and
 * random text in every syntax.
 */
import { RegexCache } from '@verdict/analysis';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintSource } from '../src/runner.ts';

const regexChar = fc.constantFrom('a', 'b', '"', ':', '{', '}', '\\', '^', '$', '(', ')', '|', '*', '+', '?', '.', '[', ']', '/', ' ', ';', 's', 'd', 'Q', 'E', 'x', '?=', '(?m)', '\\s', '\\"');
const pattern = fc.array(regexChar, { maxLength: 14 }).map((xs) => xs.join(''));
const tool = fc.constantFrom('', 'bash', 'Bash', 'read', 'edit', 'exec');
const rule = fc.record(
  { tool, match: pattern, field: fc.option(fc.constantFrom('command', 'path'), { nil: undefined }) },
  { requiredKeys: [] },
);
const approver = fc.record({
  mode: fc.constantFrom('pattern', ' Pattern ', 'allow_all', 'deny_all', '', 'bogus'),
  default: fc.constantFrom('allow', 'deny', '', 'ALLOW', ' allow'),
  reason: fc.string({ maxLength: 30 }),
  input: fc.constantFrom('raw', 'canonical'),
  allow: fc.array(rule, { maxLength: 4 }),
  deny: fc.array(rule, { maxLength: 4 }),
});
const policy = fc.record(
  {
    sandbox: fc.constantFrom('', 'read_only', 'unrestricted', 'READ_ONLY'),
    web_search: fc.constantFrom('allow', 'deny', 'x'),
    approvals: fc.record(
      {
        permission: fc.constantFrom('ask', 'auto_approve', 'auto_reject', 'auto_deny'),
        question: fc.constantFrom('ask', 'auto_reject', 'auto_approve'),
        timeout: fc.constantFrom('30s', '-5s', '0', 'x'),
        on_timeout: fc.constantFrom('retry', 'abort', 'Retry'),
        on_reject: fc.constantFrom('retry', 'continue'),
        max_retries: fc.integer({ min: -2, max: 3 }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);
const doc = fc.record(
  {
    driver: fc.constantFrom('claude', 'codex', 'cursor', 'codebuddy', 'nope'),
    policy,
    approver,
    tests: fc.array(fc.record({ tool, input: fc.dictionary(fc.constantFrom('command', 'path'), fc.string({ maxLength: 10 })), expect: fc.constantFrom('allow', 'deny') }), { maxLength: 2 }),
  },
  { requiredKeys: ['approver'] },
);

describe('robustness', () => {
  const regexes = new RegexCache();
  it('random policies: no throw, no internal error', () => {
    fc.assert(
      fc.property(doc, (d) => {
        const r = lintSource(JSON.stringify(d, null, 1), 'p.json', { regexes });
        expect(r.messages.filter((m) => m.ruleId === 'lint/internal-error').map((m) => m.message)).toEqual([]);
        for (const m of r.messages) expect(m.span?.start.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 50 },
    );
  });
  it('random text in every syntax: no throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.constantFrom('p.yaml', 'p.json', 'p.verdict'), (text, file) => {
        const r = lintSource(text, file, { regexes });
        expect(r.messages.filter((m) => m.ruleId === 'lint/internal-error').map((m) => m.message)).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });
});
