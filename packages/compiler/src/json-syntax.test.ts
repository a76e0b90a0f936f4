import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkJsonSyntax } from './json-syntax.ts';

function jsonParses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

describe('checkJsonSyntax', () => {
  it('accepts every JSON text JSON.stringify writes, compact or indented', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 2, '\t'), (v, indent) => {
        expect(checkJsonSyntax(JSON.stringify(v, null, indent))).toBeUndefined();
      }),
    );
  });

  it('agrees with JSON.parse on JSON-like noise', () => {
    const unit = fc.constantFrom('{', '}', '[', ']', '"', ':', ',', ' ', '1', '-', '.', 'e', 'a', 'true', 'null', '\\', 'u', '0');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 16 }), (s) => {
        expect(checkJsonSyntax(s) === undefined).toBe(jsonParses(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('points at the first error', () => {
    expect(checkJsonSyntax('{"a": 1,}')).toEqual({ offset: 8, message: 'unexpected `}`, expected a string key' });
    expect(checkJsonSyntax('{"a": }')).toEqual({ offset: 6, message: 'unexpected `}`, expected a value' });
    expect(checkJsonSyntax('{} {}')).toEqual({ offset: 3, message: 'unexpected `{`, expected end of input' });
    expect(checkJsonSyntax('')?.message).toBe('unexpected end of input, expected a value');
    expect(checkJsonSyntax('"a\tb"')?.message).toBe('character U+0009 must be escaped inside a string');
    expect(checkJsonSyntax('01')?.offset).toBe(1);
  });

  it('refuses deep nesting without exhausting the stack', () => {
    expect(checkJsonSyntax('['.repeat(100_000))?.message).toBe('the document nests deeper than 256 levels');
  });
});
