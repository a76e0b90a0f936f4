/**
 * Suggested inline tests must paste back exactly: whatever the tool name and raw input, the
 * compiler reads the YAML form and the .verdict form back to the same call and expectation.
 */
import { compileSource } from '@verdict/compiler';
import { hasErrors } from '@verdict/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dslTest, type SuggestedTest, yamlString, yamlTest } from '../src/index.ts';

const calls = fc.record({
  call: fc.record({
    tool: fc.oneof(fc.constantFrom('bash', 'Bash', 'web_fetch', 'read', 'true', 'deny', 'my tool', 'a:b'), fc.string({ minLength: 1, maxLength: 6 })),
    input: fc.oneof(
      fc.json(),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.constantFrom('', ' {"a":1}', '{"command":"\\u0072m -rf /"}', "it's", '{"a":1,"a":2}', 'line\nbreak', '\u2028', '#x', '- x'),
    ),
  }),
  expect: fc.constantFrom('allow' as const, 'deny' as const),
});

function readBack(text: string, file: string) {
  const r = compileSource(text, file, { stopAfter: 'parse' });
  return { errors: r.diagnostics.filter((d) => d.severity === 'error'), tests: r.ir?.tests ?? [] };
}

describe('suggested tests paste back exactly', () => {
  it('YAML form', () => {
    fc.assert(
      fc.property(calls, (t: SuggestedTest) => {
        const { errors, tests } = readBack(`tests:\n  ${yamlTest(t)}\n`, 'p.yaml');
        expect(errors).toEqual([]);
        expect(tests).toHaveLength(1);
        expect({ tool: tests[0]!.tool, input: tests[0]!.input, expect: tests[0]!.expect }).toEqual({ ...t.call, expect: t.expect });
      }),
      { seed: 1, numRuns: 300 },
    );
  });
  it('.verdict form', () => {
    fc.assert(
      fc.property(calls, (t: SuggestedTest) => {
        const { errors, tests } = readBack(`${dslTest(t)}\n`, 'p.verdict');
        expect(errors).toEqual([]);
        expect(tests).toHaveLength(1);
        expect({ tool: tests[0]!.tool, input: tests[0]!.input, expect: tests[0]!.expect }).toEqual({ ...t.call, expect: t.expect });
      }),
      { seed: 1, numRuns: 300 },
    );
  });
  it('reads well: single quotes, JSON verbatim in the DSL', () => {
    const t: SuggestedTest = { call: { tool: 'bash', input: '{"command":"rm -fr /"}' }, expect: 'deny' };
    expect(yamlTest(t)).toBe(`- {tool: bash, input: '{"command":"rm -fr /"}', expect: deny}`);
    expect(dslTest(t)).toBe('test { deny bash {"command":"rm -fr /"} }');
    expect(dslTest({ call: { tool: 'bash', input: 'not json' }, expect: 'allow', name: 'raw' })).toBe('test "raw" { allow bash "not json" }');
    expect(yamlString("it's")).toBe("'it''s'");
    expect(yamlString('a\nb')).toBe('"a\\nb"');
  });
  it('no compile error hides in a read-back test', () => {
    expect(hasErrors(readBack('tests:\n  - {tool: bash, input: \'x\', expect: deny}\n', 'p.yaml').errors)).toBe(false);
  });
});
