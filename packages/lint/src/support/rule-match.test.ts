import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RegexCache } from './regex-cache.ts';
import { ruleMatchesInput, ruleMatchesInputByApprover } from './rule-match.ts';

describe('ruleMatchesInput', () => {
  const fragment = fc.constantFrom(
    '', 'a', 'rm -rf', '^', '$', '\\A', '\\z', '.', '.*', '(?i)', '(?s)', '(?m)', '\\s+', '[^"]*', '"command":"',
    '(ls|git)', '|', 'x{2}', '\\u', '\\\\', '\\b', '(', ')', '[', '\\p{L}', '\\x{1F600}', 'é', '(?:a){0}', '\\Q.*\\E',
  );
  const pattern = fc.array(fragment, { maxLength: 5 }).map((p) => p.join(''));
  const input = fc.oneof(
    fc.string({ unit: fc.constantFrom('a', 'r', 'm', ' ', '-', 'f', '"', ':', '{', '}', 'x', '\n', 'é', '\ud800', '😀', 'L', 'S') }),
    fc.string({ unit: fc.constantFrom('a', 'r', 'm', 'x', ' ', '\t', '\n', '\ud800', '/') }).map((s) => JSON.stringify({ command: s })),
    fc.constantFrom('', '  ', '{"command":"\\u0072m -rf"}', '{"a":1,"A":2}', '{ "command" : "rm\\t-rf" }', '[1]', '"rm -rf"', '{"b":"x","a":"\\/"}'),
  );

  for (const mode of ['raw', 'canonical'] as const) {
    it(`${mode} rules without \`field\` give the one-rule approver answer`, () => {
      const regexes = new RegexCache();
      fc.assert(
        fc.property(pattern, fc.constantFrom('allow' as const, 'deny' as const), input, (match, list, text) => {
          const rule = { match };
          expect(ruleMatchesInput(regexes, rule, list, mode, text)).toBe(ruleMatchesInputByApprover(regexes, rule, list, mode, text));
        }),
        { numRuns: 2000 },
      );
    });
  }

  it('says which inputs a rule matches, and undefined for a pattern that does not compile', () => {
    const regexes = new RegexCache();
    expect(ruleMatchesInput(regexes, { match: 'rm -rf' }, 'deny', 'raw', '{"command":"rm -rf /"}')).toBe(true);
    expect(ruleMatchesInput(regexes, { match: 'rm -rf' }, 'deny', 'raw', '{"command":"\\u0072m -rf /"}')).toBe(false);
    expect(ruleMatchesInput(regexes, { match: '' }, 'allow', 'raw', 'anything')).toBe(true);
    expect(ruleMatchesInput(regexes, { match: '(' }, 'allow', 'raw', '(')).toBeUndefined();
    // canonical mode decodes escapes first, and rejects input that is not a JSON object
    expect(ruleMatchesInput(regexes, { match: 'rm -rf' }, 'deny', 'canonical', '{"command":"\\u0072m -rf /"}')).toBe(true);
    expect(ruleMatchesInput(regexes, { match: 'rm' }, 'deny', 'canonical', 'rm')).toBeUndefined();
  });
});
