import { describe, expect, it } from 'vitest';
import { parseLintConfig } from '../src/config.ts';
import { allRules } from '../src/rules/index.ts';
import { globToRegExp, matchesAny } from '../src/support/glob.ts';

const ids = allRules.map((r) => r.id);

describe('parseLintConfig', () => {
  it('reads the agent whose hook runs the policies, and refuses an unknown one', () => {
    expect(parseLintConfig('hook-agent: gemini\n', 'verdict.config.yaml', ids).config.hookAgent).toBe('gemini');
    const bad = parseLintConfig('hook-agent: vim\n', 'verdict.config.yaml', ids);
    expect(bad.config.hookAgent).toBeUndefined();
    expect(bad.diagnostics.map((d) => [d.code, d.message, d.span?.start.line, d.span?.start.column])).toEqual([
      ['lint/config-invalid', '`hook-agent` must be one of claude, codex, gemini, cursor', 1, 13],
    ]);
  });

  it('reads severities, options, globs and the driver', () => {
    const { config, diagnostics } = parseLintConfig(
      [
        'driver: codex',
        'include: "policies/**"',
        'ignore: ["**/tmp/**"]',
        'categories: {regex: error, policy: off}',
        'rules:',
        '  rules/missing-tool: [warning, {lists: [allow, deny]}]',
        '  approver/reason: {severity: info, options: {minLength: 5}}',
        '  schema/unknown-key: error',
      ].join('\n'),
      'verdict.config.yaml',
      ids,
    );
    expect(diagnostics).toEqual([]);
    expect(config).toMatchObject({
      driver: 'codex',
      include: ['policies/**'],
      ignore: ['**/tmp/**'],
      categories: { regex: 'error', policy: 'off' },
      rules: {
        'rules/missing-tool': { severity: 'warning', options: { lists: ['allow', 'deny'] } },
        'approver/reason': { severity: 'info', options: { minLength: 5 } },
        'schema/unknown-key': { severity: 'error' },
      },
    });
  });
  it('reports mistakes with positions and a did-you-mean', () => {
    const { diagnostics } = parseLintConfig(
      ['rules:', '  regex/invalidd: error', '  rules/duplicate: loud', 'categories: {style: error}', 'extends: x'].join('\n'),
      'c.yaml',
      ids,
    );
    expect(diagnostics.map((d) => [d.code, d.severity, d.message, d.help, d.span?.start.line, d.span?.start.column])).toEqual([
      ['lint/config-unknown-rule', 'warning', 'unknown rule `regex/invalidd`', 'did you mean `regex/invalid`?', 2, 3],
      ['lint/config-invalid', 'error', 'invalid setting for rule `rules/duplicate`', 'use a severity (off, info, warning, error), `[severity, {options}]` or `{severity, options}`', 3, 20],
      ['lint/config-invalid', 'error', 'unknown category `style`', 'categories are compiler, regex, rules, approver, policy, hook, tests, analysis, lint', 4, 14],
      ['lint/config-invalid', 'error', 'unknown configuration key `extends`', 'keys are driver, hook-agent, include, ignore, categories and rules', 5, 1],
    ]);
  });
  it('reports invalid YAML and never throws', () => {
    expect(parseLintConfig('rules: [', 'c.yaml').diagnostics[0]?.code).toBe('lint/config-invalid');
    expect(parseLintConfig('', 'c.yaml').diagnostics).toEqual([]);
    expect(parseLintConfig('- a', 'c.yaml').diagnostics[0]?.message).toBe('the configuration must be a mapping');
  });
});

describe('globs', () => {
  const cases: [string, string, boolean][] = [
    ['policies/**', 'policies/a/b.yaml', true],
    ['policies/**', 'other/a.yaml', false],
    ['**/generated/**', 'x/generated/y.yaml', true],
    ['**/generated/**', 'generated/y.yaml', true],
    ['*.json', 'deep/a.json', true],
    ['*.json', 'a.yaml', false],
    ['policies/*.yaml', 'policies/a/b.yaml', false],
    ['policies/*.{yaml,yml}', 'policies/a.yml', true],
    ['p?.yaml', 'p1.yaml', true],
    ['fixtures/', 'fixtures/x/y.json', true],
  ];
  for (const [glob, path, expected] of cases) {
    it(`${glob} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
      expect(matchesAny(path, [globToRegExp(glob)])).toBe(expected);
    });
  }
});
