/**
 * Golden files in fixtures/dsl: source → diagnostics, source → formatted text, YAML ↔ verdict.
 * `UPDATE_GOLDEN=1 pnpm vitest run packages/compiler/test/dsl` rewrites the expectations (review the diff).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSource, formatVerdictSource, parseVerdictSource, printVerdict, printYaml } from '../../src/index.ts';
import { FIXTURES, golden, listFiles, read, showDiagnostics, stripIR } from './helpers.ts';

const DSL = join(FIXTURES, 'dsl');

describe('golden: source → diagnostics', () => {
  const dir = join(DSL, 'errors');
  for (const name of listFiles(dir, '.verdict')) {
    it(name, () => {
      const text = read(join(dir, name));
      const result = parseVerdictSource(text, `fixtures/dsl/errors/${name}`);
      expect(result.ir).toBeUndefined();
      const actual = JSON.stringify(showDiagnostics(result.diagnostics), null, 2) + '\n';
      expect(actual).toBe(golden(join(dir, name.replace(/\.verdict$/, '.expected.json')), actual));
    });
  }
});

describe('golden: source → formatted text', () => {
  const dir = join(DSL, 'format');
  for (const name of listFiles(dir, '.verdict').filter((n) => !n.endsWith('.formatted.verdict'))) {
    it(name, () => {
      const text = read(join(dir, name));
      const formatted = formatVerdictSource(text, name);
      expect(formatted.diagnostics).toEqual([]);
      const out = formatted.text!;
      expect(out).toBe(golden(join(dir, name.replace(/\.verdict$/, '.formatted.verdict')), out));
      // Formatting a formatted file changes nothing, and formatting never changes the IR.
      expect(formatVerdictSource(out, name).text).toBe(out);
      expect(stripIR(parseVerdictSource(out, name).ir)).toEqual(stripIR(parseVerdictSource(text, name).ir));
    });
  }
});

describe('golden: YAML ↔ verdict', () => {
  const dir = join(DSL, 'convert');
  for (const name of listFiles(dir, '.yaml')) {
    it(name, () => {
      const yamlText = read(join(dir, name));
      const fromYaml = compileSource(yamlText, name, { stopAfter: 'parse' });
      expect(fromYaml.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const verdict = printVerdict(fromYaml.ir!);
      expect(verdict).toBe(golden(join(dir, name.replace(/\.yaml$/, '.verdict')), verdict));
      // YAML → verdict → IR: the same IR.
      const fromVerdict = parseVerdictSource(verdict, name.replace(/\.yaml$/, '.verdict'));
      expect(fromVerdict.diagnostics).toEqual([]);
      expect(stripIR(fromVerdict.ir)).toEqual(stripIR(fromYaml.ir));
      // verdict → YAML → IR: the same IR again.
      const yamlAgain = printYaml(fromVerdict.ir!);
      const back = compileSource(yamlAgain, 'again.yaml', { stopAfter: 'parse' });
      expect(back.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(stripIR(back.ir)).toEqual(stripIR(fromYaml.ir));
    });
  }
});
