import { describe, expect, it } from 'vitest';
import { EngineOracle, ruleMatchesInput } from './oracle.ts';
import { RegexCache } from './regex-cache.ts';

describe('ruleMatchesInput', () => {
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
