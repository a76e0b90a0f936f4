import { describe, expect, it } from 'vitest';
import { ruleLabel, ruleWhere, spanText } from './rule-ref.ts';

const span = { file: 'p.yaml', start: { offset: 40, line: 5, column: 7 }, end: { offset: 44, line: 5, column: 11 } };

describe('rule references in messages', () => {
  it('names a rule by list and index, and no rule as the default', () => {
    expect(ruleLabel({ list: 'allow', index: 2 })).toBe('allow[2]');
    expect(ruleLabel(null)).toBe('default');
  });
  it('gives a place as editors open it', () => {
    expect(spanText(span)).toBe('p.yaml:5:7');
  });
  it('puts the place after the name, in prose or in parentheses, and leaves it out without a span', () => {
    expect(ruleWhere({ list: 'deny', index: 0, span })).toBe('deny[0] at p.yaml:5:7');
    expect(ruleWhere({ list: 'deny', index: 0, span }, 'parens')).toBe('deny[0] (p.yaml:5:7)');
    expect(ruleWhere({ list: 'deny', index: 0, span }, 'parens', '`rm`')).toBe('deny[0] `rm` (p.yaml:5:7)');
    expect(ruleWhere({ list: 'ask', index: 1 })).toBe('ask[1]');
  });
});
