/**
 * Table tests for one rule, in the style of typescript-eslint's RuleTester: `valid` sources produce
 * no finding of the rule, `invalid` sources produce exactly the listed findings (message id, line,
 * column, optionally the end and the message text). Only the rule under test runs; the compiler's
 * own findings are left out. A case that makes the rule crash fails.
 */
import { describe, expect, it } from 'vitest';
import { applySourceEdits } from '@verdict/compiler';
import { nativeFormatOf } from '@verdict/native';
import { lintNativeSource, lintSource } from '../../src/runner.ts';
import { allRules } from '../../src/rules/index.ts';
import type { Rule } from '../../src/types.ts';

export interface ValidCase {
  name?: string;
  code: string;
  /** Default `policy.yaml`; the extension picks the syntax. */
  filename?: string;
  driver?: string;
  /** The agent whose hook runs the policy (as `--hook-agent`). */
  hookAgent?: 'claude' | 'codex' | 'gemini' | 'cursor';
  options?: Record<string, unknown>;
}

export interface ExpectedFinding {
  messageId: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  /** The whole message, when the test wants to pin it. */
  message?: string;
  help?: string;
}

export interface InvalidCase extends ValidCase {
  errors: ExpectedFinding[];
  /**
   * The source after one pass of the rule's fixes (as ESLint's RuleTester); `null`: the findings
   * carry no fix. Left out: not checked.
   */
  output?: string | null;
}

export function lintWithRule(rule: Rule, c: ValidCase) {
  return lintSource(c.code, c.filename ?? 'policy.yaml', {
    // The rule under test runs even before it is listed in the catalogue.
    rules: [...allRules.filter((r) => r.id !== rule.id), rule],
    only: [rule.id],
    ...(c.driver !== undefined ? { driver: c.driver } : {}),
    ...(c.hookAgent !== undefined ? { hookAgent: c.hookAgent } : {}),
    config: {
      rules: { [rule.id]: { severity: rule.meta.severity === 'off' ? 'warning' : rule.meta.severity, ...(c.options ? { options: c.options } : {}) } },
      categories: {},
      include: [],
      ignore: [],
    },
  });
}

export function runRuleTests(rule: Rule, cases: { valid: (ValidCase | string)[]; invalid: InvalidCase[] }): void {
  describe(rule.id, () => {
    cases.valid.forEach((raw, i) => {
      const c = typeof raw === 'string' ? { code: raw } : raw;
      it(`valid #${i}${c.name ? `: ${c.name}` : ''}`, () => {
        const result = lintWithRule(rule, c);
        expect(result.messages.filter((m) => m.ruleId === 'lint/internal-error')).toEqual([]);
        expect(result.messages.filter((m) => m.ruleId === rule.id).map((m) => `${m.span?.start.line}:${m.span?.start.column} ${m.message}`)).toEqual([]);
      });
    });
    cases.invalid.forEach((c, i) => {
      it(`invalid #${i}${c.name ? `: ${c.name}` : ''}`, () => {
        const result = lintWithRule(rule, c);
        expect(result.messages.filter((m) => m.ruleId === 'lint/internal-error')).toEqual([]);
        const actual = result.messages
          .filter((m) => m.ruleId === rule.id)
          .map((m, j) => {
            const want = c.errors[j];
            const got: ExpectedFinding = {
              messageId: m.messageId ?? '',
              line: m.span?.start.line ?? 0,
              column: m.span?.start.column ?? 0,
            };
            if (want?.endLine !== undefined) got.endLine = m.span?.end.line ?? 0;
            if (want?.endColumn !== undefined) got.endColumn = m.span?.end.column ?? 0;
            if (want?.message !== undefined) got.message = m.message;
            if (want?.help !== undefined && m.help !== undefined) got.help = m.help;
            return got;
          });
        expect(actual).toEqual(c.errors);
        if (c.output === undefined) return;
        const fixes = result.messages.filter((m) => m.ruleId === rule.id && m.fix !== undefined).map((m) => m.fix!);
        if (c.output === null) return expect(fixes).toEqual([]);
        expect(fixes.length, 'the findings carry a fix').toBeGreaterThan(0);
        const fixed = applySourceEdits(c.code, c.filename ?? 'policy.yaml', result.syntax ?? 'yaml', fixes);
        expect(fixed.diagnostics).toEqual([]);
        expect(fixed.text).toBe(c.output);
      });
    });
  });
}

/** A case for a `native/*` rule: an agent's own permission file, named where the agent keeps it. */
export interface NativeCase {
  name?: string;
  /** The path the file would have (`.claude/settings.json`): its name picks the format. */
  filename: string;
  code: string;
  symlink?: boolean;
}

export interface NativeInvalidCase extends NativeCase {
  errors: ExpectedFinding[];
}

export function lintNativeWithRule(rule: Rule, c: NativeCase) {
  const format = nativeFormatOf(c.filename, { explicit: true });
  if (format === undefined) throw new Error(`\`${c.filename}\` names no native format`);
  return lintNativeSource(c.code, c.filename, format, {
    rules: [...allRules.filter((r) => r.id !== rule.id), rule],
    only: [rule.id],
    ...(c.symlink === true ? { symlink: true } : {}),
    config: { rules: { [rule.id]: { severity: rule.meta.severity === 'off' ? 'warning' : rule.meta.severity } }, categories: {}, include: [], ignore: [] },
  });
}

/** Table tests for a `native/*` rule, as `runRuleTests` for the others. */
export function runNativeRuleTests(rule: Rule, cases: { valid: NativeCase[]; invalid: NativeInvalidCase[] }): void {
  describe(rule.id, () => {
    cases.valid.forEach((c, i) => {
      it(`valid #${i}${c.name ? `: ${c.name}` : ''}`, () => {
        const result = lintNativeWithRule(rule, c);
        expect(result.messages.filter((m) => m.ruleId === 'lint/internal-error')).toEqual([]);
        expect(result.messages.filter((m) => m.ruleId === rule.id).map((m) => `${m.span?.start.line}:${m.span?.start.column} ${m.message}`)).toEqual([]);
      });
    });
    cases.invalid.forEach((c, i) => {
      it(`invalid #${i}${c.name ? `: ${c.name}` : ''}`, () => {
        const result = lintNativeWithRule(rule, c);
        expect(result.messages.filter((m) => m.ruleId === 'lint/internal-error').map((m) => m.message)).toEqual([]);
        const actual = result.messages
          .filter((m) => m.ruleId === rule.id)
          .map((m, j) => {
            const want = c.errors[j];
            const got: ExpectedFinding = { messageId: m.messageId ?? '', line: m.span?.start.line ?? 0, column: m.span?.start.column ?? 0 };
            if (want?.message !== undefined) got.message = m.message;
            if (want?.help !== undefined && m.help !== undefined) got.help = m.help;
            return got;
          });
        expect(actual).toEqual(c.errors);
      });
    });
  });
}
