/**
 * Every valid policy under fixtures/ exists in both syntaxes: beside `NAME.yaml` (or `.yml`, `.json`)
 * lies `NAME.verdict`, and the two compile to the same IR (spans, file name and the approver's
 * placement aside) and to the same driver, run Policy and diagnostic codes.
 *
 * "Valid" means: compiles through the `validate` stage with no error other than
 * `policy/invalid-value` (valid syntax whose Policy the SDK rejects on purpose: such files have
 * twins too). Files whose point is a load error are skipped, and every skip is listed below by
 * diagnostic code, so that no policy escapes silently.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileFile, formatVerdictSource } from '../../src/index.ts';
import { FIXTURES, read, stripIR } from './helpers.ts';

/** Top-level fixture folders that hold no policy files to twin, and why. */
const SKIPPED_FOLDERS: Record<string, string> = {
  analysis: 'JSON case tables for the static analysis',
  cases: 'JSON case tables for the engine and compiler',
  compiler: 'compiler test cases, most of them deliberately broken, each with its expected diagnostics',
  descriptors: 'driver descriptors, not policies',
  dsl: 'DSL parser and formatter test cases, most of them deliberately broken',
  hook: '`verdict hook` golden inputs and answers: its policy, a deliberately broken one, and the golden answers (JSON)',
  native: 'agents\' own permission files (Claude Code, Codex, Gemini CLI, Cursor) for the `native/*` lint rules, not policies',
  requests: 'JSON Lines requests for `verdict eval`',
  shell: '@verdict/shell corpora (JSON Lines commands), command rule sets, and the policies with command rules (which have no DSL form yet)',
};

/** Files in the walked folders that are not policies, and why (paths relative to fixtures/). */
const NOT_POLICIES: [RegExp, string][] = [
  [/\.test\.(ya?ml|json)$/, 'case files: only `tests:`, run against the policy beside them'],
  [/^cli\/[^/]+\/args\.json$/, 'command lines of the golden CLI runs'],
  [/^cli\/[^/]+\/env\.json$/, 'environments of the golden CLI runs'],
  [/^cli\/[^/]+\/setup\//, 'files a golden CLI run starts with (an agent\'s settings for `verdict hook status`)'],
  [/^cli\/check-bad-descriptor-(in-file|option)\/half\.yaml$/, 'a driver descriptor'],
  [/^lint\/expected\//, 'expected linter findings'],
  [/^lint\/sarif-2\.1\.0\.schema\.json$/, 'the SARIF JSON schema'],
  [/(^|\/)verdict\.config\.ya?ml$/, 'lint configurations'],
  [/^cli\/fmt-check-folder\/tree\/configmap\.yaml$/, 'a Kubernetes ConfigMap: what `verdict fmt` skips in a folder'],
  [/(^|\/)\.(claude|cursor|gemini)\//, "the agents' own permission files (`verdict diff` and `export` runs)"],
  [/^cli\/diff-native-by-content\/(before|after)\.json$/, "Claude Code settings under other names (`verdict diff` finds them by their content)"],
];

/**
 * The policy files skipped because they do not load, counted by diagnostic code (a file with two
 * codes counts under both). Adding a broken policy fixture means adding it here.
 */
const EXPECTED_SKIPS: Record<string, number> = {
  'approver/unknown-mode': 1, // policies/invalid/typos.yaml
  'policy/invalid-duration': 10, // cli/check-bad-duration* (7), check-bad-json-format, check-bad-timeout-number, policies/invalid/typos.yaml
  'policy/invalid-value': 1, // policies/invalid/typos.yaml (beside other errors)
  'command/invalid-rule': 1, // cli/eval-bad-command-rules
  'command/not-shell-tool': 1, // cli/eval-bad-command-rules
  'regex/invalid': 6, // cli/eval-bad-command-rules, cli/eval-bad-regex, lint/fix/escapes.policy.json, lint/policies/mistakes.yaml, policies/invalid/bad-regex.yaml, testing/broken/broken.yaml
  'schema/invalid-value': 1, // cli/eval-bad-command-rules (`unknown: allow`)
  'schema/type': 3, // cli/check-bad-duration, check-bad-json-format, check-bad-max-retries-string
  'schema/unknown-key': 4, // cli/check-bad-unknown-keys, cli/lint-config-cannot-lower-compiler-errors (typo), lint/not-a-policy.json, policies/invalid/typos.yaml
  'yaml/syntax': 2, // cli/lint-config-cannot-lower-compiler-errors (broken), lint/policies/broken.yaml
};
const EXPECTED_SKIPPED_FILES = 22;

/** Twins that `verdict fmt` would not leave as they are (none: every twin is in canonical layout). */
const NOT_CANONICAL: Record<string, string> = {};

/** `.verdict` policies written only in the DSL (no YAML original). */
const DSL_ONLY = ['cli/eval-bad-dsl-command/policy.verdict', 'lint/fix/two-pass.verdict', 'lint/policies/failing-tests.verdict', 'testing/dsl/workspace.verdict'];

const SOURCE = /\.(ya?ml|json)$/;

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(relative(FIXTURES, full).split('\\').join('/'));
  }
  return out;
}

const topFolders = readdirSync(FIXTURES).filter((f) => statSync(join(FIXTURES, f)).isDirectory()).sort();
const walked = topFolders.filter((f) => !(f in SKIPPED_FOLDERS));
const all = walked.flatMap((f) => walk(join(FIXTURES, f), []));
const candidates = all.filter((f) => SOURCE.test(f) && !NOT_POLICIES.some(([re]) => re.test(f)));

const pairs: string[] = [];
const skipped = new Map<string, string[]>();
for (const f of candidates) {
  const r = compileFile(join(FIXTURES, f), { stopAfter: 'validate' });
  const codes = [...new Set(r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))].sort();
  if (codes.some((c) => c !== 'policy/invalid-value')) skipped.set(f, codes);
  else pairs.push(f);
}
const twinOf = (f: string): string => f.replace(SOURCE, '.verdict');

describe('fixtures: YAML/JSON policies and their .verdict twins', () => {
  it('walks every fixture folder but the ones skipped with a reason', () => {
    expect(walked).toEqual(['cli', 'lint', 'policies', 'testing']);
    for (const f of Object.keys(SKIPPED_FOLDERS)) expect(topFolders, `fixtures/${f} is gone: drop it from the list`).toContain(f);
  });

  it('finds the policies of every walked folder', () => {
    const count = (prefix: string) => pairs.filter((f) => f.startsWith(prefix)).length;
    expect([count('cli/'), count('lint/'), count('policies/'), count('testing/')]).toEqual([59, 8, 17, 17]);
  });

  it(`skips ${EXPECTED_SKIPPED_FILES} policy files that do not load, listed by diagnostic code`, () => {
    const byCode: Record<string, number> = {};
    for (const codes of skipped.values()) for (const c of codes) byCode[c] = (byCode[c] ?? 0) + 1;
    expect(byCode).toEqual(EXPECTED_SKIPS);
    expect(skipped.size).toBe(EXPECTED_SKIPPED_FILES);
  });

  it('no two sources share a twin, and a skipped file has no twin', () => {
    const twins = pairs.map(twinOf);
    expect(new Set(twins).size).toBe(twins.length);
    for (const f of skipped.keys()) expect(existsSync(join(FIXTURES, twinOf(f))), `${twinOf(f)} twins a file that does not load`).toBe(false);
  });

  it('every .verdict policy is a twin or a listed DSL-only policy', () => {
    const twins = new Set(pairs.map(twinOf));
    const verdicts = all.filter((f) => f.endsWith('.verdict') && !/\.test\.verdict$/.test(f));
    expect(verdicts.filter((f) => !twins.has(f))).toEqual(DSL_ONLY);
  });

  for (const name of pairs) {
    const twin = twinOf(name);
    it(`${name} ≡ ${twin}`, () => {
      expect(existsSync(join(FIXTURES, twin)), `${twin} is missing: \`verdict fmt --to verdict fixtures/${name}\``).toBe(true);
      const a = compileFile(join(FIXTURES, name));
      const b = compileFile(join(FIXTURES, twin));
      expect(b.syntax).toBe('verdict');
      expect(stripIR(b.ir)).toEqual(stripIR(a.ir));
      // Both ran every stage to the same end: same driver, same run Policy, same diagnostics.
      expect(b.stoppedAfter).toBe(a.stoppedAfter);
      expect(b.driverName).toBe(a.driverName);
      expect(b.policy).toEqual(a.policy);
      expect(b.diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual(a.diagnostics.map((d) => [d.code, d.severity, d.message]));
    });

    it(`${twin} says whose twin it is and is in canonical layout`, () => {
      const text = read(join(FIXTURES, twin));
      expect(text).toMatch(new RegExp(`^# The twin of ${name.split('/').pop()!.replace(/\./g, '\\.')} in the DSL`, 'm'));
      if (twin in NOT_CANONICAL) expect(formatVerdictSource(text, twin).text, NOT_CANONICAL[twin]).not.toBe(text);
      else expect(formatVerdictSource(text, twin).text).toBe(text);
    });
  }
});
