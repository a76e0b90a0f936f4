import { readFileSync } from 'node:fs';
import { compileApprover } from '@verdict/engine';
import type { ApproverIR, RuleIR } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import { analyzeApprover } from './index.ts';
import type { AnalysisFinding, RuleLocation, Witness } from './index.ts';

interface Case {
  name: string;
  approver: Omit<ApproverIR, 'reason'> & { reason?: string };
  findings: Record<string, unknown>[];
}

const fixture = JSON.parse(readFileSync(new URL('../../../fixtures/analysis/findings.json', import.meta.url), 'utf8')) as {
  cases: Case[];
};

const ref = (l: RuleLocation): string => `${l.list}[${l.index}]`;

function compact(f: AnalysisFinding): Record<string, unknown> {
  switch (f.kind) {
    case 'dead-rule':
      return { kind: f.kind, rule: ref(f.rule), scope: f.scope, ...(f.example ? { example: true } : {}) };
    case 'shadowed-rule':
      return { kind: f.kind, rule: ref(f.rule), by: f.by.map(ref), ...(f.example ? { example: true } : {}) };
    case 'overlap':
      return { kind: f.kind, allow: ref(f.allow), deny: ref(f.deny) };
    case 'unknown':
      return { kind: f.kind, question: f.question, rule: ref(f.rule), reason: f.reason };
    case 'budget':
      return { kind: f.kind, question: f.question, unchecked: f.unchecked, total: f.total };
  }
}

function ruleAt(ir: ApproverIR, l: RuleLocation): RuleIR {
  return (l.list === 'allow' ? ir.allow : ir.deny)[l.index] as RuleIR;
}

/** What the engine decides for `rule` alone on `w`. */
function engineRuleMatches(ir: ApproverIR, rule: RuleIR, w: Witness): boolean {
  const single = compileApprover({ ...ir, mode: 'pattern', default: 'deny', allow: [rule], deny: [] }).approver;
  if (single === undefined) throw new Error('rule does not compile');
  const e = single.explain({ toolName: w.toolName, input: w.input });
  return e.decision === 'allow' && e.by === 'rule';
}

function checkWitnesses(ir: ApproverIR, findings: AnalysisFinding[]): void {
  const full = compileApprover(ir).approver;
  for (const f of findings) {
    if (f.kind === 'dead-rule' && f.example !== undefined) {
      expect(engineRuleMatches(ir, ruleAt(ir, f.rule), f.example)).toBe(true);
      // The example is the reason the rule is dead on objects only: it is not an object.
      expect(() => {
        const v: unknown = JSON.parse(f.example?.input ?? '');
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object');
      }).toThrow();
    }
    if (f.kind === 'shadowed-rule' && f.example !== undefined) {
      expect(engineRuleMatches(ir, ruleAt(ir, f.rule), f.example)).toBe(true);
      const e = full?.explain({ toolName: f.example.toolName, input: f.example.input });
      expect(e?.decision).toBe('deny');
      expect(e?.rule?.list).toBe('deny');
    }
    if (f.kind === 'overlap') {
      expect(engineRuleMatches(ir, ruleAt(ir, f.allow), f.witness)).toBe(true);
      expect(engineRuleMatches(ir, ruleAt(ir, f.deny), f.witness)).toBe(true);
      const parsed: unknown = JSON.parse(f.witness.input);
      expect(typeof parsed).toBe('object');
      if (ir.input === 'canonical') expect(full?.explain({ toolName: f.witness.toolName, input: f.witness.input }).canonical).toBe(f.witness.input);
    }
  }
}

describe('analyzeApprover on fixtures/analysis/findings.json', () => {
  for (const c of fixture.cases) {
    it(c.name, () => {
      const ir: ApproverIR = { reason: '', ...c.approver };
      const findings = analyzeApprover(ir, { totalTimeMs: 20_000 });
      expect(findings.map(compact)).toEqual(c.findings);
      checkWitnesses(ir, findings);
    });
  }
});

describe('analyzeApprover', () => {
  it('gives the seed example a non-object input the rule does match', () => {
    const ir = { reason: '', ...(fixture.cases[0] as Case).approver };
    const dead = analyzeApprover(ir).find((f) => f.kind === 'dead-rule');
    expect(dead?.kind === 'dead-rule' && dead.example?.input.startsWith('"command":')).toBe(true);
  });

  it('keeps spans of the rules it names', () => {
    const span = { file: 'p.yaml', start: { offset: 10, line: 2, column: 3 }, end: { offset: 20, line: 2, column: 13 } };
    const ir: ApproverIR = { mode: 'pattern', default: 'deny', reason: '', input: 'raw', allow: [{ tool: 'bash', match: 'x$y', span }], deny: [] };
    expect(analyzeApprover(ir)).toEqual([{ kind: 'dead-rule', rule: { list: 'allow', index: 0, span }, scope: 'any-input' }]);
  });

  it('says nothing about approvers outside pattern mode', () => {
    const ir: ApproverIR = { mode: 'allow_all', default: '', reason: '', input: 'raw', allow: [{ tool: 'bash', match: 'x$y' }], deny: [] };
    expect(analyzeApprover(ir)).toEqual([]);
  });

  it('answers unknown, never dead, when a limit is hit', () => {
    const ir: ApproverIR = {
      mode: 'pattern', default: 'deny', reason: '', input: 'raw',
      allow: [{ tool: 'bash', match: '(a|b)*a(a|b){12}$' }],
      deny: [],
    };
    const findings = analyzeApprover(ir, { maxStates: 50 });
    expect(findings.map((f) => f.kind)).toEqual(['unknown']);
  });

  it('analyses a 100-rule policy without an unknown finding (its speed is measured in bench/)', () => {
    const tools = ['bash', 'read', 'write', 'edit', 'grep', 'glob', 'web_fetch', 'task', 'notebook', 'todo'];
    const allow: RuleIR[] = [];
    const deny: RuleIR[] = [];
    for (let i = 0; i < 100; i++) {
      const tool = tools[i % tools.length] as string;
      if (i % 3 === 2) deny.push({ tool: i % 7 === 0 ? '' : tool, match: ['rm\\s+-rf', 'sudo', '"path":"/(etc|root|usr)/', 'curl .*\\|\\s*sh', `secret${i}`, '(?i)password', '\\.\\./'][i % 7] as string });
      else allow.push({ tool, match: tool === 'bash' ? `"command":\\s*"cmd${i}( |")` : `"path":"/workspace/${i}/[^"]*"` });
    }
    const ir: ApproverIR = { mode: 'pattern', default: 'deny', reason: '', input: 'raw', allow, deny };
    const findings = analyzeApprover(ir, { checks: { overlap: false } });
    expect(findings.filter((f) => f.kind === 'unknown')).toEqual([]);
  });
});
