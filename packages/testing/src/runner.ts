/**
 * Running inline tests (`tests:` in a policy, `test` blocks in `.verdict`) and case files, and the
 * rule coverage they give.
 *
 * Case files: `NAME.test.yaml` (or `.test.yml`, `.test.json`, `.test.verdict`) beside the policy
 * `NAME.yaml` (`.yml`, `.json`, `.verdict`, looked for in that order) holds only `tests:`; its cases
 * run against that policy. A case file with an approver block of its own is a load error.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { type CompileOptions, compileFile, findFiles, POLICY_EXTENSIONS } from '@verdict/compiler';
import type { ApproverIR, Diagnostic, Explanation, RuleIR, RuleList, Span, TestCaseIR } from '@verdict/engine';
import { hasErrors, inlineTestMismatches, normalizeApproverMode, rulesOf } from '@verdict/engine';
import { decide, loadPolicy, policyFromSource, type PolicyUnderTest } from './policy.ts';
import { ruleName } from './properties.ts';

export { POLICY_EXTENSIONS };
const CASE_FILE = /\.test\.(?:yaml|yml|json|verdict)$/;

export function isCaseFile(path: string): boolean {
  return CASE_FILE.test(path);
}

/** The policy a case file belongs to, if one exists beside it. */
export function policyForCaseFile(caseFile: string): string | undefined {
  const stem = caseFile.replace(CASE_FILE, '');
  return POLICY_EXTENSIONS.map((e) => stem + e).find((p) => existsSync(p));
}

/** Case files beside a policy (`NAME.test.*`). */
export function caseFilesFor(policyFile: string): string[] {
  const ext = POLICY_EXTENSIONS.find((e) => policyFile.endsWith(e));
  if (!ext) return [];
  const stem = policyFile.slice(0, -ext.length);
  return POLICY_EXTENSIONS.map((e) => `${stem}.test${e}`).filter((p) => existsSync(p));
}

export interface TestTarget {
  policyFile: string;
  /** Inline tests of the policy file itself: run them (false when only a case file was named). */
  inline: boolean;
  caseFiles: string[];
  /** The policy's text when it was not read from `policyFile` (standard input, which `policyFile` then names). */
  source?: string;
}

/** How `runTarget` compiles policies (the command judge, for command rules). */
export interface RunOptions {
  compile?: CompileOptions;
}

export interface DiscoverOptions {
  /** Folder the paths are relative to; default `process.cwd()`. */
  cwd?: string;
  /** `.gitignore`-style lines relative to `cwd` that leave files out (`--ignore-pattern`). */
  ignorePatterns?: readonly string[];
}

/**
 * `NAME.test.*` file names are case files; other policy-looking files are policies. Paths are files,
 * folders or globs, found by the walker every command shares (`findFiles`: `.gitignore` files and
 * ignore patterns are honoured; dot folders and node_modules are not entered).
 */
export function discover(paths: readonly string[], options: DiscoverOptions = {}): { targets: TestTarget[]; missing: Diagnostic[] } {
  const targets = new Map<string, TestTarget>();
  const addPolicy = (file: string, inline: boolean, caseFiles: string[]) => {
    const t = targets.get(file) ?? { policyFile: file, inline: false, caseFiles: [] };
    t.inline ||= inline;
    for (const c of caseFiles) if (!t.caseFiles.includes(c)) t.caseFiles.push(c);
    targets.set(file, t);
  };
  const found = findFiles(paths, {
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    extensions: POLICY_EXTENSIONS,
    ...(options.ignorePatterns !== undefined ? { ignorePatterns: options.ignorePatterns } : {}),
  });
  const missing: Diagnostic[] = [...found.diagnostics];
  for (const { display: file } of found.files) {
    if (isCaseFile(file)) {
      const policy = policyForCaseFile(file);
      if (policy) addPolicy(policy, false, [file]);
      else
        missing.push({
          code: 'test/no-policy',
          severity: 'error',
          message: `no policy beside the case file \`${file}\``,
          help: `a case file \`NAME.test.yaml\` runs against \`NAME.yaml\`, \`NAME.yml\`, \`NAME.json\` or \`NAME.verdict\` in the same folder`,
          span: { file, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } },
        });
    } else {
      addPolicy(file, true, caseFilesFor(file));
    }
  }
  return { targets: [...targets.values()], missing };
}

export interface TestOutcome {
  /** Where the test is written. */
  file: string;
  test: TestCaseIR;
  passed: boolean;
  /** What differs from the expectation (empty when it passed). */
  failures: string[];
  explanation: Explanation;
}

/** Runs one test against a policy. */
export function runTest(policy: PolicyUnderTest, test: TestCaseIR, file: string): TestOutcome {
  const e = decide(policy, { tool: test.tool, input: test.input });
  const failures = inlineTestMismatches(e, test).map((m) => {
    switch (m.kind) {
      case 'decision':
        return `expected ${m.expected}, got ${m.actual}`;
      case 'reason':
        return `expected reason ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`;
      case 'rule-ref':
        return `expected rule \`${m.expected}\` is not \`deny[N]\`, \`ask[N]\`, \`allow[N]\` or \`default\``;
      case 'rule':
        return `expected rule ${m.expected}, decided by ${m.actual}`;
    }
  });
  return { file, test, passed: failures.length === 0, failures, explanation: e };
}

export interface RuleCoverage {
  list: RuleList;
  index: number;
  rule: RuleIR;
  /** Tests this rule decided. */
  decided: number;
  /** Tests whose input this rule matched (deciding or not). */
  matched: number;
}

export interface CoverageReport {
  rules: RuleCoverage[];
  /** Tests the default decided. */
  defaultDecided: number;
  /** Rules that decide at least one test. */
  reached: number;
  total: number;
  /** `reached / total` as a percentage; 100 when there is no rule. */
  percent: number;
}

/**
 * Coverage of a configuration's rules by test outcomes. A rule is reached when it decides a test;
 * `matched` also counts tests where an earlier rule decided. Outside pattern mode rules never run.
 */
export function coverage(config: ApproverIR | undefined, outcomes: readonly TestOutcome[]): CoverageReport {
  const rules: RuleCoverage[] = [];
  let defaultDecided = 0;
  if (config) {
    for (const list of ['deny', 'ask', 'allow'] as const) {
      rulesOf(config, list).forEach((rule, index) => rules.push({ list, index, rule, decided: 0, matched: 0 }));
    }
  }
  const find = (list: RuleList, index: number) => rules.find((r) => r.list === list && r.index === index);
  for (const o of outcomes) {
    const e = o.explanation;
    if (e.by === 'default') defaultDecided++;
    if (e.rule) {
      const r = find(e.rule.list, e.rule.index);
      if (r) (r.decided++, r.matched++);
    }
    for (const m of e.alsoMatched) {
      const r = find(m.list, m.index);
      if (r) r.matched++;
    }
  }
  const reached = rules.filter((r) => r.decided > 0).length;
  return { rules, defaultDecided, reached, total: rules.length, percent: rules.length === 0 ? 100 : (100 * reached) / rules.length };
}

export interface TargetRun {
  target: TestTarget;
  policy?: PolicyUnderTest;
  /** Errors and warnings of the policy and its case files. */
  diagnostics: Diagnostic[];
  /** Whether the policy or a case file could not load. */
  loadFailed: boolean;
  outcomes: TestOutcome[];
  coverage?: CoverageReport;
}

function noApprover(file: string): Diagnostic {
  return { code: 'test/no-approver', severity: 'error', message: `\`${file}\` has no approver block to test`, span: at(file) };
}

function at(file: string): Span {
  return { file, start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };
}

/** Loads a target's policy and case files and runs every test. */
export function runTarget(target: TestTarget, options: RunOptions = {}): TargetRun {
  const run: TargetRun = { target, diagnostics: [], loadFailed: false, outcomes: [] };
  const compile = options.compile ?? {};
  const loaded = target.source !== undefined ? policyFromSource(target.source, target.policyFile, compile) : loadPolicy(target.policyFile, compile);
  for (const d of loaded.diagnostics) run.diagnostics.push(d);
  if (!loaded.ok) {
    run.loadFailed = true;
    if (!hasErrors(loaded.diagnostics)) run.diagnostics.push(noApprover(target.policyFile));
    return run;
  }
  const policy = loaded.policy;
  run.policy = policy;
  const cases: { file: string; tests: readonly TestCaseIR[] }[] = [];
  if (target.inline) cases.push({ file: target.policyFile, tests: policy.tests ?? [] });
  for (const file of target.caseFiles) {
    const result = compileFile(file);
    for (const d of result.diagnostics) run.diagnostics.push(d);
    if (hasErrors(result.diagnostics) || !result.ir) {
      run.loadFailed = true;
      continue;
    }
    if (result.ir.approver) {
      run.loadFailed = true;
      run.diagnostics.push({
        code: 'test/case-file-approver',
        severity: 'error',
        message: `the case file \`${basename(file)}\` has an approver block of its own`,
        help: `a case file holds only \`tests:\`; they run against \`${basename(target.policyFile)}\` in \`${dirname(file)}\``,
        span: result.ir.approver.span ?? at(file),
      });
      continue;
    }
    cases.push({ file, tests: result.ir.tests });
  }
  for (const c of cases) for (const t of c.tests) run.outcomes.push(runTest(policy, t, c.file));
  run.coverage = coverage(policy.config && isPatternMode(policy.config) ? policy.config : undefined, run.outcomes);
  return run;
}

function isPatternMode(config: ApproverIR): boolean {
  return normalizeApproverMode(config.mode) === 'pattern';
}
