import { describe, expect, it } from 'vitest';
import { ruleMatches } from './rule-matches.ts';

describe('ruleMatches: one rule, one call, as the approver decides it', () => {
  const call = (input: string, toolName = 'bash') => ({ toolName, input });
  it('matches a pattern anywhere in the raw text, tool names under case folding', () => {
    const rule = { tool: 'Bash', match: 'rm -rf', list: 'deny' as const };
    expect(ruleMatches(rule, call('{"command":"rm -rf /"}', 'BASH'))).toBe(true);
    expect(ruleMatches(rule, call('{"command":"rm -rf /"}', 'zsh'))).toBe(false);
    expect(ruleMatches(rule, call('{"command":"\\u0072m -rf /"}'))).toBe(false);
    expect(ruleMatches({ ...rule, input: 'canonical' }, call('{"command":"\\u0072m -rf /"}'))).toBe(true);
  });
  it('fails closed as its list does: a deny or ask `field` rule matches input raw mode cannot read, an allow rule does not', () => {
    const rule = { tool: '', match: 'ls', field: 'command' };
    for (const input of ['{"command":"ls"', '{"command":"ls","command":"ls"}', 'ls']) {
      expect(ruleMatches({ ...rule, list: 'deny' }, call(input)), input).toBe(true);
      expect(ruleMatches({ ...rule, list: 'ask' }, call(input)), input).toBe(true);
      expect(ruleMatches({ ...rule, list: 'allow' }, call(input)), input).toBe(false);
    }
  });
  it('is undefined when the call never reaches the rules or the pattern does not compile', () => {
    expect(ruleMatches({ tool: '', match: 'ls', list: 'deny', input: 'canonical' }, call('ls'))).toBeUndefined();
    expect(ruleMatches({ tool: '', match: '(', list: 'allow' }, call('('))).toBeUndefined();
  });
});
