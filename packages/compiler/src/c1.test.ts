/** semantics.md C1 (loading the approver), through the whole compiler: each row is a test. */
import { describe, expect, it } from 'vitest';
import { compileSource, goMessage } from './index.ts';
import type { CompileOptions } from './index.ts';

function load(approver: string, options: CompileOptions = {}) {
  return compileSource(`approver:\n${approver.replace(/^/gm, '  ')}\n`, 'c1.yaml', options);
}
const call = (toolName: string, input = '{"command":"ls"}') => ({ toolName, input });

describe('C1: loading the approver', () => {
  it('`{}` is allow-all', () => {
    const r = compileSource('approver: {}\n', 'c1.yaml');
    expect(r.diagnostics).toEqual([]);
    expect(r.approver?.approve(call('bash'))).toEqual({ decision: 'allow', reason: '' });
  });

  it.each([
    ['" Pattern "', 'deny', 'denied by pattern policy'],
    ['"ALLOW"', 'allow', ''],
    ['"Deny"', 'deny', 'denied by policy'],
  ])('mode %s is trimmed and lowercased', (mode, decision, reason) => {
    const r = load(`mode: ${mode}`);
    expect(r.diagnostics).toEqual([]);
    expect(r.approver?.approve(call('bash'))).toEqual({ decision, reason });
  });

  it.each(['allowall', 'interactive'])('mode %s is a load error with the Go text, at the value', (mode) => {
    const r = load(`mode: "${mode}"`);
    expect(r.approver).toBeUndefined();
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0]!;
    expect([d.code, d.severity, d.span?.start.line, d.span?.start.column]).toEqual(['approver/unknown-mode', 'error', 2, 9]);
    expect(d.message).toBe(`unknown approver mode \`${mode}\``);
    expect(goMessage(d)).toBe(`approver: unknown mode "${mode}" (want allow_all / deny_all / pattern)`);
  });

  it('suggests the mode a near miss meant', () => {
    expect(load('mode: allowall').diagnostics[0]?.help).toMatch(/^did you mean `allow_all`\?/);
  });

  it.each(['""', 'deny', 'DENY'])('pattern, default %s denies', (def) => {
    const r = load(`mode: pattern\ndefault: ${def}`);
    expect(r.diagnostics).toEqual([]);
    expect(r.approver?.approve(call('bash'))).toEqual({ decision: 'deny', reason: 'denied by pattern policy' });
  });

  it('pattern, default "ALLOW" allows', () => {
    const r = load('mode: pattern\ndefault: "ALLOW"');
    expect(r.approver?.approve(call('bash'))).toEqual({ decision: 'allow', reason: '' });
  });

  it.each([
    ['" allow"', ' allow', /not trimmed/],
    ['"yes"', 'yes', /the default is `allow` or `deny`/],
  ])('pattern, default %s is a load error with the Go text', (written, value, help) => {
    const r = load(`mode: pattern\ndefault: ${written}`);
    expect(r.approver).toBeUndefined();
    const d = r.diagnostics[0]!;
    expect([d.code, d.span?.start.line, d.span?.start.column]).toEqual(['approver/unknown-default', 3, 12]);
    expect(goMessage(d)).toBe(`approver: unknown default "${value}"`);
    expect(d.help).toMatch(help);
  });

  it('deny_all with an empty reason denies with `denied by policy`', () => {
    const r = load('mode: deny_all\nreason: ""');
    expect(r.approver?.approve(call('read'))).toEqual({ decision: 'deny', reason: 'denied by policy' });
  });

  it('allow_all ignores its rules: every call allowed', () => {
    const r = load('mode: allow_all\ndefault: deny\ndeny:\n  - {match: ".*"}');
    expect(r.diagnostics).toEqual([]);
    expect(r.approver?.approve(call('bash', '{"command":"rm -rf /"}')).decision).toBe('allow');
  });

  it('an invalid regex is an error at the pattern; compat loads an approver that denies every call', () => {
    const src = 'mode: pattern\ndefault: allow\nallow:\n  - {match: "("}';
    const strict = load(src);
    expect(strict.approver).toBeUndefined();
    const d = strict.diagnostics[0]!;
    expect([d.code, d.severity, d.span?.start.line, d.span?.start.column]).toEqual(['regex/invalid', 'error', 5, 15]);
    expect(d.span?.end.column).toBe(18);
    expect(strict.stoppedAfter).toBe('validate');
    const reason = 'approver: pattern compile: error parsing regexp: missing closing ): `(`';
    expect(goMessage(d)).toBe(reason);

    const compat = load(src, { compat: true });
    expect(compat.diagnostics.map((x) => [x.code, x.severity])).toEqual([['regex/invalid', 'warning']]);
    expect(compat.stoppedAfter).toBe('compile');
    expect(compat.approver?.approve(call('bash'))).toEqual({ decision: 'deny', reason });
    expect(compat.approver?.approve(call('read', '')).decision).toBe('deny');
  });

  it('allow `a++`, deny `(`: the reason names the allow rule\'s error', () => {
    const r = load('mode: pattern\nallow:\n  - {match: "a++"}\ndeny:\n  - {match: "("}', { compat: true });
    expect(r.diagnostics.map((x) => [x.code, x.span?.start.line])).toEqual([
      ['regex/invalid', 4],
      ['regex/invalid', 6],
    ]);
    expect(r.approver?.approve(call('bash')).reason).toBe(
      'approver: pattern compile: error parsing regexp: invalid nested repetition operator: `++`',
    );
  });

  it('compat does not excuse an unknown mode', () => {
    const r = load('mode: patern\nallow:\n  - {match: "("}', { compat: true });
    expect(r.approver).toBeUndefined();
    expect(r.diagnostics.map((x) => x.code)).toContain('approver/unknown-mode');
  });
});
