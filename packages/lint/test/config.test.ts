import { describe, expect, it } from 'vitest';
import { parseLintConfig } from '../src/config.ts';
import { allRules } from '../src/rules/index.ts';

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
      ['lint/config-invalid', 'error', 'unknown category `style`', 'categories are compiler, regex, rules, approver, policy, hook, tests, analysis, lint, native', 4, 14],
      ['lint/config-invalid', 'error', 'unknown configuration key `extends`', 'keys are driver, hook-agent, include, ignore, categories and rules', 5, 1],
    ]);
  });
  it('reports invalid YAML and never throws', () => {
    expect(parseLintConfig('rules: [', 'c.yaml').diagnostics[0]?.code).toBe('lint/config-invalid');
    expect(parseLintConfig('', 'c.yaml').diagnostics).toEqual([]);
    expect(parseLintConfig('- a', 'c.yaml').diagnostics[0]?.message).toBe('the configuration must be a mapping');
  });
});

describe('configuration problems are located', () => {
  it('an invalid glob in `include` or `ignore` is a config error at its line and column, and is left out', () => {
    const r = parseLintConfig(['include:', '  - "policies/**"', '  - "policies/[a"', 'ignore: ["{x,y", "ok/"]'].join('\n'), 'verdict.config.yaml', ids);
    expect(r.diagnostics.map((d) => [d.code, d.message, d.span?.file, d.span?.start.line, d.span?.start.column])).toEqual([
      ['lint/config-invalid', 'invalid glob `policies/[a` in `include`: missing closing `]` (a literal one is written `\\]`)', 'verdict.config.yaml', 3, 5],
      ['lint/config-invalid', 'invalid glob `{x,y` in `ignore`: missing closing `}` (a literal one is written `\\}`)', 'verdict.config.yaml', 4, 10],
    ]);
    expect(r.config.include).toEqual(['policies/**']);
    expect(r.config.ignore).toEqual(['ok/']);
  });

  it('a glob holding a lookahead is refused, located, not an internal error', () => {
    const r = parseLintConfig('ignore: ["a(?=b)"]\n', 'c.yaml', ids);
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column])).toEqual([['lint/config-invalid', 1, 10]]);
  });

  it('a repeated key is diagnosed as in policy files (yaml/duplicate-key, at the second key)', () => {
    const r = parseLintConfig(['rules:', '  regex/invalid: off', 'categories: {regex: error}', 'rules:', '  regex/invalid: error'].join('\n'), 'c.yaml', ids);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.message, d.span?.start.line, d.span?.start.column])).toEqual([
      ['yaml/duplicate-key', 'error', 'duplicate key `rules`', 4, 1],
    ]);
    const nested = parseLintConfig(['rules:', '  regex/invalid: off', '  regex/invalid: error'].join('\n'), 'c.yaml', ids);
    expect(nested.diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column])).toEqual([['yaml/duplicate-key', 3, 3]]);
  });
});
