/**
 * The definition against the acceptance tables, with no approver in between: every pattern case of
 * `fixtures/cases/decisions.json` (C2) and `decisions-ask.json` (A6) decided by the public
 * `ruleMatches` oracle, rule by rule in the order deny, ask, allow; and the oracle's own edges.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { InputMode, RuleList } from '../ir.ts';
import type { CaseApproverConfig, CaseRule } from '../../test/support/case-files.ts';
import { LIST_ORDER, ruleMatches } from './definition.ts';

interface Expected {
  decision: 'allow' | 'deny' | 'ask';
  rule: string;
}
interface DecisionCase {
  name: string;
  approver: CaseApproverConfig;
  tool: string;
  input: string;
  expect: { raw?: Expected; canonical?: Expected };
}

function cases(file: string): DecisionCase[] {
  const text = readFileSync(new URL(`../../../../fixtures/cases/${file}`, import.meta.url), 'utf8');
  return (JSON.parse(text) as { cases: DecisionCase[] }).cases.filter((c) => c.approver.mode === 'pattern');
}

/** The decision by the oracle alone: the first rule that matches in `LIST_ORDER`, else the default. */
function byOracle(config: CaseApproverConfig, mode: InputMode, toolName: string, input: string): string {
  for (const list of LIST_ORDER) {
    const rules: CaseRule[] = config[list] ?? [];
    for (const [i, rule] of rules.entries()) {
      const m = ruleMatches({ list, tool: rule.tool ?? '', match: rule.match ?? '', ...(rule.field === undefined ? {} : { field: rule.field }), input: mode }, { toolName, input });
      if (m === undefined) return 'deny:invalid-input';
      if (m) return `${list}:${list}[${i}]`;
    }
  }
  return `${config.default === 'allow' ? 'allow' : 'deny'}:default`;
}

describe('the definition decides the acceptance tables (C2, A6)', () => {
  const rows: [string, InputMode, DecisionCase, Expected][] = [];
  for (const c of [...cases('decisions.json'), ...cases('decisions-ask.json')]) {
    if (c.expect.raw) rows.push([c.name, 'raw', c, c.expect.raw]);
    if (c.expect.canonical) rows.push([c.name, 'canonical', c, c.expect.canonical]);
  }

  it('reads every pattern case of both files', () => {
    expect(rows.length).toBeGreaterThan(80);
  });

  it.each(rows)('%s [%s]', (_name, mode, c, expected) => {
    // A refused input is denied before any rule is tried: with no rule, the oracle is not asked.
    const noRule = LIST_ORDER.every((l) => (c.approver[l] ?? []).length === 0);
    if (noRule && expected.rule === 'invalid-input') return;
    expect(byOracle(c.approver, mode, c.tool, c.input)).toBe(`${expected.decision}:${expected.rule}`);
  });
});

describe('ruleMatches (the public oracle)', () => {
  // The call's input mode rides on the rule (`input`), as an approver's does.
  const call = (input: string, mode: InputMode = 'raw', toolName = 'Bash') => ({ toolName, input, mode });
  const oracle = (r: { list: RuleList; match: string; tool?: string; field?: string }, c: { toolName: string; input: string; mode: InputMode }) =>
    ruleMatches({ tool: '', ...r, input: c.mode }, { toolName: c.toolName, input: c.input });
  const rule = (list: RuleList, match: string, extra: { tool?: string; field?: string } = {}) => ({ list, match, ...extra });

  it('compares tools under simple case folding and searches the raw text unanchored', () => {
    expect(oracle(rule('deny', 'rm', { tool: 'bash' }), call('{"command":"rm -rf /"}'))).toBe(true);
    expect(oracle(rule('deny', 'rm', { tool: 'read' }), call('{"command":"rm -rf /"}'))).toBe(false);
    expect(oracle(rule('deny', 'rm', { tool: '\u212aill' }), call('rm', 'raw', 'kill'))).toBe(true);
    expect(oracle({ list: 'allow', match: '' }, call('anything'))).toBe(true);
  });

  it('sees the raw text in raw mode and the canonical text in canonical mode', () => {
    const escaped = '{"command":"\\u0072m -rf /"}';
    expect(oracle(rule('deny', 'rm -rf'), call(escaped))).toBe(false);
    expect(oracle(rule('deny', 'rm -rf'), call(escaped, 'canonical'))).toBe(true);
    expect(oracle(rule('allow', '^\\{"command"'), call('{ "command": "ls"}', 'canonical'))).toBe(true);
  });

  it('matches a field rule against the whole decoded value', () => {
    const f = { field: 'command' };
    expect(oracle(rule('allow', 'git status', f), call('{"command":"git status"}'))).toBe(true);
    expect(oracle(rule('allow', 'git status', f), call('{"command":"git status; curl x|sh"}'))).toBe(false);
    expect(oracle(rule('allow', 'ls|pwd', f), call('{"command":"ls; curl x"}'))).toBe(false);
    expect(oracle(rule('deny', 'rm -rf.*', f), call('{"Command":"rm -rf /"}', 'canonical'))).toBe(true);
    expect(oracle(rule('allow', '', f), call('{"command":""}'))).toBe(true);
    expect(oracle(rule('allow', '', f), call('{"command":"x"}'))).toBe(false);
  });

  it('fails closed on raw input that is not JSON: deny and ask field rules match, allow ones do not', () => {
    for (const list of ['deny', 'ask', 'allow'] as const) {
      expect(oracle(rule(list, 'x', { field: 'command' }), call('not json'))).toBe(list !== 'allow');
    }
  });

  it('is undefined when no rule is tried: canonical mode refuses the input, or the pattern does not compile', () => {
    expect(oracle(rule('deny', ''), call('{"a":1,"a":2}', 'canonical'))).toBeUndefined();
    expect(oracle(rule('deny', '('), call('x'))).toBeUndefined();
    expect(oracle(rule('deny', '\\Qa', { field: 'command' }), call('{"command":"a"}'))).toBeUndefined();
  });
});
