import { describe, expect, it } from 'vitest';
import { lintSource } from '../src/runner.ts';
import type { LintConfig } from '../src/types.ts';

const config = (rules: LintConfig['rules'], categories: LintConfig['categories'] = {}): LintConfig => ({ rules, categories, include: [], ignore: [] });
const at = (r: ReturnType<typeof lintSource>) => r.messages.map((m) => `${m.ruleId}@${m.span?.start.line}:${m.span?.start.column}:${m.severity}`);

const whitelist = 'approver:\n  mode: pattern\n  reason: denied — only listed shell commands run; ask the operator\n  allow:\n    - {tool: bash, match: "^\\\\s*\\"command\\":\\\\s*\\"ls "}\n';

describe('runner', () => {
  it('passes compiler diagnostics through with their codes and severities', () => {
    const r = lintSource('approver:\n  mode: interactive\n', 'p.yaml');
    expect(at(r)).toEqual(['approver/unknown-mode@2:9:error']);
    expect(r.messages[0]?.source).toBe('compiler');
  });
  it('drops the compiler’s copy when a rule explains the same problem at the same place', () => {
    const r = lintSource('approver:\n  mode: pattern\n  reason: denied — reads only, ask the operator for more\n  deny:\n    - {tool: bash, match: "a(?=b)"}\n', 'p.yaml');
    expect(at(r)).toEqual(['regex/unsupported-syntax@5:27:error']);
  });
  it('keeps the compiler’s regex/invalid when the explaining rule is off', () => {
    const r = lintSource('approver:\n  mode: pattern\n  reason: denied — reads only, ask the operator for more\n  deny:\n    - {tool: bash, match: "a(?=b)"}\n', 'p.yaml', {
      config: config({ 'regex/unsupported-syntax': { severity: 'off' } }),
    });
    expect(r.messages.map((m) => [m.ruleId, m.source])).toEqual([['regex/invalid', 'rule']]);
  });
  it('one finding for the seed whitelist: the anchor rule explains what the static proof finds', () => {
    expect(at(lintSource(whitelist, 'p.yaml'))).toEqual(['regex/impossible-anchor@5:27:error']);
    const withoutAnchor = lintSource(whitelist, 'p.yaml', { config: config({ 'regex/impossible-anchor': { severity: 'off' } }) });
    expect(at(withoutAnchor)).toEqual(['analysis/dead-rule@5:27:warning']);
  });
  it('applies rule severities over category severities over defaults; compiler errors stay errors', () => {
    const src = 'approver:\n  mode: pattern\n  default: allow\n  allow:\n    - {match: x}\n  deny:\n    - {tool: bash, match: "("}\n';
    const r = lintSource(src, 'p.yaml', {
      config: config({ 'rules/missing-tool': { severity: 'info' } }, { approver: 'error', rules: 'off', compiler: 'off' }),
    });
    expect(at(r)).toEqual(['approver/reason@2:9:error', 'approver/default-allow@3:12:error', 'rules/missing-tool@5:7:info', 'regex/invalid@7:27:error']);
  });
  it('sorts by position and counts by severity', () => {
    const r = lintSource('approver:\n  mode: pattern\n  default: allow\n  allow:\n    - {match: x}\n', 'p.yaml');
    expect(r.messages.map((m) => m.span?.start.offset)).toEqual([...r.messages.map((m) => m.span?.start.offset ?? 0)].sort((a, b) => a - b));
    expect([r.errorCount, r.warningCount, r.infoCount]).toEqual([0, r.messages.length, 0]);
  });
});
