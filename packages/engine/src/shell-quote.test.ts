import { describe, expect, it } from 'vitest';
import { shellQuote, shellWord } from './shell-quote.ts';

describe('the one shell quoter', () => {
  it('writes plain words bare and everything else in single quotes', () => {
    expect(shellWord('git')).toBe('git');
    expect(shellWord('/usr/bin/x-y_z.sh')).toBe('/usr/bin/x-y_z.sh');
    expect(shellWord('')).toBe("''");
    expect(shellWord('a b')).toBe("'a b'");
    expect(shellWord('$HOME')).toBe("'$HOME'");
    expect(shellWord('~')).toBe("'~'");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
  });

  it('quotes always when asked to, a quote inside closed and reopened', () => {
    expect(shellQuote('ls')).toBe("'ls'");
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });
});
