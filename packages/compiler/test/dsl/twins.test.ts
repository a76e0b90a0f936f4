/** Every policy in fixtures/policies exists in both syntaxes, and the two compile to the same IR. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileFile, formatVerdictSource } from '../../src/index.ts';
import { FIXTURES, listFiles, read, stripIR } from './helpers.ts';

const DIR = join(FIXTURES, 'policies');
const sources = listFiles(DIR, '').filter((f) => /\.(ya?ml|json)$/.test(f));

describe('fixtures/policies: YAML/JSON and .verdict twins', () => {
  it('has policies to compare', () => {
    expect(sources.length).toBeGreaterThan(5);
  });

  for (const name of sources) {
    const twin = name.replace(/\.(ya?ml|json)$/, '.verdict');
    it(`${name} ≡ ${twin}`, () => {
      expect(existsSync(join(DIR, twin)), `${twin} is missing`).toBe(true);
      const a = compileFile(join(DIR, name));
      const b = compileFile(join(DIR, twin));
      expect(b.syntax).toBe('verdict');
      expect(a.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(b.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(stripIR(b.ir)).toEqual(stripIR(a.ir));
      // Both ran every stage to the same end: same driver, same run Policy.
      expect(b.stoppedAfter).toBe(a.stoppedAfter);
      expect(b.driverName).toBe(a.driverName);
      expect(b.policy).toEqual(a.policy);
      expect(b.diagnostics.map((d) => d.code)).toEqual(a.diagnostics.map((d) => d.code));
    });

    it(`${twin} is in canonical layout`, () => {
      const text = read(join(DIR, twin));
      expect(formatVerdictSource(text, twin).text).toBe(text);
    });
  }
});
