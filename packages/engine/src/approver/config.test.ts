import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RuleList } from '../ir.ts';
import { approverIRFromCase } from '../../test/support/case-files.ts';
import type { CaseApproverConfig } from '../../test/support/case-files.ts';
import {
  checkApproverConfig,
  compileApprover,
  goQuote,
  goTrimSpace,
  normalizeApproverDefault,
  normalizeApproverMode,
} from './config.ts';

interface LoadCase {
  name: string;
  table?: string;
  approver: CaseApproverConfig;
  compat?: boolean;
  expect: {
    loads: boolean;
    kind?: 'allow_all' | 'deny_all' | 'pattern' | 'compile_error';
    default?: 'allow' | 'deny';
    errors?: { code: string; message: string; list?: RuleList; index?: number }[];
  };
  calls?: { tool: string; input: string; decision: 'allow' | 'deny'; reason: string }[];
}

const fixture = JSON.parse(
  readFileSync(new URL('../../../../fixtures/cases/approver-load.json', import.meta.url), 'utf8'),
) as { cases: LoadCase[] };

describe('loading the approver: fixtures/cases/approver-load.json (C1)', () => {
  it('covers every C1 row', () => {
    expect(fixture.cases.filter((c) => c.table === 'C1').length).toBeGreaterThanOrEqual(15);
  });

  it.each(fixture.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const ir = approverIRFromCase(c.approver);
    const { approver, issues } = compileApprover(ir, { compat: c.compat ?? false });
    const errors = (c.expect.errors ?? []).map((e) => ({
      code: e.code,
      message: e.message,
      ...(e.list === undefined ? {} : { list: e.list, index: e.index }),
    }));
    expect(issues.map((i) => ({ code: i.code, message: i.message, ...(i.list === undefined ? {} : { list: i.list, index: i.index }) }))).toEqual(errors);
    expect(checkApproverConfig(ir)).toEqual(issues);
    expect(approver !== undefined).toBe(c.expect.loads);
    if (approver === undefined) return;

    const probe = approver.explain({ toolName: 'zz-probe-tool', input: '{"zz":"probe"}' });
    switch (c.expect.kind) {
      case 'allow_all':
        expect(probe).toMatchObject({ decision: 'allow', reason: '', by: 'mode' });
        break;
      case 'deny_all':
        expect(probe).toMatchObject({ decision: 'deny', by: 'mode' });
        break;
      case 'compile_error':
        expect(probe).toMatchObject({ decision: 'deny', by: 'compile-error', rule: { list: errors[0]!.list, index: errors[0]!.index } });
        expect(probe.reason).toBe(errors[0]!.message);
        break;
      case 'pattern':
        expect(probe).toMatchObject({ decision: c.expect.default, by: 'default' });
        break;
      default:
        throw new Error(`case ${c.name} has no expected kind`);
    }
    // Without compatibility mode, a configuration with a regex error never loads.
    if (c.expect.kind === 'compile_error') expect(compileApprover(ir).approver).toBeUndefined();

    for (const call of c.calls ?? []) {
      const request = { toolName: call.tool, input: call.input, sessionId: 's1' };
      expect(approver.approve(request)).toEqual({ decision: call.decision, reason: call.reason });
      expect(approver.explain(request)).toMatchObject({ decision: call.decision, reason: call.reason });
    }
  });
});

describe('normalisation (A2)', () => {
  it('trims and lowercases the mode', () => {
    expect(normalizeApproverMode(' Pattern ')).toBe('pattern');
    expect(normalizeApproverMode('')).toBe('allow_all');
    expect(normalizeApproverMode('   ')).toBe('allow_all');
    expect(normalizeApproverMode('allow')).toBe('allow_all');
    expect(normalizeApproverMode('DENY')).toBe('deny_all');
    expect(normalizeApproverMode('\u0085deny_all\u00a0')).toBe('deny_all');
    expect(normalizeApproverMode('\ufeffdeny')).toBeUndefined();
    expect(normalizeApproverMode('interactive')).toBeUndefined();
  });
  it('lowercases but does not trim the default', () => {
    expect(normalizeApproverDefault('ALLOW')).toBe('allow');
    expect(normalizeApproverDefault('')).toBe('deny');
    expect(normalizeApproverDefault('Deny')).toBe('deny');
    expect(normalizeApproverDefault(' allow')).toBeUndefined();
    expect(normalizeApproverDefault('allow\n')).toBeUndefined();
    expect(normalizeApproverDefault('yes')).toBeUndefined();
  });
  it('trims like Go strings.TrimSpace', () => {
    expect(goTrimSpace('\t\n\v\f\r \u0085\u00a0x\u3000')).toBe('x');
    expect(goTrimSpace('\ufeffx')).toBe('\ufeffx');
  });
  it('quotes like Go strconv.Quote', () => {
    expect(goQuote('allowall')).toBe('"allowall"');
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote('\t\n\u0007\u0000\u007f')).toBe('"\\t\\n\\a\\x00\\x7f"');
    expect(goQuote('é😀')).toBe('"é😀"');
    expect(goQuote('\u00a0\u200b\ufeff')).toBe('"\\u00a0\\u200b\\ufeff"');
    expect(goQuote('\u{e0001}')).toBe('"\\U000e0001"');
    expect(goQuote('\ud800')).toBe('"\\ufffd"');
  });
});

describe('compileApprover: spans and audit', () => {
  const span = (offset: number) => ({
    file: 'p.yaml',
    start: { offset, line: 3, column: 7 },
    end: { offset: offset + 4, line: 3, column: 11 },
  });

  it('reports the deciding rule with its span', () => {
    const ir = approverIRFromCase({ mode: 'pattern', deny: [{ tool: 'bash', match: 'rm' }] });
    ir.deny[0]!.span = span(40);
    const { approver } = compileApprover(ir);
    const e = approver!.explain({ toolName: 'bash', input: '{"command":"rm x"}' });
    expect(e.rule).toEqual({ list: 'deny', index: 0, span: span(40) });
    expect(e.match).toEqual({ start: 12, end: 14, subject: 'raw', text: 'rm' });
  });

  it('names the failing rule with its span in compatibility mode', () => {
    const ir = approverIRFromCase({ mode: 'pattern', deny: [{ match: '(' }] });
    ir.deny[0]!.span = span(9);
    const { approver } = compileApprover(ir, { compat: true });
    expect(approver!.explain({ toolName: 'x', input: '' })).toMatchObject({
      by: 'compile-error',
      rule: { list: 'deny', index: 0, span: span(9) },
    });
  });

  it('reports each decision to the logger', () => {
    const events: [string, object][] = [];
    const logger = {
      info: (o: object) => void events.push(['info', o]),
      warn: (o: object) => void events.push(['warn', o]),
    };
    const ir = approverIRFromCase({ mode: 'pattern', default: 'allow', deny: [{ tool: 'bash' }] });
    const { approver } = compileApprover(ir, { logger });
    approver!.approve({ toolName: 'read', input: '{}', sessionId: 's' });
    approver!.approve({ toolName: 'bash', input: '{}' });
    expect(events).toEqual([
      ['info', { event: 'tool.execute', toolName: 'read', sessionId: 's', rule: null }],
      [
        'warn',
        { event: 'tool.denied', toolName: 'bash', reason: 'denied by pattern policy', rule: { list: 'deny', index: 0 } },
      ],
    ]);
    // explain does not log
    approver!.explain({ toolName: 'bash', input: '{}' });
    expect(events).toHaveLength(2);
    // an invalid canonical input is denied and audited without a rule
    const canonical = compileApprover({ ...ir, input: 'canonical' }, { logger }).approver!;
    expect(canonical.approve({ toolName: 'read', input: '{' })).toEqual({
      decision: 'deny',
      reason: 'tool input is not valid JSON or repeats a key',
    });
    expect(events[2]).toEqual([
      'warn',
      { event: 'tool.denied', toolName: 'read', reason: 'tool input is not valid JSON or repeats a key', rule: null },
    ]);
  });
});

describe('field rules compile as `^(?:match)$` (A4.3)', () => {
  it('rejects a pattern whose wrapped form does not compile, though it compiles alone', () => {
    const ir = approverIRFromCase({ mode: 'pattern', input: 'canonical', allow: [{ tool: 'bash', field: 'command', match: '\\Qls' }] });
    const { approver, issues } = compileApprover(ir);
    expect(approver).toBeUndefined();
    expect(issues).toEqual([
      expect.objectContaining({ code: 'regex/invalid', list: 'allow', index: 0, message: 'approver: pattern compile: error parsing regexp: missing closing ): `^(?:\\Qls)$`' }),
    ]);
    // The same pattern without `field` searches the text and is valid.
    const plain = approverIRFromCase({ mode: 'pattern', allow: [{ tool: 'bash', match: '\\Qls' }] });
    expect(compileApprover(plain).issues).toEqual([]);
  });

  it('in compatibility mode such a rule denies every call, never allows', () => {
    const ir = approverIRFromCase({ mode: 'pattern', default: 'allow', input: 'canonical', allow: [{ field: 'command', match: '\\Qls' }] });
    const { approver } = compileApprover(ir, { compat: true });
    expect(approver!.approve({ toolName: 'bash', input: '{"command":"ls"}' }).decision).toBe('deny');
  });
});
