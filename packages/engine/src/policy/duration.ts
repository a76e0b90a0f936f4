/**
 * Go's `time.ParseDuration` and `Duration.String()`, on bigint nanoseconds.
 *
 * Follows `src/time/format.go` step by step, including its unsigned 64-bit arithmetic: a sum
 * that reaches exactly 2^64 wraps to 0 there, and does here. Every byte Go tests is ASCII and
 * UTF-8 never puts an ASCII byte inside a multi-byte character, so scanning UTF-16 code units
 * finds the same boundaries as Go's byte scan.
 */
import { quoteGoTime } from './goquote.ts';

export type ParseDurationResult = { ok: true; ns: bigint } | { ok: false; error: string };

const TWO_63 = 1n << 63n;
const TWO_64 = 1n << 64n;
const MAX_INT64 = TWO_63 - 1n;

export const NANOSECOND = 1n;
export const MICROSECOND = 1000n * NANOSECOND;
export const MILLISECOND = 1000n * MICROSECOND;
export const SECOND = 1000n * MILLISECOND;
export const MINUTE = 60n * SECOND;
export const HOUR = 60n * MINUTE;

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', NANOSECOND],
  ['us', MICROSECOND],
  ['\u00b5s', MICROSECOND], // micro sign
  ['\u03bcs', MICROSECOND], // Greek small letter mu
  ['ms', MILLISECOND],
  ['s', SECOND],
  ['m', MINUTE],
  ['h', HOUR],
]);

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** Go's `leadingInt`: the leading `[0-9]*`, or null on overflow past 2^63. */
function leadingInt(s: string): { x: bigint; rest: string } | null {
  let x = 0n;
  let i = 0;
  for (; i < s.length && isDigit(s[i]); i++) {
    if (x > TWO_63 / 10n) return null;
    x = x * 10n + BigInt(s.charCodeAt(i) - 48);
    if (x > TWO_63) return null;
  }
  return { x, rest: s.slice(i) };
}

/** Go's `leadingFraction`: stops accumulating precision instead of failing on overflow. */
function leadingFraction(s: string): { x: bigint; scale: number; rest: string } {
  let x = 0n;
  let scale = 1;
  let overflow = false;
  let i = 0;
  for (; i < s.length && isDigit(s[i]); i++) {
    if (overflow) continue;
    if (x > MAX_INT64 / 10n) {
      overflow = true;
      continue;
    }
    const y = x * 10n + BigInt(s.charCodeAt(i) - 48);
    if (y > TWO_63) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  return { x, scale, rest: s.slice(i) };
}

/**
 * Parses a Go duration string (`300ms`, `-1.5h`, `2h45m`, `0`) into nanoseconds. Failures carry
 * Go's error text, e.g. `time: missing unit in duration "30"`.
 */
export function parseGoDuration(input: string): ParseDurationResult {
  const orig = input;
  const invalid = (): ParseDurationResult => ({ ok: false, error: `time: invalid duration ${quoteGoTime(orig)}` });
  let s = input;
  let d = 0n;
  let neg = false;

  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ok: true, ns: 0n };
  if (s === '') return invalid();

  while (s !== '') {
    let f = 0n;
    let scale = 1;
    if (!(s[0] === '.' || isDigit(s[0]))) return invalid();

    const before = s.length;
    const int = leadingInt(s);
    if (int === null) return invalid();
    let v = int.x;
    s = int.rest;
    const pre = before !== s.length;

    let post = false;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      const afterDot = s.length;
      const frac = leadingFraction(s);
      f = frac.x;
      scale = frac.scale;
      s = frac.rest;
      post = afterDot !== s.length;
    }
    if (!pre && !post) return invalid();

    let i = 0;
    for (; i < s.length; i++) {
      if (s[i] === '.' || isDigit(s[i])) break;
    }
    if (i === 0) return { ok: false, error: `time: missing unit in duration ${quoteGoTime(orig)}` };
    const u = s.slice(0, i);
    s = s.slice(i);
    const unit = UNITS.get(u);
    if (unit === undefined) {
      return { ok: false, error: `time: unknown unit ${quoteGoTime(u)} in duration ${quoteGoTime(orig)}` };
    }
    if (v > TWO_63 / unit) return invalid();
    v *= unit;
    if (f > 0n) {
      // Go: v += uint64(float64(f) * (float64(unit) / scale)); the conversion truncates.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO_63) return invalid();
    }
    d = (d + v) % TWO_64;
    if (d > TWO_63) return invalid();
  }
  if (neg) return { ok: true, ns: BigInt.asIntN(64, -d) };
  if (d > MAX_INT64) return invalid();
  return { ok: true, ns: d };
}

/** Go's `fmtFrac`: `v / 10^prec` with trailing zeros (and a bare point) omitted. */
function fmtFrac(v: bigint, prec: number): { text: string; rest: bigint } {
  let text = '';
  let print = false;
  for (let i = 0; i < prec; i++) {
    const digit = v % 10n;
    print = print || digit !== 0n;
    if (print) text = digit.toString() + text;
    v /= 10n;
  }
  if (print) text = `.${text}`;
  return { text, rest: v };
}

/**
 * Go's `Duration.String()`: `1h2m3.5s`, `1.5µs`, `0s`. The value is first taken as a Go
 * `Duration` (int64, wrapping like Go's conversion), so every bigint formats.
 */
export function formatGoDuration(ns: bigint): string {
  const d = BigInt.asIntN(64, ns);
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;

  if (u < SECOND) {
    let prec: number;
    let unit: string;
    if (u === 0n) return '0s';
    if (u < MICROSECOND) {
      prec = 0;
      unit = 'ns';
    } else if (u < MILLISECOND) {
      prec = 3;
      unit = '\u00b5s';
    } else {
      prec = 6;
      unit = 'ms';
    }
    const frac = fmtFrac(u, prec);
    out = `${frac.rest}${frac.text}${unit}`;
  } else {
    const frac = fmtFrac(u, 9);
    u = frac.rest;
    out = `${u % 60n}${frac.text}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}
