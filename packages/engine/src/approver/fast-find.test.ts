import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { find, needle } from './fast-find.ts';

const UNITS = ['a', 'z', 'Z', '"', ' ', 'e', '/', 'q', '😀', 'é', '\ufffd'];
const str = (max: number) => fc.array(fc.constantFrom(...UNITS), { maxLength: max }).map((xs) => xs.join(''));

describe('find', () => {
  it('finds what indexOf finds, from any start', () => {
    fc.assert(
      fc.property(str(5), str(30), fc.nat(32), (n, text, from) => {
        expect(find(text, needle(n), from)).toBe(text.indexOf(n, from));
      }),
      { numRuns: 3000 },
    );
  });

  it('searches from the rarest character', () => {
    const n = needle('"file_path":"/etc/');
    expect(n.suffix).toBe('file_path":"/etc/');
    expect(find('{"file_path":"/etc/x","file_path":"/etc/"}', n, 2)).toBe(22);
    expect(find('{"file_path":"/etc/x","file_path":"/etc/"}', n, 23)).toBe(-1);
  });
});
