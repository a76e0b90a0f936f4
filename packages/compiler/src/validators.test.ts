import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateValidatorsSource, getValidators } from './schemas.ts';

const generatedFile = new URL('./generated/validators.ts', import.meta.url);

describe('pre-generated validators', () => {
  it('generated/validators.ts is up to date with schemas/*.json', () => {
    const fresh = generateValidatorsSource();
    if (process.env['UPDATE_FIXTURES'] === '1') writeFileSync(generatedFile, fresh);
    expect(readFileSync(generatedFile, 'utf8')).toBe(fresh);
  });

  it('judges like the schemas compiled at run time', () => {
    const pre = getValidators();
    const rt = getValidators({ compile: true });
    const strip = (errs: typeof pre.file.errors) =>
      (errs ?? []).map((e) => ({ keyword: e.keyword, instancePath: e.instancePath, params: e.params }));
    const value = fc.oneof(fc.constantFrom('pattern', 'deny', 1, true, null, [], {}), fc.jsonValue({ maxDepth: 2 }));
    const doc = fc.dictionary(
      fc.constantFrom('approver', 'policy', 'tests', 'driver', 'mode', 'allow', 'agent', 'x', 'type', 'run_policy_caps'),
      fc.oneof(value, fc.dictionary(fc.constantFrom('mode', 'default', 'allow', 'approvals', 'timeout', 'tool', 'isolation'), value)),
    );
    fc.assert(
      fc.property(doc, (d) => {
        for (const k of ['file', 'agentFile', 'descriptor'] as const) {
          expect(pre[k](d)).toBe(rt[k](d));
          expect(strip(pre[k].errors)).toEqual(strip(rt[k].errors));
        }
      }),
      { numRuns: 300 },
    );
  });
});
