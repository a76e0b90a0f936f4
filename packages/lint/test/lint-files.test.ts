import { RegexCache } from '@verdict/analysis';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { project } from './support/project.ts';
import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../src/exit-code.ts';
import { carriesVerdictSchema, hasPolicyName, lintFiles } from '../src/lint-files.ts';
import { lintSource } from '../src/runner.ts';

const clean = 'approver:\n  mode: deny_all\n  reason: denied — this job only reads; ask the operator for more\n';
const warns = 'approver:\n  mode: pattern\n  default: allow\n  reason: denied — only reads are allowed in this job; ask the operator\n';
const errs = 'approver:\n  mode: pattern\n  reason: denied — only reads are allowed in this job; ask the operator\n  allow:\n    - {tool: read, match: "("}\n';

describe('lintFiles: finding files', () => {
  const dir = project({
    'a.policy.yaml': clean,
    'nested/verdict.yml': warns,
    'c.verdict': 'approver deny_all reason "denied — this job only reads; ask the operator"\n',
    'package.json': '{"name": "x", "version": "1.0.0"}',
    'renovate.json': '{"extends": ["config:base"], "mode": "full", "allow": []}',
    'configmap.yaml': 'apiVersion: v1\nkind: ConfigMap\ndata: {mode: strict}\nmode: x\npolicy: y\n',
    'docker-compose.yaml': 'services:\n  web: {image: nginx}\n',
    'modeline.yaml': `# yaml-language-server: $schema=https://verdict.dev/schemas/policy-file.schema.json\n${clean}`,
    'schema.json': '{"$schema": "./node_modules/@verdict/compiler/schemas/policy-file.schema.json", "approver": {"mode": ',
    'other-schema.json': '{"$schema": "https://json.schemastore.org/renovate", "mode": "x"}',
    'notes.txt': 'approver: nope',
    'node_modules/dep/x.policy.yaml': errs,
    '.hidden/x.policy.yaml': errs,
  });
  it('lints the files whose name or schema says policy, skipping the rest, dependencies and hidden folders', () => {
    const run = lintFiles([], { cwd: dir });
    expect(run.results.map((r) => r.file)).toEqual(['a.policy.yaml', 'c.verdict', 'modeline.yaml', 'nested/verdict.yml', 'schema.json']);
    expect(run.results.find((r) => r.file === 'schema.json')?.messages[0]?.ruleId).toBe('json/syntax');
    expect(run.skipped?.map((s) => s.file).sort()).toEqual(['configmap.yaml', 'docker-compose.yaml', 'other-schema.json', 'package.json', 'renovate.json']);
    expect(run.skipped?.[0]?.reason).toMatch(/^not a policy by name/);
  });
  it('names and schemas', () => {
    expect(['x.verdict', 'a.policy.yml', 'a.POLICY.json', 'verdict.yaml', 'verdict.json'].every(hasPolicyName)).toBe(true);
    expect(['policy.yaml', 'verdict.config.yaml', 'averdict.yaml', 'settings.json', 'x.policy.txt'].some(hasPolicyName)).toBe(false);
    expect(carriesVerdictSchema('#  yaml-language-server: $schema=../schemas/verdict.json\nx: 1\n')).toBe(true);
    expect(carriesVerdictSchema('$schema: https://verdict.dev/schemas/policy.schema.json\n')).toBe(true);
    expect(carriesVerdictSchema('a:\n  $schema: https://verdict.dev/x\n')).toBe(false);
    expect(carriesVerdictSchema('# yaml-language-server: $schema=https://json.schemastore.org/github-workflow.json\n')).toBe(false);
  });
  it('lints a file named explicitly whatever its content', () => {
    const run = lintFiles(['docker-compose.yaml'], { cwd: dir });
    expect(run.results.map((r) => r.file)).toEqual(['docker-compose.yaml']);
  });
  it('reports a missing path as a run diagnostic with exit code 2', () => {
    const run = lintFiles(['nope.yaml'], { cwd: dir });
    expect(run.diagnostics.map((d) => [d.code, d.message])).toEqual([['files/not-found', 'no such file or folder `nope.yaml`']]);
    expect(exitCodeFor(run)).toBe(2);
  });
});

describe('lintFiles: globs, .gitignore and --ignore-pattern', () => {
  const dir = project({
    '.git/HEAD': 'ref: x\n',
    '.gitignore': 'gen/\n# a comment\n*.tmp.yaml\n',
    'policies/a.yaml': clean,
    'policies/deep/b.yaml': warns,
    'policies/deep/c.json': '{"approver": {"mode": "deny_all", "reason": "denied — this job only reads; ask the operator"}}',
    'policies/x.tmp.yaml': errs,
    'policies/gen/g.policy.yaml': errs,
    'sub/.gitignore': '*.policy.yaml\n!keep.policy.yaml\n',
    'sub/drop.policy.yaml': errs,
    'sub/keep.policy.yaml': clean,
    'sub/inner/drop.policy.yaml': errs,
  });
  const files = (run: ReturnType<typeof lintFiles>) => run.results.map((r) => r.file);
  it('a glob lints what it matches, whatever the names say, and honours .gitignore', () => {
    const run = lintFiles(['policies/**/*.yaml'], { cwd: dir });
    expect(files(run)).toEqual(['policies/a.yaml', 'policies/deep/b.yaml']);
    expect(run.diagnostics).toEqual([]);
    expect(files(lintFiles(['policies/*.{yaml,json}'], { cwd: dir }))).toEqual(['policies/a.yaml']);
  });
  it('a glob that matches nothing, or only ignored files, is exit 2 with the reason', () => {
    const none = lintFiles(['policies/**/*.yml'], { cwd: dir });
    expect(none.diagnostics.map((d) => [d.code, d.message])).toEqual([['files/no-match', 'no files match the glob `policies/**/*.yml`']]);
    expect(exitCodeFor(none)).toBe(2);
    const ignored = lintFiles(['policies/*.tmp.yaml'], { cwd: dir });
    expect(ignored.diagnostics.map((d) => [d.code, d.message])).toEqual([['files/no-match', 'every file the glob `policies/*.tmp.yaml` matches is ignored']]);
    // The folder a glob starts from is named, as a folder argument is: .gitignore filters what is inside it.
    expect(files(lintFiles(['policies/gen/*.yaml'], { cwd: dir }))).toEqual(['policies/gen/g.policy.yaml']);
    expect(exitCodeFor(ignored)).toBe(2);
  });
  it('an invalid glob argument is a usage diagnostic, not an internal error', () => {
    const run = lintFiles(['policies/[a*.yaml'], { cwd: dir });
    expect(run.diagnostics.map((d) => d.code)).toEqual(['files/invalid-glob']);
    expect(exitCodeFor(run)).toBe(2);
  });
  it('folders honour nested .gitignore files as git does: deeper files and later lines win, `!` takes back', () => {
    const run = lintFiles(['.'], { cwd: dir });
    expect(files(run)).toEqual(['sub/keep.policy.yaml']);
    expect(run.skipped?.filter((s) => s.reason.includes('.gitignore'))).toEqual([
      { file: 'policies/gen/', reason: 'matched by `gen/` in `.gitignore:1`' },
      { file: 'policies/x.tmp.yaml', reason: 'matched by `*.tmp.yaml` in `.gitignore:3`' },
      { file: 'sub/drop.policy.yaml', reason: 'matched by `*.policy.yaml` in `sub/.gitignore:1`' },
      { file: 'sub/inner/drop.policy.yaml', reason: 'matched by `*.policy.yaml` in `sub/.gitignore:1`' },
    ]);
    // The root .gitignore applies when the walk starts below it.
    expect(files(lintFiles(['.'], { cwd: join(dir, 'policies') }))).toEqual([]);
  });
  it('--ignore-pattern leaves out files and folders (named files too), in .gitignore style from cwd', () => {
    const run = lintFiles(['policies/**/*.yaml', 'sub/keep.policy.yaml'], { cwd: dir, ignorePatterns: ['deep/', 'sub/keep.policy.yaml'] });
    expect(files(run)).toEqual(['policies/a.yaml']);
    expect(run.skipped?.map((s) => [s.file, s.reason])).toEqual([
      ['policies/deep/', 'matched by `--ignore-pattern` `deep/`'],
      ['policies/gen/', 'matched by `gen/` in `.gitignore:1`'],
      ['policies/x.tmp.yaml', 'matched by `*.tmp.yaml` in `.gitignore:3`'],
      ['sub/keep.policy.yaml', 'matched by `--ignore-pattern` `sub/keep.policy.yaml`'],
    ]);
    const bad = lintFiles(['policies'], { cwd: dir, ignorePatterns: ['{a,b'] });
    expect(bad.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['files/invalid-glob', 'invalid `--ignore-pattern` `{a,b`: missing closing `}` (a literal one is written `\\}`)'],
    ]);
    expect(exitCodeFor(bad)).toBe(2);
  });
});

/**
 * The hand-written matcher this replaced turned `ignore: ["**\/**\/…/x"]` into nested optional
 * groups that a JavaScript RegExp backtracks through: 96 s at 11 repeats. Globs now match on RE2
 * (linear in the path); with 30 repeats of each shape, on files 200 folders deep, the run ends
 * within the timeout, where backtracking would take longer than the age of the universe.
 */
describe('lintFiles: configuration globs match in linear time', () => {
  it('`ignore` of 30 repeated `**/` and `**/a/` segments over 200-folder-deep paths', { timeout: 30_000 }, () => {
    const deep = 'a/'.repeat(200);
    const dir = project({
      'verdict.config.yaml': `ignore:\n  - "${'**/'.repeat(30)}x"\n  - "${'**/a/'.repeat(30)}x"\ninclude: ["${'**/a/'.repeat(30)}*.yaml"]\n`,
      [`${deep}p.yaml`]: clean,
      [`${deep}x/q.yaml`]: errs,
    });
    const run = lintFiles(['.'], { cwd: dir });
    expect(run.diagnostics).toEqual([]);
    expect(run.results.map((r) => r.file)).toEqual([`${deep}p.yaml`]);
  });
});

describe('lintFiles: compiler errors cannot be switched off', () => {
  it('neither a rule setting, a category, nor an inline suppression quiets yaml/syntax, schema/* or dsl/* errors', () => {
    const dir = project({
      'verdict.config.yaml': 'rules:\n  yaml/syntax: off\n  schema/unknown-key: warning\n  dsl/syntax: off\ncategories: {compiler: off}\n',
      'broken.policy.yaml': 'approver: [\n',
      'typo.policy.yaml': `${clean}  # verdict-disable-next-line schema/unknown-key\n  modee: x\n`,
      'broken.verdict': 'approver pattern {\n',
    });
    const run = lintFiles(['.'], { cwd: dir });
    const found = run.results.map((r) => [r.file, r.messages.filter((m) => m.source === 'compiler').map((m) => `${m.ruleId}:${m.severity}`)]);
    expect(found).toEqual([
      ['broken.policy.yaml', ['yaml/syntax:error']],
      ['broken.verdict', ['dsl/syntax:error']],
      ['typo.policy.yaml', ['schema/unknown-key:error']],
    ]);
    expect(exitCodeFor(run)).toBe(1);
  });
});

describe('lintFiles: configuration', () => {
  it('applies verdict.config.yaml from cwd: severities per rule and category, include and ignore globs, driver', () => {
    const dir = project({
      'verdict.config.yaml': [
        'driver: claude',
        'include: ["policies/**"]',
        'ignore: ["**/generated/**"]',
        'categories: {approver: error}',
        'rules:',
        '  approver/reason: off',
        '  policy/capability-unsupported: warning',
      ].join('\n'),
      'policies/p.yaml': `${warns}policy:\n  sandbox: read_only\n  approvals: {question: ask, on_reject: continue}\n`,
      'policies/generated/g.yaml': errs,
      'other/o.policy.yaml': errs,
    });
    const run = lintFiles([], { cwd: dir });
    expect(run.diagnostics).toEqual([]);
    expect(run.results.map((r) => r.file)).toEqual(['policies/p.yaml']);
    expect(run.results[0]?.messages.map((m) => `${m.ruleId}:${m.severity}`)).toEqual([
      'approver/default-allow:error',
      'policy/capability-unsupported:warning',
    ]);
  });
  it('--driver wins over the configuration', () => {
    const dir = project({ 'verdict.config.yaml': 'driver: claude\n', 'p.policy.yaml': 'policy:\n  sandbox: read_only\n' });
    expect(lintFiles([], { cwd: dir }).results[0]?.messages.some((m) => m.ruleId === 'policy/capability-unsupported')).toBe(true);
    expect(lintFiles([], { cwd: dir, driver: 'codex' }).results[0]?.messages.some((m) => m.ruleId === 'policy/capability-unsupported')).toBe(false);
  });
  it('an explicit config path that is missing is a run error', () => {
    const dir = project({ 'p.yaml': clean });
    const run = lintFiles([], { cwd: dir, configPath: 'lint.yaml' });
    expect(run.diagnostics[0]?.code).toBe('lint/config-invalid');
    expect(exitCodeFor(run)).toBe(2);
  });
});

describe('lintFiles: configuration discovery', () => {
  const dir = project({
    '.git/HEAD': 'ref: x\n',
    'verdict.config.yaml': 'rules:\n  approver/default-allow: off\n',
    'sub/deep/p.policy.yaml': warns,
    'nested/verdict.config.yaml': 'rules:\n  approver/default-allow: error\n',
    'nested/q.policy.yaml': warns,
    'other.yaml': 'rules:\n  approver/default-allow: info\n',
  });
  const ids = (run: ReturnType<typeof lintFiles>) => run.results.map((r) => `${r.file}:${r.messages.map((m) => `${m.ruleId}:${m.severity}`).join(',')}`);
  it('finds the nearest configuration from each file upward, from any working directory', () => {
    expect(ids(lintFiles(['.'], { cwd: dir }))).toEqual(['nested/q.policy.yaml:approver/default-allow:error', 'sub/deep/p.policy.yaml:']);
    expect(ids(lintFiles(['.'], { cwd: join(dir, 'sub/deep') }))).toEqual(['p.policy.yaml:']);
  });
  it('stops at the repository root', () => {
    const inner = join(dir, 'repo');
    mkdirSync(join(inner, '.git'), { recursive: true });
    writeFileSync(join(inner, 'r.policy.yaml'), warns);
    expect(ids(lintFiles(['.'], { cwd: inner }))).toEqual(['r.policy.yaml:approver/default-allow:warning']);
  });
  it('--config applies one file everywhere; --no-config-lookup uses none', () => {
    expect(ids(lintFiles(['nested', 'sub'], { cwd: dir, configPath: 'other.yaml' }))).toEqual(['nested/q.policy.yaml:approver/default-allow:info', 'sub/deep/p.policy.yaml:approver/default-allow:info']);
    expect(ids(lintFiles(['sub'], { cwd: dir, noConfigLookup: true }))).toEqual(['sub/deep/p.policy.yaml:approver/default-allow:warning']);
  });
});

describe('exitCodeFor', () => {
  const dir = project({ 'clean.yaml': clean, 'warn.yaml': warns, 'err.yaml': errs });
  it('is 0 when clean, 1 on errors', () => {
    expect(exitCodeFor(lintFiles(['clean.yaml'], { cwd: dir }))).toBe(0);
    expect(exitCodeFor(lintFiles(['err.yaml'], { cwd: dir }))).toBe(1);
  });
  it('fails on warnings only above maxWarnings', () => {
    const run = lintFiles(['warn.yaml'], { cwd: dir });
    expect(run.warningCount).toBe(1);
    expect(exitCodeFor(run)).toBe(0);
    expect(exitCodeFor(run, { maxWarnings: 1 })).toBe(0);
    expect(exitCodeFor(run, { maxWarnings: 0 })).toBe(1);
  });
});

describe('regex cache', () => {
  it('compiles each distinct pattern once for a whole run, however many rules look at it', () => {
    const regexes = new RegexCache();
    const src = 'approver:\n  mode: pattern\n  allow:\n    - {tool: bash, match: "\\"command\\":\\"git status"}\n  deny:\n    - {tool: bash, match: "rm -rf"}\n';
    lintSource(src, 'a.yaml', { regexes });
    const after = regexes.compilations;
    lintSource(src, 'b.yaml', { regexes });
    expect(regexes.compilations).toBe(after);
    expect(after).toBeLessThanOrEqual(4); // the two patterns, plus field-anchored forms at most
  });
});

describe('lintFiles: driver descriptor files', () => {
  it('a --driver path is read relative to cwd (a newer Claude that advertises permission ask)', () => {
    const dir = project({ 'p.yaml': 'policy:\n  approvals: {permission: ask, on_reject: continue}\n' });
    const repo = join(__dirname, '../../..');
    const builtin = lintFiles([join(dir, 'p.yaml')], { cwd: repo, driver: 'claude' });
    expect(builtin.results[0]?.messages.map((m) => m.ruleId)).toEqual(['policy/mode-unsupported']);
    const newer = lintFiles([join(dir, 'p.yaml')], { cwd: repo, driver: 'fixtures/descriptors/claude-newer.yaml' });
    expect(newer.diagnostics).toEqual([]);
    expect(newer.results[0]?.messages).toEqual([]);
  });
  it('an unknown driver is the compiler’s finding, at the file', () => {
    const dir = project({ 'p.yaml': 'policy:\n  sandbox: read_only\n' });
    const run = lintFiles(['p.yaml'], { cwd: dir, driver: 'nosuch' });
    expect(run.results[0]?.messages.map((m) => m.ruleId)).toContain('driver/unknown');
    expect(exitCodeFor(run)).toBe(1);
  });
});

describe('lintFiles: the compiler’s strict reader, and names as they are', () => {
  it('a Latin-1 file, named or in a folder, is a located error and exit 2, never skipped or read leniently', () => {
    const dir = project({ 'ok.yaml': clean, 'verdict.config.yaml': 'include: ["**/*.yaml"]\n' });
    const latin1 = Buffer.from('approver:\n  mode: deny_all\n  reason: "caf\xe9"\n', 'latin1');
    writeFileSync(join(dir, 'latin1.yaml'), latin1);
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'latin1.yaml'), latin1);
    for (const paths of [['latin1.yaml'], ['.']]) {
      const run = lintFiles(paths, { cwd: dir });
      const bad = run.results.filter((r) => r.unreadable === true);
      expect(bad.map((r) => [r.file, r.messages.map((m) => [m.ruleId, m.span?.start.line, m.span?.start.column])])).toEqual(
        paths[0] === '.'
          ? [
              ['latin1.yaml', [['load/invalid-utf8', 3, 15]]],
              ['sub/latin1.yaml', [['load/invalid-utf8', 3, 15]]],
            ]
          : [['latin1.yaml', [['load/invalid-utf8', 3, 15]]]],
      );
      expect(exitCodeFor(run)).toBe(2);
    }
  });
  it('a FIFO and a device are refused without being read (no hang, no endless read)', () => {
    const dir = project({ 'verdict.config.yaml': 'include: ["**/*.yaml"]\n' });
    expect(spawnSync('mkfifo', [join(dir, 'pipe.yaml')]).status).toBe(0);
    const run = lintFiles(['pipe.yaml', '/dev/zero'], { cwd: dir });
    expect(run.results.map((r) => [r.file, r.messages[0]?.ruleId])).toEqual([
      ['/dev/zero', 'load/not-a-file'],
      ['pipe.yaml', 'load/not-a-file'],
    ]);
    expect(exitCodeFor(run)).toBe(2);
    // In a folder too: named, not passed over.
    const walked = lintFiles(['.'], { cwd: dir });
    expect(walked.results.map((r) => [r.file, r.messages[0]?.ruleId])).toEqual([['pipe.yaml', 'load/not-a-file']]);
  });
  it('keeps a backslash in a name, escapes control characters, and lints a name that is not UTF-8', () => {
    const dir = project({ 'p/a\\b.yaml': clean, 'p/c\x1b[0m.yaml': clean, 'verdict.config.yaml': 'include: ["**/*.yaml"]\n' });
    writeFileSync(Buffer.concat([Buffer.from(join(dir, 'p', 'n')), Buffer.from([0xff]), Buffer.from('.yaml')]), clean);
    const run = lintFiles(['p'], { cwd: dir });
    expect(run.diagnostics).toEqual([]);
    expect(run.results.map((r) => [r.file, r.errorCount])).toEqual([
      ['p/a\\b.yaml', 0],
      ['p/c\\x1b[0m.yaml', 0],
      ['p/n\\xff.yaml', 0],
    ]);
  });
});
