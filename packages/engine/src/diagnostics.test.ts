import { describe, expect, it } from 'vitest';
import { hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics.ts';

const at = (file: string, offset: number) => ({
  file,
  start: { offset, line: 1, column: offset + 1 },
  end: { offset: offset + 1, line: 1, column: offset + 2 },
});

describe('diagnostics', () => {
  it('sorts by file then offset', () => {
    const ds: Diagnostic[] = [
      { code: 'b', severity: 'error', message: 'x', span: at('b.yaml', 0) },
      { code: 'a', severity: 'warning', message: 'y', span: at('a.yaml', 5) },
      { code: 'c', severity: 'info', message: 'z', span: at('a.yaml', 1) },
    ];
    expect(sortDiagnostics(ds).map((d) => d.code)).toEqual(['c', 'a', 'b']);
  });
  it('only errors count as errors', () => {
    expect(hasErrors([{ code: 'w', severity: 'warning', message: 'w' }])).toBe(false);
    expect(hasErrors([{ code: 'e', severity: 'error', message: 'e' }])).toBe(true);
  });
});
