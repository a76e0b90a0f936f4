import { describe, expect, it } from 'vitest';
import { codePointCount, EXCERPT_CHARS, excerpt, hasErrors, printable, sortDiagnostics, type Diagnostic } from './diagnostics.ts';

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

describe('excerpt: user text in messages', () => {
  it('keeps short text whole and shortens long text around `…`, with its length in characters', () => {
    expect(excerpt('rm -rf')).toBe('rm -rf');
    expect(excerpt('a'.repeat(EXCERPT_CHARS))).toBe('a'.repeat(EXCERPT_CHARS));
    const long = 'x'.repeat(48) + 'y'.repeat(1_000_000) + 'z'.repeat(32);
    expect(excerpt(long)).toBe(`${'x'.repeat(48)}…${'z'.repeat(32)} (1000080 characters)`);
  });
  it('never splits a surrogate pair, and counts one per code point', () => {
    const s = '😀'.repeat(100);
    const e = excerpt(s, 11);
    expect(e).toBe('😀😀😀…😀😀 (100 characters)');
    expect(codePointCount('a😀b')).toBe(3);
  });
});

describe('printable: names on a terminal', () => {
  it('escapes control, C1 and bidirectional characters, and leaves other text as it is', () => {
    expect(printable('c\x1b[31mred.yaml')).toBe('c\\x1b[31mred.yaml');
    expect(printable('a\nb\tc\rd\x7f\x85')).toBe('a\\nb\\tc\\rd\\x7f\\x85');
    expect(printable('evil\u202etxt.yaml')).toBe('evil\\u202etxt.yaml');
    expect(printable('café/a\\b.yaml')).toBe('café/a\\b.yaml');
  });
});
