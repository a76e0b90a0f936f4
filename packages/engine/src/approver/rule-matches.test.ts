import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileApprover } from './config.ts';
import { ruleMatches } from './definition.ts';

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

describe('ruleMatches agrees with `explain` of the rule alone in its list', () => {
  const fragment = fc.constantFrom(
    '', 'a', 'rm -rf', '^', '$', '\\A', '\\z', '.', '.*', '(?i)', '(?s)', '(?m)', '\\s+', '[^"]*', '"command":"',
    '(ls|git)', '|', 'x{2}', '\\b', '(', ')', '\\p{L}', '\\x{1F600}', 'é', '\\Q.*\\E',
  );
  const input = fc.oneof(
    fc.string({ unit: fc.constantFrom('a', 'r', 'm', ' ', '-', 'f', '"', ':', '{', '}', 'x', '\n', 'é', '\ud800', '😀', 'L') }),
    fc.string({ unit: fc.constantFrom('a', 'r', 'm', 'x', ' ', '\n', '\ud800', '/') }).map((s) => JSON.stringify({ command: s })),
    fc.constantFrom('', '{"command":"\\u0072m -rf"}', '{"command":"ls","COMMAND":"x"}', '{"command":', '[1]', '{"Command":"ls"}'),
  );
  it('for every list, input mode and rule shape', () => {
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 4 }).map((p) => p.join('')),
        fc.constantFrom(undefined, 'command'),
        fc.constantFrom('allow' as const, 'deny' as const, 'ask' as const),
        fc.constantFrom('raw' as const, 'canonical' as const),
        input,
        (match, field, list, mode, text) => {
          const alone = field === undefined ? { tool: '', match } : { tool: '', match, field };
          const approver = compileApprover({
            mode: 'pattern', default: list === 'allow' ? 'deny' : 'allow', reason: '', input: mode,
            allow: list === 'allow' ? [alone] : [], deny: list === 'deny' ? [alone] : [], ...(list === 'ask' ? { ask: [alone] } : {}),
          }).approver;
          const e = approver?.explain({ toolName: 't', input: text });
          const want = e === undefined || e.by === 'invalid-input' || e.by === 'internal-error' ? undefined : e.by === 'rule';
          expect(ruleMatches({ ...alone, list, input: mode }, { toolName: 't', input: text })).toBe(want);
        },
      ),
      { numRuns: 1500 },
    );
  });
});
