import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { builtinDescriptors, getBuiltinDescriptor } from '@verdict/engine';
import { compileFile, compileSource, loadDescriptorFile, schemas, STAGES } from './index.ts';
import type { StageId } from './index.ts';
import { runPipeline } from './pipeline.ts';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'fixtures');
const full = 'driver: claude\npolicy: {sandbox: ""}\napprover: {mode: pattern, allow: [{tool: read}]}\n';

describe('pipeline', () => {
  it('runs the five named stages in order', () => {
    expect(STAGES.map((s) => s.id)).toEqual(['load', 'parse', 'validate', 'resolve', 'compile']);
  });

  it.each([
    ['load', { text: true, ir: false, descriptor: false, approver: false }],
    ['parse', { text: true, ir: true, descriptor: false, approver: false }],
    ['validate', { text: true, ir: true, descriptor: false, approver: false }],
    ['resolve', { text: true, ir: true, descriptor: true, approver: false }],
    ['compile', { text: true, ir: true, descriptor: true, approver: true }],
  ] as const)('honours stopAfter %s', (stage, has) => {
    const r = compileSource(full, 'p.yaml', { stopAfter: stage as StageId });
    expect(r.stoppedAfter).toBe(stage);
    expect(r.diagnostics).toEqual([]);
    expect({
      text: r.text !== undefined,
      ir: r.ir !== undefined,
      descriptor: r.descriptor !== undefined,
      approver: r.approver !== undefined,
    }).toEqual(has);
    expect(r.syntax).toBe('yaml');
  });

  it('stops after the first stage with errors', () => {
    // a schema error in validate: the unknown driver (resolve) is not looked at
    const r = compileSource('driver: nope\nmode: 1\n', 'p.yaml');
    expect(r.stoppedAfter).toBe('validate');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['schema/type']);
  });

  it('turns an exception in a stage into an internal/error diagnostic, and never allows', () => {
    const boom = { id: 'parse' as const, run: () => { throw new Error('boom'); } };
    const r = runPipeline({ file: 'x.yaml', options: {}, diagnostics: [], sourceText: 'a: 1' }, [STAGES[0]!, boom, ...STAGES.slice(2)]);
    expect(r.stoppedAfter).toBe('parse');
    expect(r.approver).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
      ['internal/error', 'error', 'internal compiler error in stage `parse`: boom'],
    ]);
  });

  it('diagnostics come sorted by position', () => {
    const r = compileSource('zz: 1\napprover: {mdoe: x}\naa: 2\n', 'p.yaml');
    expect(r.diagnostics.map((d) => d.span?.start.line)).toEqual([1, 2, 3]);
  });

  it('publishes its JSON Schemas', () => {
    expect(Object.keys(schemas).sort()).toEqual(['approver', 'descriptor', 'policy', 'policy-file', 'tests']);
    expect(schemas['policy-file']['$id']).toBe('https://verdict.dev/schemas/policy-file.schema.json');
  });
});

describe('resolve: drivers', () => {
  it('a built-in name gives the built-in descriptor', () => {
    const r = compileSource('driver: codex\n', 'p.yaml');
    expect(r.driverName).toBe('codex');
    expect(r.descriptor).toEqual(getBuiltinDescriptor('codex'));
  });

  it('an unknown name is an error at the value, with a suggestion', () => {
    const r = compileSource('driver: claud\n', 'p.yaml');
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column])).toEqual([['driver/unknown', 1, 9]]);
    expect(r.diagnostics[0]?.help).toMatch(/^did you mean `claude`\?/);
  });

  it('CompileOptions.driver overrides the file: a name, or a path relative to the working directory', () => {
    expect(compileSource('driver: claude\n', 'p.yaml', { driver: 'cursor' }).driverName).toBe('cursor');
    const path = relative(process.cwd(), join(fixtures, 'descriptors', 'claude-newer.yaml'));
    const r = compileSource('driver: codex\n', 'p.yaml', { driver: path });
    expect(r.diagnostics).toEqual([]);
    expect(r.driverName).toBe('claude');
    expect(r.descriptor?.run_policy_caps.permission.ask).toBe(true);
    const bad = compileSource('{}', 'p.yaml', { driver: 'bogus' });
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['driver/unknown']);
    expect(bad.diagnostics[0]?.span).toBeUndefined();
  });

  it('a missing descriptor file is reported at the driver value', () => {
    const r = compileSource('driver: ./nope.json\n', join(fixtures, 'p.yaml'));
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.column])).toEqual([['driver/unreadable', 9]]);
  });
});

describe('descriptor files', () => {
  it.each(Object.keys(builtinDescriptors))('fixtures/descriptors/%s.json equals the built-in', (name) => {
    const r = loadDescriptorFile(join(fixtures, 'descriptors', `${name}.json`));
    expect(r.diagnostics).toEqual([]);
    expect(r.descriptor).toEqual(getBuiltinDescriptor(name));
  });

  it('a descriptor missing half its fields gets one diagnostic per missing field, each located', () => {
    const file = join(fixtures, 'descriptors', 'broken-half.json');
    const r = loadDescriptorFile(file);
    expect(r.descriptor).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.code, d.message, d.span?.file === file, d.span?.start.line, d.span?.start.column])).toEqual([
      ['schema/missing-key', 'missing required key `structured_output`', true, 1, 1],
      ['schema/missing-key', '`run_policy_caps` is missing the required key `browser`', true, 3, 22],
      ['schema/missing-key', '`run_policy_caps` is missing the required key `plan_review`', true, 3, 22],
      ['schema/missing-key', '`run_policy_caps` is missing the required key `question`', true, 3, 22],
      ['schema/missing-key', '`permission` is missing the required key `auto_reject`', true, 6, 19],
      ['schema/missing-key', '`permission` is missing the required key `retry`', true, 6, 19],
    ]);
  });

  it('wrong types and unknown keys in a descriptor are located', () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-desc-'));
    const file = join(dir, 'd.yaml');
    const caps = '{ask: true, auto_approve: true, auto_reject: true, retry: false}';
    writeFileSync(
      file,
      `type: mine\nrun_policy_caps:\n  isolation: "yes"\n  web_search: false\n  browser: false\n  permission: ${caps}\n  plan_review: ${caps}\n  question: {ask: true, auto_reject: true, retry: false, auto_approve: true}\nstructured_output: {works_with_hitl: false}\n`,
    );
    const r = loadDescriptorFile(file);
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column])).toEqual([
      ['schema/type', 3, 14],
      ['schema/unknown-key', 8, 58],
    ]);
  });

  it('a descriptor file used by a policy reports its problems in its own file', () => {
    const r = compileFile(join(fixtures, 'compiler', 'descriptor-missing-fields.yaml'));
    const files = new Set(r.diagnostics.map((d) => d.span?.file.split('/').pop()));
    expect(files).toEqual(new Set(['descriptor-missing-fields.yaml', 'half.yaml']));
    expect(r.descriptor).toBeUndefined();
  });
});

describe('a pattern over the program size Verdict keeps (below Go)', () => {
  it('says in the diagnostic where Verdict differs from Go', () => {
    const pattern = `(?:${'a'.repeat(1500)}){1000}`;
    const r = compileSource(`approver: {mode: pattern, deny: [{match: "${pattern}"}]}\n`, 'big.yaml');
    const d = r.diagnostics.find((x) => x.code === 'regex/invalid');
    expect(d?.severity).toBe('error');
    expect(d?.help).toContain('error parsing regexp: expression too large');
    expect(d?.help).toContain("Verdict refuses regex programs over 1,398,101 instructions; Go's regexp allows up to 3,355,443");
  });
});
