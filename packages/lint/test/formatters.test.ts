import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatters } from '../src/formatters/index.ts';
import { lintSource } from '../src/runner.ts';
import { allRules } from '../src/rules/index.ts';
import { validate } from './support/mini-schema.ts';

const here = dirname(fileURLToPath(import.meta.url));
const schema = JSON.parse(readFileSync(join(here, '../../../fixtures/lint/sarif-2.1.0.schema.json'), 'utf8')) as Record<string, unknown>;

const bad = [
  'mode: pattern',
  'default: allow',
  'reason: "no"',
  'deny:',
  '  - {tool: write, match: \'"path":"/etc/|/root/\'}',
  '  # verdict-disable-next-line rules/escape-evasion -- tested elsewhere',
  '  - {tool: bash, match: "rm -rf"}',
  '',
].join('\n');
const results = [
  lintSource(bad, 'policies/bad policy.yaml'),
  lintSource('mode: [\n', 'policies/broken.yaml'),
  lintSource('mode: allow_all\n', 'policies/clean.yaml'),
];

describe('stylish', () => {
  it('prints clickable file:line:column lines, help, and a summary', () => {
    const out = formatters.stylish(results);
    expect(out).toContain('  policies/bad policy.yaml:2:10  warning  `default: allow` runs every call that no rule matches; deny rules become the only guard  approver/default-allow');
    expect(out).toMatch(/\n {6}help: prefer `default: deny`/);
    expect(out).toMatch(/policies\/broken\.yaml:\d+:\d+ {2}error/);
    expect(out).not.toContain('policies/clean.yaml');
    expect(out).toMatch(/✖ \d+ problems \(\d+ errors?, \d+ warnings?\)\n$/);
    expect(out).not.toContain('\x1b[');
  });
  it('colours only when asked', () => {
    expect(formatters.stylish(results, { color: true })).toContain('\x1b[31m');
  });
  it('prints nothing for a clean run', () => {
    expect(formatters.stylish([results[2] as (typeof results)[number]])).toBe('');
  });
  it('says how many findings `--fix` would rewrite, as ESLint does, and nothing when none', () => {
    const fixable = lintSource("mode: pattern\ndeny:\n  - {tool: bash, match: '^sudo '}\n  - {tool: bash, match: 'rm\\\\s'}\n", 'p.yaml', {
      config: { rules: { 'regex/yaml-escape': { severity: 'info' } }, categories: {}, include: [], ignore: [] },
    });
    expect(formatters.stylish([fixable])).toMatch(/\n {2}1 error, 0 warnings and 1 info potentially fixable with the `--fix` option\n$/);
    expect(formatters.stylish(results)).not.toContain('fixable');
  });
});

describe('json', () => {
  it('round-trips findings with positions and counts', () => {
    const parsed = JSON.parse(formatters.json(results)) as { file: string; errorCount: number; messages: { ruleId: string; line: number; column: number }[] }[];
    expect(parsed.map((r) => r.file)).toEqual(['policies/bad policy.yaml', 'policies/broken.yaml', 'policies/clean.yaml']);
    expect(parsed[0]?.messages.find((m) => m.ruleId === 'regex/mixed-alternation')).toMatchObject({ line: 5, column: 26 });
    expect(parsed[1]?.errorCount).toBeGreaterThan(0);
  });
});

describe('github', () => {
  it('writes one escaped workflow command per finding', () => {
    const out = formatters.github(results);
    const line = out.split('\n').find((l) => l.includes('approver/default-allow'));
    expect(line).toBe(
      '::warning file=policies/bad policy.yaml,line=2,col=10,endLine=2,endColumn=15,title=approver/default-allow::`default: allow` runs every call that no rule matches; deny rules become the only guard%0Aprefer `default: deny` and allow what the agent needs; keep `default: allow` for a locked-down container where the container is the boundary',
    );
    expect(out).toMatch(/^::error file=policies\/broken\.yaml,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=yaml\/syntax::/m);
  });
  it('escapes property separators', () => {
    const r = lintSource('mode: deny_all\n', 'a,b:c.yaml');
    expect(formatters.github([r])).toContain('file=a%2Cb%3Ac.yaml,');
  });
});

describe('junit', () => {
  it('is one suite per file, one failure per finding, escaped', () => {
    const out = formatters.junit(results);
    expect(out.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<testsuites name="verdict lint"')).toBe(true);
    expect(out).toContain('<testsuite name="policies/clean.yaml" tests="1" failures="0" errors="0">');
    expect(out).toContain('classname="verdict.lint.approver/default-allow"');
    expect(out).toContain('&quot;path&quot;');
    expect(out).not.toMatch(/<failure[^>]*"path"/);
    expect((out.match(/<failure /g) ?? []).length).toBe(results.reduce((n, r) => n + r.messages.length, 0));
  });
});

describe('sarif', () => {
  const log = JSON.parse(formatters.sarif(results, { cwd: '/repo' })) as {
    runs: { tool: { driver: { rules: { id: string; helpUri: string }[] } }; results: Record<string, unknown>[] }[];
  };
  it('is valid against the SARIF 2.1.0 schema, even with a file that fails to parse', () => {
    expect(validate(schema, log)).toEqual([]);
  });
  it('the checker itself rejects broken logs', () => {
    const broken = JSON.parse(JSON.stringify(log)) as { runs: { results: Record<string, unknown>[] }[] };
    const r0 = broken.runs[0]?.results[0] as Record<string, unknown>;
    r0.level = 'fatal';
    (r0 as { locations: { physicalLocation: { region: { startLine: number } } }[] }).locations[0]!.physicalLocation.region.startLine = 0;
    r0.extra = 1;
    expect(validate(schema, broken)).toEqual([
      '/runs/0/results/0/level: "fatal" not in enum',
      '/runs/0/results/0/locations/0/physicalLocation/region/startLine: 0 < 1',
      '/runs/0/results/0: unexpected property extra',
    ]);
  });
  it('lists every rule with a docs link, and the compiler codes that occur', () => {
    const rules = log.runs[0]?.tool.driver.rules ?? [];
    for (const r of allRules) expect(rules.find((x) => x.id === r.id)?.helpUri).toMatch(/^https:\/\/.*\/docs\/rules\/[a-z0-9-]+\.md$/);
    expect(rules.some((x) => x.id === 'yaml/syntax')).toBe(true);
    for (const res of log.runs[0]?.results ?? []) expect(rules[res.ruleIndex as number]?.id).toBe(res.ruleId);
  });
  it('keeps suppressed findings as inSource suppressions', () => {
    const sup = (log.runs[0]?.results ?? []).filter((r) => r.suppressions !== undefined);
    expect(sup.map((r) => r.ruleId)).toEqual(['rules/escape-evasion']);
  });
  it('fingerprints are stable when unrelated lines move', () => {
    const fp = (src: string) =>
      lintSource(src, 'p.yaml')
        .messages.filter((m) => m.ruleId === 'regex/mixed-alternation')
        .map((m) => m.fingerprint);
    const a = fp(bad);
    const b = fp(`# a comment\n\n${bad}`);
    expect(a).toHaveLength(1);
    expect(b).toEqual(a);
    expect(fp(bad.replace('/root/', '/var/'))).not.toEqual(a);
  });
  it('encodes relative paths as URIs against %SRCROOT%', () => {
    const res = log.runs[0]?.results[0] as { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string } } }[] };
    expect(res.locations[0]?.physicalLocation.artifactLocation).toMatchObject({ uri: 'policies/bad%20policy.yaml', uriBaseId: '%SRCROOT%' });
  });
});
