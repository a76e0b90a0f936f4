import { describe, expect, it } from 'vitest';
import { orbit, tableOrbit } from './unicode.ts';

describe('orbit of an ASCII code point', () => {
  it('is the orbit the full case-folding table gives, for every ASCII code point', () => {
    for (let cp = 0; cp < 0x80; cp++) expect([cp, orbit(cp)]).toEqual([cp, tableOrbit(cp)]);
  });

  it('holds the letters outside ASCII that fold to k and s', () => {
    expect(orbit(0x6b)).toEqual([0x4b, 0x6b, 0x212a]);
    expect(orbit(0x53)).toEqual([0x53, 0x73, 0x17f]);
  });
});
