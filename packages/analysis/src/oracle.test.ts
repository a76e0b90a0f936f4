import { ruleMatches } from '@verdict/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineOracle, ruleMatchesInput } from './oracle.ts';
import { RegexCache } from './regex-cache.ts';

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
    it(`${mode} rules without \`field\` (answered by the run's compiled regex) give the engine's ruleMatches answer`, () => {
      const regexes = new RegexCache();
      fc.assert(
        fc.property(pattern, fc.constantFrom('allow' as const, 'deny' as const, 'ask' as const), input, (match, list, text) => {
          const want = regexes.get(match).ok ? ruleMatches({ tool: '', match, list, input: mode }, { toolName: 'probe', input: text }) : undefined;
          expect(ruleMatchesInput(regexes, { match }, list, mode, text)).toBe(want);
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

  it('follows the rule list for `field` rules on input raw mode cannot read (deny matches, allow does not)', () => {
    const regexes = new RegexCache();
    const rule = { match: 'ls', field: 'command' };
    expect(ruleMatchesInput(regexes, rule, 'deny', 'raw', '{"command":"ls"')).toBe(true);
    expect(ruleMatchesInput(regexes, rule, 'ask', 'raw', '{"command":"ls","command":"ls"}')).toBe(true);
    expect(ruleMatchesInput(regexes, rule, 'allow', 'raw', '{"command":"ls"')).toBe(false);
  });
});

describe('EngineOracle.ruleMatches', () => {
  it('gives the same answer as the lint probes, tool names folded', () => {
    const oracle = new EngineOracle();
    const rule = { tool: 'Bash', match: 'ls', field: 'command' };
    // The analysis once judged every rule as an allow rule: a deny field rule on unreadable input did not match.
    expect(oracle.ruleMatches(rule, 'deny', 'raw', 'bash', '{"command":')).toBe(true);
    expect(oracle.ruleMatches(rule, 'allow', 'raw', 'bash', '{"command":')).toBe(false);
    expect(oracle.ruleMatches(rule, 'allow', 'raw', 'BASH', '{"command":"ls"}')).toBe(true);
    expect(oracle.ruleMatches(rule, 'allow', 'raw', 'zsh', '{"command":"ls"}')).toBe(false);
  });
});
