/**
 * Every C4 row of semantics.md is a `verdict check` golden run (fixtures/cli/check-*) whose verdict
 * agrees with the engine's table (fixtures/cases/policy-validation.json): same driver, same
 * "valid" or same SDK message, same effective policy. The goldens themselves are replayed by
 * golden.test.ts; this ties them to the rows so none can go missing or drift from the table.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './harness.ts';

interface Case {
  name: string;
  row: string;
  drivers: string[] | 'all';
  expect:
    | { result: 'not_validated' }
    | { result: 'valid'; effective?: { approvals: Record<string, string | number> } & Record<string, unknown> }
    | { result: 'error'; message: string };
}

const ALL = ['codex', 'claude', 'cursor', 'codebuddy'];

/** C4 row (as the engine table names it) → the golden runs that answer it. */
const GOLDENS: Record<string, string[]> = {
  none: ['check-no-policy', 'check-no-policy-json'],
  '{} on any driver': ['check-empty-all'],
  'sandbox READ_ONLY': ['check-read-only-upper'],
  'sandbox bogus, web_search bogus': ['check-two-bogus'],
  'question auto_approve': ['check-question-auto-approve'],
  'permission auto_deny': ['check-permission-auto-deny', 'check-invalid-json'],
  'on_reject Retry': ['check-on-reject-Retry'],
  'max_retries -1': ['check-max-retries-negative'],
  'max_retries -1 and sandbox read_only, on cursor': ['check-domains-first'],
  'timeout -5s': ['check-negative-timeout'],
  'sandbox read_only on claude / cursor / codebuddy': ['check-read-only-all'],
  'sandbox read_only valid on codex': ['check-read-only-all', 'check-file-driver'],
  'web_search deny on claude': ['check-web-deny-claude'],
  'browser allow on claude': ['check-browser-all'],
  'browser allow on codex': ['check-browser-all'],
  'preset approvals_auto_deny on codex': ['check-auto-deny-preset-all'],
  'preset approvals_auto_deny on claude': ['check-auto-deny-preset-all'],
  'permission ask on claude (built-in)': ['check-permission-ask-claude', 'check-json-format'],
  'plan_review auto_approve on codex': ['check-plan-review-codex'],
  'question ask on cursor': ['check-question-ask-cursor'],
  'on_reject retry on any built-in': ['check-on-reject-retry-all'],
};

const table = JSON.parse(readFileSync(join(repoRoot, 'fixtures/cases/policy-validation.json'), 'utf8')) as {
  cases: Case[];
};
const c4 = table.cases.filter((c) => !/^B\d/.test(c.row));

interface Golden {
  name: string;
  stdout: string;
  exit: number;
  json: boolean;
}

function golden(name: string): Golden {
  const at = (f: string) => join(repoRoot, 'fixtures/cli', name, f);
  const args = JSON.parse(readFileSync(at('args.json'), 'utf8')) as string[];
  return {
    name,
    stdout: readFileSync(at('stdout'), 'utf8'),
    exit: Number(readFileSync(at('exit'), 'utf8').trim()),
    json: args.includes('json'),
  };
}

/** What the golden says for `driver`: 'valid', the SDK message, or undefined when it does not cover it. */
function verdictFor(g: Golden, driver: string): string | undefined {
  if (g.json) {
    const doc = JSON.parse(g.stdout) as {
      driver?: string;
      valid?: boolean;
      error?: { message: string } | null;
      drivers?: { driver: string; valid: boolean; error: { message: string } | null }[];
    };
    const rows = doc.drivers ?? (doc.driver === undefined ? [] : [{ driver: doc.driver, valid: doc.valid === true, error: doc.error ?? null }]);
    const row = rows.find((r) => r.driver === driver);
    return row === undefined ? undefined : row.valid ? 'valid' : row.error?.message;
  }
  for (const line of g.stdout.split('\n')) {
    if (line === `valid for ${driver}`) return 'valid';
    if (line.startsWith(`invalid for ${driver}: `)) return line.slice(`invalid for ${driver}: `.length);
    const m = /^(\S+)\s{2,}(.+)$/.exec(line);
    if (m?.[1] === driver && !line.startsWith(' ')) return m[2];
  }
  return undefined;
}

describe('every C4 row is a `verdict check` golden run that agrees with the engine table', () => {
  it('maps every C4 row of the table, and nothing else', () => {
    expect(new Set(c4.map((c) => c.row))).toEqual(new Set(Object.keys(GOLDENS)));
  });

  it.each(c4.map((c) => [c.row, c.name, c] as const))('%s (%s)', (row, _name, c) => {
    const names = GOLDENS[row] ?? [];
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(existsSync(join(repoRoot, 'fixtures/cli', name, 'args.json')), name).toBe(true);
    const goldens = names.map(golden);
    if (c.expect.result === 'not_validated') {
      for (const g of goldens) {
        expect(g.exit).toBe(0);
        if (g.json) expect(JSON.parse(g.stdout)).toMatchObject({ policy: null, validated: false });
        else expect(g.stdout).toMatch(/: no run policy: not validated\n$/);
      }
      return;
    }
    const drivers = c.drivers === 'all' ? ALL : c.drivers;
    for (const driver of drivers) {
      const answers = goldens.map((g) => [g.name, verdictFor(g, driver)] as const).filter(([, v]) => v !== undefined);
      expect(answers.length, `no golden answers ${row} for ${driver}`).toBeGreaterThan(0);
      const want = c.expect.result === 'valid' ? 'valid' : c.expect.message.replaceAll('<driver>', driver);
      for (const [name, got] of answers) expect(got, name).toBe(want);
    }
    // exit 0 when every driver the run answers for is valid, else 1
    for (const g of goldens) {
      const verdicts = ALL.map((d) => verdictFor(g, d)).filter((v) => v !== undefined);
      expect(verdicts.length, g.name).toBeGreaterThan(0);
      expect(g.exit, g.name).toBe(verdicts.every((v) => v === 'valid') ? 0 : 1);
    }
    if (c.expect.result === 'valid' && c.expect.effective !== undefined) {
      const a = c.expect.effective.approvals;
      for (const g of goldens.filter((x) => !x.json)) {
        for (const key of ['permission', 'plan_review', 'question', 'on_timeout', 'on_reject', 'max_retries']) {
          expect(g.stdout, `${g.name} ${key}`).toMatch(new RegExp(`\\n    ${key}: +${String(a[key])}\\n`));
        }
        expect(g.stdout).toMatch(new RegExp(`\\n    timeout: +${String(a['timeout'])}( \\(no deadline\\))?\\n`));
      }
    }
  });
});
