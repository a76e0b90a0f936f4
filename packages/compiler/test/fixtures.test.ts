/**
 * The compiler's case files: every `fixtures/compiler/<name>.{yaml,json}` compiles to exactly the
 * diagnostics of `<name>.expected.json` (code, severity, line, column; `file` when the diagnostic
 * is in another file, such as a descriptor). `<name>.options.json` holds compile options.
 * `UPDATE_FIXTURES=1` rewrites the expectations (review the diff).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileFile } from '../src/index.ts';
import type { CompileOptions } from '../src/index.ts';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'fixtures', 'compiler');
const cases = readdirSync(dir)
  .filter((f) => /\.(ya?ml|json)$/.test(f) && !/\.(expected|options)\.json$/.test(f))
  .sort();

interface Expected {
  code: string;
  severity: string;
  line: number;
  column: number;
  file?: string;
}

describe('fixtures/compiler', () => {
  it('has the case files', () => {
    expect(cases.length).toBeGreaterThan(40);
  });
  for (const name of cases) {
    it(name, () => {
      const base = name.replace(/\.(ya?ml|json)$/, '');
      const file = join(dir, name);
      const optionsFile = join(dir, `${base}.options.json`);
      const options = existsSync(optionsFile) ? (JSON.parse(readFileSync(optionsFile, 'utf8')) as CompileOptions) : {};
      const result = compileFile(file, options);
      const actual: Expected[] = result.diagnostics.map((d) => {
        const e: Expected = {
          code: d.code,
          severity: d.severity,
          line: d.span?.start.line ?? 0,
          column: d.span?.start.column ?? 0,
        };
        if (d.span && d.span.file !== file) e.file = relative(dir, d.span.file);
        return e;
      });
      const expectedFile = join(dir, `${base}.expected.json`);
      if (process.env['UPDATE_FIXTURES'] === '1') {
        writeFileSync(expectedFile, JSON.stringify(actual, null, 2).replace(/\{\n\s+/g, '{ ').replace(/,\n\s+(?=")/g, ', ').replace(/\n\s+\}/g, ' }') + '\n');
      }
      const expected = JSON.parse(readFileSync(expectedFile, 'utf8')) as Expected[];
      expect(actual).toEqual(expected);
      // Every diagnostic obeys the message style: one lowercase sentence, no final period.
      for (const d of result.diagnostics) {
        expect(d.message).not.toMatch(/\.$/);
        expect(d.message.charAt(0)).toBe(d.message.charAt(0).toLowerCase());
      }
    });
  }
});
