/**
 * The SARIF formatter against the official SARIF 2.1.0 JSON Schema (draft-04, as published by
 * OASIS/SchemaStore; shipped in the npm package @microsoft/jest-sarif), validated with ajv.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ajvDraft04 from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { formatters } from '../src/formatters/index.ts';
import { lintSource } from '../src/runner.ts';

const require = createRequire(import.meta.url);
const schemaPath = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown>;
// A CommonJS module: its default export is on `.default` under NodeNext.
const Ajv04 = ajvDraft04.default;
// The published schema has a language-tag pattern that is not valid with the `u` flag.
const ajv = new Ajv04({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false });
const validate = ajv.compile(schema);

const errorsOf = (log: unknown): string[] =>
  validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);

const results = [
  lintSource(
    [
      'mode: pattern',
      'default: allow',
      'deny:',
      '  - {tool: write, match: \'"path":"/etc/|/root/\'}',
      '  # verdict-disable-next-line rules/escape-evasion -- tested elsewhere',
      '  - {tool: bash, match: "rm -rf"}',
      '  - {tool: bash, match: "(?=x)"}',
      "  - {tool: bash, match: '^sudo '}",
      '',
    ].join('\n'),
    'policies/bad policy.yaml',
  ),
  lintSource('mode: [\n', 'policies/broken.yaml'),
  lintSource('approver {\n  alow bash /x/\n}\n', 'policies/broken.verdict'),
  lintSource('mode: allow_all\n', 'policies/clean.yaml'),
];

describe('sarif against the official SARIF 2.1.0 schema', () => {
  it('is valid for findings, suppressions and files that fail to parse', () => {
    const log = JSON.parse(formatters.sarif(results, { cwd: '/repo' })) as { runs: { results: unknown[] }[] };
    expect(log.runs[0]!.results.length).toBeGreaterThan(3);
    expect(errorsOf(log)).toEqual([]);
  });

  it('carries a fix as SARIF `fixes` (a replacement of UTF-16 offsets), and is still valid', () => {
    const log = JSON.parse(formatters.sarif(results, { cwd: '/repo' })) as {
      runs: { results: { ruleId: string; fixes?: { artifactChanges: { replacements: unknown[] }[] }[] }[] }[];
    };
    const anchor = log.runs[0]!.results.find((r) => r.ruleId === 'regex/impossible-anchor');
    const text = results[0]!.messages.find((m) => m.ruleId === 'regex/impossible-anchor')!;
    expect(anchor?.fixes?.[0]?.artifactChanges[0]?.replacements).toEqual([
      { deletedRegion: { charOffset: text.fix!.range[0], charLength: 1 }, insertedContent: { text: '' } },
    ]);
    expect(errorsOf(log)).toEqual([]);
  });

  it('is valid for a clean run with no results', () => {
    expect(errorsOf(JSON.parse(formatters.sarif([results[3]!], { cwd: '/repo' })))).toEqual([]);
  });

  it('the schema check rejects a broken log (it can fail)', () => {
    const log = JSON.parse(formatters.sarif(results, { cwd: '/repo' })) as { version: string; runs: { results: Record<string, unknown>[] }[] };
    log.runs[0]!.results[0]!['level'] = 'fatal';
    expect(errorsOf(log).length).toBeGreaterThan(0);
    expect(errorsOf({ ...log, version: '2.0.0' }).length).toBeGreaterThan(0);
  });
});
