import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { InputMode } from '../ir.ts';
import { approverIRFromCase } from '../../test/support/case-files.ts';
import type { ApprovalRequest } from './types.ts';
import { buildApprover as build, decisionCases, decisionRows, ruleName } from '../../test/support/generators.ts';

/** Any UTF-16 code unit (lone surrogates included), plus some astral and JSON-ish characters. */
const utf16Unit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('😀', '\u{10400}', 'a', 'b', '1', '{', '}', '"', ':', ','),
);

const fixture = { cases: decisionCases('decisions.json') };
const rows = decisionRows(fixture.cases);

describe('pattern decisions: fixtures/cases/decisions.json (C2)', () => {
  it('covers every C2 row in both columns where the table has one', () => {
    const c2 = fixture.cases.filter((c) => c.table === 'C2');
    expect(c2.length).toBe(16); // 13 rows, one of them with four inputs
    expect(c2.every((c) => c.expect.canonical !== undefined)).toBe(true);
  });

  it.each(rows)('%s [%s]', (_name, mode, c, expected) => {
    const approver = build(approverIRFromCase(c.approver, mode));
    const request: ApprovalRequest = { toolName: c.tool, input: c.input, sessionId: 'session-1' };
    const result = approver.approve(request);
    const reason = expected.reason ?? '';
    expect(result).toEqual({ decision: expected.decision, reason });
    const explanation = approver.explain(request);
    expect(explanation).toMatchObject({ decision: expected.decision, reason });
    expect(ruleName(explanation)).toBe(expected.rule);
    expect(approver.decide(request)).toEqual({ decision: expected.decision, reason, rule: explanation.rule });
  });
});

describe('explain', () => {
  const ir = approverIRFromCase({
    mode: 'pattern',
    default: 'deny',
    reason: 'no',
    allow: [{ tool: 'bash', match: 'ls' }, { match: 'l' }, { tool: 'read' }],
    deny: [{ match: 'zzz' }, { tool: 'BASH', match: 'sudo' }, { match: 'sud' }],
  });

  it('names the deciding rule, the match span and every other matching rule', () => {
    const e = build(ir).explain({ toolName: 'Bash', input: '{"command":"sudo ls"}' });
    expect(e).toEqual({
      decision: 'deny',
      reason: 'no',
      rule: { list: 'deny', index: 1 },
      by: 'rule',
      match: { start: 12, end: 16, subject: 'raw', text: 'sudo' },
      alsoMatched: [
        { list: 'deny', index: 2 },
        { list: 'allow', index: 0 },
        { list: 'allow', index: 1 },
      ],
    });
  });

  it('reports the canonical text and spans into it', () => {
    const canonical = build({ ...ir, input: 'canonical' });
    const e = canonical.explain({ toolName: 'bash', input: '{ "command" : "l\\u0073" }' });
    expect(e).toMatchObject({
      decision: 'allow',
      rule: { list: 'allow', index: 0 },
      match: { start: 12, end: 14, subject: 'canonical', text: 'ls' },
      alsoMatched: [{ list: 'allow', index: 1 }],
      canonical: '{"command":"ls"}',
    });
  });

  it('spans an emoji-preceded match in UTF-16 units', () => {
    const e = build(ir).explain({ toolName: 'x', input: '{"😀":"sudo"}' });
    expect(e.match).toEqual({ start: 7, end: 10, subject: 'raw', text: 'sud' });
  });

  it('reports a field match as the whole value', () => {
    const f = build(approverIRFromCase({ mode: 'pattern', input: 'canonical', allow: [{ field: 'command', match: 'git .*' }] }));
    expect(f.explain({ toolName: 'bash', input: '{"Command":"git log"}' }).match).toEqual({
      start: 0,
      end: 7,
      subject: 'field',
      text: 'git log',
    });
  });

  it('explains the default and rejected input', () => {
    const a = build({ ...ir, input: 'canonical' });
    expect(a.explain({ toolName: 'edit', input: '{}' })).toEqual({
      decision: 'deny',
      reason: 'no',
      rule: null,
      by: 'default',
      match: null,
      alsoMatched: [],
      canonical: '{}',
    });
    expect(a.explain({ toolName: 'edit', input: '{' })).toEqual({
      decision: 'deny',
      reason: 'tool input is not valid JSON or repeats a key',
      rule: null,
      by: 'invalid-input',
      match: null,
      alsoMatched: [],
    });
  });
});

describe('fail closed', () => {
  const allowing = build(approverIRFromCase({ mode: 'pattern', default: 'allow' }));

  it('denies a malformed request with an internal error instead of throwing', () => {
    const bad = [null, {}, { toolName: 'bash' }, { toolName: 1, input: '' }, { toolName: 'bash', input: 5 }];
    for (const request of bad) {
      const r = allowing.approve(request as unknown as ApprovalRequest);
      expect(r.decision).toBe('deny');
      expect(r.reason).toMatch(/^approver: internal error: /);
      expect(allowing.explain(request as unknown as ApprovalRequest)).toMatchObject({ decision: 'deny', by: 'internal-error' });
    }
  });

  it('denies when matching throws', () => {
    const ir = approverIRFromCase({ mode: 'pattern', default: 'allow', deny: [{ match: 'x' }] });
    const approver = build(ir);
    const input = { toString: () => 'x' };
    expect(approver.approve({ toolName: 'bash', input: input as unknown as string }).decision).toBe('deny');
  });
});

describe('edges', () => {
  const rules = approverIRFromCase({
    mode: 'pattern',
    default: 'allow',
    deny: [{ tool: 'bash', match: 'rm\\s+-rf' }, { match: '(a+)+$' }],
    allow: [{ tool: 'bash', field: 'command', match: 'ls.*' }],
  });

  it('decides a 10 MB input without hanging, raw and canonical', () => {
    const big = `{"command":"${'x'.repeat(10 * 1024 * 1024)} rm -rf /"}`;
    for (const mode of ['raw', 'canonical'] as const) {
      const approver = build({ ...rules, input: mode });
      const t0 = Date.now();
      expect(approver.approve({ toolName: 'bash', input: big })).toEqual({ decision: 'deny', reason: 'denied by pattern policy' });
      expect(approver.approve({ toolName: 'read', input: big })).toEqual({ decision: 'allow', reason: '' });
      expect(Date.now() - t0).toBeLessThan(5000);
    }
  });

  it('decides deep nesting in canonical mode: accepted to 10000 levels, rejected beyond', () => {
    const approver = build({ ...rules, input: 'canonical' });
    expect(approver.approve({ toolName: 'read', input: '['.repeat(10000) + ']'.repeat(10000) })).toEqual({ decision: 'allow', reason: '' });
    expect(approver.approve({ toolName: 'read', input: '['.repeat(1_000_000) })).toEqual({
      decision: 'deny',
      reason: 'tool input is not valid JSON or repeats a key',
    });
  });

  it('decides deep nesting in raw mode: field rules read it as unreadable past 10000 levels, fail closed', () => {
    const deep = '['.repeat(1_000_000);
    const fieldDeny = build(approverIRFromCase({ mode: 'pattern', default: 'allow', deny: [{ field: 'command', match: 'x' }] }));
    expect(fieldDeny.approve({ toolName: 'bash', input: deep })).toEqual({ decision: 'deny', reason: 'denied by pattern policy' });
    expect(fieldDeny.approve({ toolName: 'bash', input: '{"a":' + '['.repeat(10000) + ']'.repeat(10000) + '}' })).toEqual({
      decision: 'deny',
      reason: 'denied by pattern policy',
    });
    expect(fieldDeny.approve({ toolName: 'bash', input: '{"a":' + '['.repeat(9999) + ']'.repeat(9999) + '}' })).toEqual({
      decision: 'allow',
      reason: '',
    });
    const fieldAllow = build(approverIRFromCase({ mode: 'pattern', allow: [{ field: 'command', match: '.*' }, { match: '^\\[+$' }] }));
    expect(fieldAllow.explain({ toolName: 'bash', input: deep })).toMatchObject({ decision: 'allow', rule: { list: 'allow', index: 1 } });
  });

  it('handles lone surrogates in tool names and inputs', () => {
    for (const mode of ['raw', 'canonical'] as const) {
      const approver = build({ ...rules, input: mode });
      expect(approver.approve({ toolName: 'ba\ud800sh', input: '{"command":"\udc00"}' })).toEqual({ decision: 'allow', reason: '' });
      expect(approver.approve({ toolName: 'bash', input: '{"command":"rm -rf \ud800"}' }).decision).toBe('deny');
    }
  });

  it('treats __proto__ as an ordinary key in canonical input', () => {
    const approver = build(
      approverIRFromCase({ mode: 'pattern', input: 'canonical', allow: [{ field: 'command', match: 'ls' }] }),
    );
    expect(approver.approve({ toolName: 'bash', input: '{"__proto__":{"command":"ls"}}' }).decision).toBe('deny');
    expect(approver.approve({ toolName: 'bash', input: '{"__proto__":1,"command":"ls"}' }).decision).toBe('allow');
    expect(approver.explain({ toolName: 'bash', input: '{"command":"ls","__proto__":null}' }).canonical).toBe(
      '{"__proto__":null,"command":"ls"}',
    );
  });
});

// Properties over arbitrary rule sets and requests.
const toolArb = fc.constantFrom('bash', 'Bash', 'BASH', 'read', 'edit', '\u212aill', 'kill', '');
const matchArb = fc.constantFrom('', 'ls', 'rm -rf', '^\\{', '"command"', '(?i)SUDO', '.*', '^$', 'a|b', '\\d+', 'x{2}');
const ruleArb = fc.record(
  { tool: toolArb, match: matchArb, field: fc.constantFrom('command', 'Command', 'path') },
  { requiredKeys: ['tool', 'match'] },
);
const configArb = fc.record({
  mode: fc.constant('pattern'),
  default: fc.constantFrom('', 'allow', 'deny'),
  reason: fc.constantFrom('', 'no'),
  input: fc.constantFrom<InputMode>('raw', 'canonical'),
  allow: fc.array(ruleArb, { maxLength: 4 }),
  deny: fc.array(ruleArb, { maxLength: 4 }),
});
const inputArb = fc.oneof(
  fc.constantFrom('', '{}', 'not json', '{"command":"ls"}', '{"Command":"sudo rm -rf /"}', '{"command":"ls","command":"x"}', '{"path":"/tmp/12"}', '[1]', '{"command":"\\u0072m -rf"}'),
  fc.json().map(String),
  fc.string({ unit: utf16Unit, maxLength: 30 }),
);
const requestArb = fc.record({ toolName: toolArb, input: inputArb, sessionId: fc.string({ maxLength: 5 }) });

describe('properties', () => {
  it('explain agrees with approve and decide (decision, reason and deciding rule)', () => {
    fc.assert(
      fc.property(configArb, fc.array(requestArb, { minLength: 1, maxLength: 5 }), (config, requests) => {
        const approver = build(approverIRFromCase(config));
        for (const r of requests) {
          const e = approver.explain(r);
          expect(approver.approve(r)).toEqual({ decision: e.decision, reason: e.reason });
          expect(approver.decide(r)).toEqual({ decision: e.decision, reason: e.reason, rule: e.rule });
          if (e.decision === 'deny') expect(e.reason).not.toBe('');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('decisions depend only on tool and input: the same request twice, any session, same result', () => {
    fc.assert(
      fc.property(configArb, requestArb, fc.string(), (config, request, otherSession) => {
        const approver = build(approverIRFromCase(config));
        const first = approver.approve(request);
        expect(approver.approve(request)).toEqual(first);
        expect(approver.approve({ ...request, sessionId: otherSession })).toEqual(first);
        const { sessionId: _drop, ...withoutSession } = request;
        expect(approver.approve(withoutSession)).toEqual(first);
        expect(build(approverIRFromCase(config)).approve(request)).toEqual(first);
      }),
      { numRuns: 300 },
    );
  });

  it('a deny rule that matches an input always denies, whatever the allow rules and default', () => {
    fc.assert(
      fc.property(configArb, requestArb, (config, request) => {
        const approver = build(approverIRFromCase(config));
        const e = approver.explain(request);
        if (e.by === 'invalid-input') return;
        // A deny rule naming this tool (or none) with an empty match always matches.
        const withDeny = build(approverIRFromCase({ ...config, deny: [...config.deny, { tool: request.toolName, match: '' }] }));
        expect(withDeny.approve(request).decision).toBe('deny');
        // And a deny rule that matched keeps denying when allow rules are added.
        if (e.alsoMatched.some((r) => r.list === 'deny') || e.rule?.list === 'deny') {
          const more = build(approverIRFromCase({ ...config, default: 'allow', allow: [{ match: '' }, ...config.allow] }));
          expect(more.approve(request).decision).toBe('deny');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('explain: the deciding rule\'s span within a budget', () => {
  const approver = build({ mode: 'pattern', default: 'allow', reason: '', input: 'raw', deny: [{ tool: 'bash', match: '(.*){1000}' }, { tool: 'bash', match: 'x' }], allow: [] });

  it('leaves out the span when finding it would cost more than the budget, and still decides exactly', () => {
    // 4,002 instructions × 30,000 characters: past the budget (finding it took ~1.5 s).
    const input = 'x'.repeat(30_000);
    const e = approver.explain({ toolName: 'bash', input });
    expect(e).toMatchObject({ decision: 'deny', by: 'rule', rule: { list: 'deny', index: 0 }, match: null, spanOmitted: { instructions: 4002, characters: 30_000 } });
    expect(e.alsoMatched).toEqual([expect.objectContaining({ list: 'deny', index: 1 })]);
    expect(approver.decide({ toolName: 'bash', input }).rule).toMatchObject({ list: 'deny', index: 0 });
  });

  it('finds the span of a text within the budget', () => {
    const e = approver.explain({ toolName: 'bash', input: 'ab\ncd' });
    expect(e.match).toEqual({ start: 0, end: 2, subject: 'raw', text: 'ab' });
    expect(e.spanOmitted).toBeUndefined();
  });
});
