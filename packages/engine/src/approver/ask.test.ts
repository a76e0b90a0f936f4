import { describe, expect, it } from 'vitest';
import { fc, test as fcTest } from '@fast-check/vitest';
import type { ApproverIR, InputMode, RuleIR, RuleList } from '../ir.ts';
import { approverIRFromCase } from '../../test/support/case-files.ts';
import { compileApprover } from './config.ts';
import { buildPlan, decideTool } from './decide.ts';
import { decidingRule, matches } from './definition.ts';
import type { Rule, Subject } from './definition.ts';
import { DEFAULT_ASK_REASON } from './pattern.ts';
import type { ApprovalRequest, AuditLogger, CompiledApprover } from './types.ts';
import {
  buildApprover as build,
  compiledRules,
  decisionCases,
  decisionRows,
  definitionOf,
  ruleKey,
  ruleName,
  subjectOf,
} from '../../test/support/generators.ts';

const rows = decisionRows(decisionCases('decisions-ask.json'));

describe('ask decisions: fixtures/cases/decisions-ask.json (deny > ask > allow)', () => {
  it.each(rows)('%s [%s]', (_name, mode, c, expected) => {
    const approver = build(approverIRFromCase(c.approver, mode));
    const request: ApprovalRequest = { toolName: c.tool, input: c.input };
    const reason = expected.reason ?? '';
    const explanation = approver.explain(request);
    expect(explanation).toMatchObject({ decision: expected.decision, reason });
    expect(ruleName(explanation)).toBe(expected.rule);
    expect(approver.decide(request)).toEqual({ decision: expected.decision, reason, rule: explanation.rule });
    // The two-decision contract: an ask is a deny with the ask reason.
    expect(approver.approve(request)).toEqual({ decision: expected.decision === 'allow' ? 'allow' : 'deny', reason });
  });
});

describe('ask', () => {
  const ir = approverIRFromCase({
    mode: 'pattern',
    default: 'allow',
    reason: 'no',
    allow: [{ tool: 'Bash', match: 'git' }],
    ask: [{ tool: 'Bash', match: 'zzz' }, { tool: 'bash', match: 'push' }, { match: 'git' }],
    deny: [{ match: 'force' }],
  });

  it('explain names the deciding ask rule, its match, and the other rules that matched', () => {
    const e = build(ir).explain({ toolName: 'Bash', input: '{"command":"git push"}' });
    expect(e).toMatchObject({ decision: 'ask', reason: DEFAULT_ASK_REASON, by: 'rule', rule: { list: 'ask', index: 1 } });
    expect(e.match).toEqual({ start: 16, end: 20, subject: 'raw', text: 'push' });
    expect(e.alsoMatched).toEqual([
      { list: 'ask', index: 2 },
      { list: 'allow', index: 0 },
    ]);
  });

  it('the audit log reports an ask as the deny approve answers, naming the ask rule', () => {
    const events: object[] = [];
    const logger: AuditLogger = { info: (o) => events.push(o), warn: (o) => events.push(o) };
    const approver = build(ir, { logger });
    const request = { toolName: 'Bash', input: '{"command":"git push"}' };
    expect(approver.decide(request)).toEqual({ decision: 'ask', reason: DEFAULT_ASK_REASON, rule: { list: 'ask', index: 1 } });
    expect(approver.approve(request)).toEqual({ decision: 'deny', reason: DEFAULT_ASK_REASON });
    expect(events).toEqual([
      { event: 'tool.denied', toolName: 'Bash', reason: DEFAULT_ASK_REASON, rule: { list: 'ask', index: 1 } },
      { event: 'tool.denied', toolName: 'Bash', reason: DEFAULT_ASK_REASON, rule: { list: 'ask', index: 1 } },
    ]);
  });

  it('an invalid regex in the ask list does not load; in compatibility mode it denies every call, naming the ask rule', () => {
    const bad = approverIRFromCase({ mode: 'pattern', allow: [{ match: 'ok' }], ask: [{ match: 'fine' }, { match: '(' }] });
    const { approver, issues } = compileApprover(bad);
    expect(approver).toBeUndefined();
    expect(issues).toMatchObject([{ code: 'regex/invalid', list: 'ask', index: 1 }]);
    const compat = build(bad, { compat: true });
    const e = compat.explain({ toolName: 'Bash', input: '{"x":"ok"}' });
    expect(e).toMatchObject({ decision: 'deny', by: 'compile-error', rule: { list: 'ask', index: 1 } });
    expect(e.reason).toBe('approver: pattern compile: error parsing regexp: missing closing ): `(`');
  });

  it('an invalid regex in the allow list is reported before one in the ask list (the reference order, ask last)', () => {
    const bad = approverIRFromCase({ mode: 'pattern', ask: [{ match: '(' }], deny: [{ match: '[' }], allow: [{ match: '*' }] });
    expect(compileApprover(bad).issues.map((i) => `${i.list}[${i.index}]`)).toEqual(['allow[0]', 'deny[0]', 'ask[0]']);
  });

  it('compatibility mode changes nothing else: ask rules decide as without it', () => {
    const request = { toolName: 'Bash', input: '{"command":"git push"}' };
    expect(build(ir, { compat: true }).decide(request)).toEqual(build(ir).decide(request));
  });
});

// Policies over a small alphabet, so that rules often match and often overlap.
const atom = fc.constantFrom('a', 'b', 'ab', '^a', 'b$', 'a|b', '[ab]b', '(?i)A', 'x', '', 'a.*b', '\\bb');
const tool = fc.constantFrom('', 'Bash', 'bash', 'Read', 'K', '\u212a');
const rule: fc.Arbitrary<RuleIR> = fc.record({ tool, match: atom });
const fieldRule: fc.Arbitrary<RuleIR> = fc.record({ tool, match: atom, field: fc.constantFrom('c', 'C') });
const anyRule = fc.oneof({ weight: 4, arbitrary: rule }, { weight: 1, arbitrary: fieldRule });
const policy = fc.record({
  mode: fc.constant('pattern'),
  default: fc.constantFrom('allow', 'deny'),
  reason: fc.constantFrom('', 'no'),
  input: fc.constantFrom<InputMode>('raw', 'canonical'),
  allow: fc.array(anyRule, { maxLength: 5 }),
  deny: fc.array(anyRule, { maxLength: 5 }),
});
const requestArb = fc.record({
  toolName: fc.constantFrom('Bash', 'BASH', 'Read', 'k', 'Write'),
  input: fc.oneof(
    fc.string({ unit: fc.constantFrom('a', 'b', 'x', 'A', ' ', '\n'), maxLength: 8 }).map((s) => JSON.stringify({ c: s })),
    fc.string({ unit: fc.constantFrom('a', 'b', 'x', '{', '"', 'c', ':'), maxLength: 8 }),
  ),
});

/** The definition's answer (`definition.ts`, every rule tried one by one): `decision:rule`. */
function byDefinition(ir: ApproverIR, request: ApprovalRequest): string {
  const d = definitionOf(ir)(request);
  return `${d.decision}:${d.rule}`;
}

function decided(approver: CompiledApprover, request: ApprovalRequest): string {
  const r = approver.decide(request);
  return `${r.decision}:${r.rule === null ? (r.decision === 'deny' && r.reason.startsWith('tool input') ? 'invalid-input' : 'default') : `${r.rule.list}[${r.rule.index}]`}`;
}

describe('ask properties', () => {
  fcTest.prop([policy, fc.array(anyRule, { maxLength: 5 }), requestArb])(
    'deny > ask > allow, first match in each list, as rule-by-rule evaluation says',
    (base, ask, request) => {
      const ir: ApproverIR = { ...base, ask };
      const approver = build(ir);
      expect(decided(approver, request)).toBe(byDefinition(ir, request));
      const e = approver.explain(request);
      expect(`${e.decision}:${ruleName(e)}`).toBe(decided(approver, request));
    },
  );

  fcTest.prop([policy, requestArb])('an empty ask list decides exactly as no ask list (approve, decide, explain)', (base, request) => {
    const without = build(base);
    const empty = build({ ...base, ask: [] });
    expect(empty.approve(request)).toEqual(without.approve(request));
    expect(empty.decide(request)).toEqual(without.decide(request));
    expect(empty.explain(request)).toEqual(without.explain(request));
  });
});

describe('the fast plan with ask rules (every plan shape: DFA, bounded DFAs, steps, sets)', () => {
  const pieceArb = fc.constantFrom('a', 'b', 'ab', '(?i)A', '^a', 'b$', 'a|b', '[ab]+b', '\\bb', 'x', '"c":"', '(?s).', 'K', '\u212a');
  const patternArb = fc.array(pieceArb, { minLength: 0, maxLength: 3 }).map((xs) => xs.join(''));
  const genRule = fc.record({
    list: fc.constantFrom<RuleList>('deny', 'ask', 'allow'),
    tool: fc.constantFrom('', 'bash', 'BASH', 'k', '\u212a'),
    match: patternArb,
    field: fc.constantFrom(undefined, undefined, undefined, 'c'),
  });
  const subjectArb = fc.string({ unit: fc.constantFrom('a', 'b', 'x', 'A', 'K', '\u212a', '"', 'c', ':', '\ud800', ' '), maxLength: 10 });

  it('decides as the definition: first deny, else first ask, else first allow (field rules: unreadable input matches deny and ask rules)', () => {
    fc.assert(
      fc.property(
        fc.array(genRule, { maxLength: 14 }),
        fc.array(fc.tuple(fc.constantFrom('bash', 'K', 'other'), subjectArb, fc.constantFrom(undefined, null, 'ab', '')), { minLength: 1, maxLength: 5 }),
        (gen, calls) => {
          const rules = compiledRules(gen);
          const plans = [buildPlan(rules), buildPlan(rules, { dfaStates: 2 }), buildPlan(rules, { planStates: 4 }), buildPlan(rules, { dfa: false, minGate: 1 })];
          for (const [tool, text, value] of calls) {
            const s = subjectOf(text, { c: value });
            const want = ruleKey(decidingRule(rules, tool, s));
            for (const plan of plans) {
              const got = decideTool(plan, tool, s);
              expect(ruleKey(got), `${tool} ${JSON.stringify(text)} ${String(value)}`).toBe(want);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an ask field rule matches an unreadable input; an allow field rule does not', () => {
    const unreadable: Subject = { text: '{', field: () => null };
    for (const list of ['deny', 'ask', 'allow'] as const) {
      const [rule] = compiledRules([{ list, tool: '', match: 'x', field: 'c' }]) as [Rule];
      expect(matches(rule, unreadable)).toBe(list !== 'allow');
    }
  });
});
