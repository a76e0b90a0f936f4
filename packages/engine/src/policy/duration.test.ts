import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatGoDuration, HOUR, MICROSECOND, MILLISECOND, MINUTE, parseGoDuration, SECOND } from './duration.ts';

const MAX = (1n << 63n) - 1n;
const MIN = -(1n << 63n);

// Expected values follow Go's time.ParseDuration (src/time/format.go and its time_test.go table).
const valid: [string, bigint][] = [
  ['0', 0n],
  ['-0', 0n],
  ['+0', 0n],
  ['5s', 5n * SECOND],
  ['30s', 30n * SECOND],
  ['1478s', 1478n * SECOND],
  ['-5s', -5n * SECOND],
  ['+5s', 5n * SECOND],
  ['-0s', 0n],
  ['+0s', 0n],
  ['5.0s', 5n * SECOND],
  ['5.6s', 5n * SECOND + 600n * MILLISECOND],
  ['5.s', 5n * SECOND],
  ['1.s', SECOND],
  ['.5s', 500n * MILLISECOND],
  ['1.0s', SECOND],
  ['1.00s', SECOND],
  ['1.004s', SECOND + 4n * MILLISECOND],
  ['1.0040s', SECOND + 4n * MILLISECOND],
  ['100.00100s', 100n * SECOND + MILLISECOND],
  ['10ns', 10n],
  ['11us', 11n * MICROSECOND],
  ['12\u00b5s', 12n * MICROSECOND],
  ['12\u03bcs', 12n * MICROSECOND],
  ['13ms', 13n * MILLISECOND],
  ['14s', 14n * SECOND],
  ['15m', 15n * MINUTE],
  ['16h', 16n * HOUR],
  ['1.5h', HOUR + 30n * MINUTE],
  ['3h30m', 3n * HOUR + 30n * MINUTE],
  ['10.5s4m', 4n * MINUTE + 10n * SECOND + 500n * MILLISECOND],
  ['-2m3.4s', -(2n * MINUTE + 3n * SECOND + 400n * MILLISECOND)],
  ['1h2m3s4ms5us6ns', HOUR + 2n * MINUTE + 3n * SECOND + 4n * MILLISECOND + 5n * MICROSECOND + 6n],
  ['1h2m3.5s', HOUR + 2n * MINUTE + 3n * SECOND + 500n * MILLISECOND],
  ['39h9m14.425s', 39n * HOUR + 9n * MINUTE + 14n * SECOND + 425n * MILLISECOND],
  ['52763797000ns', 52763797000n],
  ['0.3333333333333333333h', 20n * MINUTE],
  ['9007199254740993ns', (1n << 53n) + 1n],
  ['9223372036854775807ns', MAX],
  ['9223372036854775.807us', MAX],
  ['9223372036s854ms775us807ns', MAX],
  ['-9223372036854775808ns', MIN],
  ['-9223372036854775.808us', MIN],
  ['-9223372036s854ms775us808ns', MIN],
  ['-2562047h47m16.854775808s', MIN],
  ['2562047h47m16.854775807s', MAX],
  ['0.100000000000000000000h', 6n * MINUTE],
  ['0.830103483285477580700h', 49n * MINUTE + 48n * SECOND + 372539827n],
  // Go's uint64 sum wraps at exactly 2^64 and then passes its overflow check
  ['9223372036854775808ns9223372036854775808ns', 0n],
];

const invalid: [string, string][] = [
  ['', 'time: invalid duration ""'],
  ['3', 'time: missing unit in duration "3"'],
  ['30', 'time: missing unit in duration "30"'],
  ['00', 'time: missing unit in duration "00"'],
  ['-', 'time: invalid duration "-"'],
  ['s', 'time: invalid duration "s"'],
  ['.', 'time: invalid duration "."'],
  ['-.', 'time: invalid duration "-."'],
  ['.s', 'time: invalid duration ".s"'],
  ['+.s', 'time: invalid duration "+.s"'],
  ['--1s', 'time: invalid duration "--1s"'],
  ['+-1s', 'time: invalid duration "+-1s"'],
  ['1.5.s', 'time: missing unit in duration "1.5.s"'],
  ['1d', 'time: unknown unit "d" in duration "1d"'],
  ['1e3s', 'time: unknown unit "e" in duration "1e3s"'],
  ['3000000h', 'time: invalid duration "3000000h"'],
  ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
  ['9223372036854775.808us', 'time: invalid duration "9223372036854775.808us"'],
  ['9223372036854ms775us808ns', 'time: invalid duration "9223372036854ms775us808ns"'],
  ['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'],
  ['2562047h47m16.854775808s', 'time: invalid duration "2562047h47m16.854775808s"'],
  ['99999999999999999999s', 'time: invalid duration "99999999999999999999s"'],
  [' 1s', 'time: invalid duration " 1s"'],
  ['1s ', 'time: unknown unit "s " in duration "1s "'],
  ['1 s', 'time: unknown unit " s" in duration "1 s"'],
  ['1S', 'time: unknown unit "S" in duration "1S"'],
  ['3\u00b5m', 'time: unknown unit "\\xc2\\xb5m" in duration "3\\xc2\\xb5m"'],
  ['1x"\\', 'time: unknown unit "x\\"\\\\" in duration "1x\\"\\\\"'],
  ['1\n', 'time: unknown unit "\\x0a" in duration "1\\x0a"'],
  ['1\ud800', 'time: unknown unit "\\xed\\xa0\\x80" in duration "1\\xed\\xa0\\x80"'],
];

describe('parseGoDuration', () => {
  it.each(valid)('%j parses to %s ns', (text, ns) => {
    expect(parseGoDuration(text)).toEqual({ ok: true, ns });
  });

  it.each(invalid)('%j fails with Go text', (text, error) => {
    expect(parseGoDuration(text)).toEqual({ ok: false, error });
  });
});

const formatted: [bigint, string][] = [
  [0n, '0s'],
  [1n, '1ns'],
  [1100n, '1.1\u00b5s'],
  [1500n, '1.5\u00b5s'],
  [2200n * MICROSECOND, '2.2ms'],
  [30n * SECOND, '30s'],
  [90n * SECOND, '1m30s'],
  [-5n * SECOND, '-5s'],
  [3n * MINUTE + 3n * SECOND + 500n * MILLISECOND, '3m3.5s'],
  [HOUR, '1h0m0s'],
  [HOUR + 2n * MINUTE + 3n * SECOND + 500n * MILLISECOND, '1h2m3.5s'],
  [4n * MINUTE + 5n * SECOND + 1n, '4m5.000000001s'],
  [5n * HOUR + 6n * MINUTE + 7n * SECOND + 1n, '5h6m7.000000001s'],
  [8n * MINUTE + 1n, '8m0.000000001s'],
  [MAX, '2562047h47m16.854775807s'],
  [MIN, '-2562047h47m16.854775808s'],
  [-1n, '-1ns'],
  [-999n, '-999ns'],
  [-MILLISECOND, '-1ms'],
];

describe('formatGoDuration', () => {
  it.each(formatted)('%s ns prints %s', (ns, text) => {
    expect(formatGoDuration(ns)).toBe(text);
  });

  it('wraps values outside int64 like a Go conversion', () => {
    expect(formatGoDuration(1n << 63n)).toBe('-2562047h47m16.854775808s');
    expect(formatGoDuration(1n << 64n)).toBe('0s');
  });
});

describe('duration properties', () => {
  const int64 = fc.bigInt({ min: MIN, max: MAX });

  it('parse(format(d)) === d for every int64', () => {
    fc.assert(
      fc.property(int64, (ns) => {
        expect(parseGoDuration(formatGoDuration(ns))).toEqual({ ok: true, ns });
      }),
      { numRuns: 3000 },
    );
  });

  it('format(parse(s)) is a fixed point for any accepted text', () => {
    const text = fc.stringMatching(/^[-+]?([0-9]{0,4}(\.[0-9]{0,4})?(ns|us|µs|ms|s|m|h|d|)){1,3}$/);
    fc.assert(
      fc.property(text, (s) => {
        const parsed = parseGoDuration(s);
        if (!parsed.ok) {
          expect(parsed.error).toMatch(/^time: (invalid duration|missing unit in duration|unknown unit) /);
          return;
        }
        const again = parseGoDuration(formatGoDuration(parsed.ns));
        expect(again).toEqual({ ok: true, ns: parsed.ns });
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const r = parseGoDuration(s);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
  });
});
