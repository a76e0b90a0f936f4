import { describe, expect, it } from 'vitest';
import { quoteGoString, quoteGoTime } from './goquote.ts';

describe('quoteGoString (strconv.Quote)', () => {
  it.each([
    ['READ_ONLY', '"READ_ONLY"'],
    ['', '""'],
    ['-1', '"-1"'],
    ['a"b\\c', '"a\\"b\\\\c"'],
    ['\u0007\b\f\n\r\t\v', '"\\a\\b\\f\\n\\r\\t\\v"'],
    ['\u0000\u001b\u007f', '"\\x00\\x1b\\x7f"'],
    ['héllo 世界', '"héllo 世界"'],
    ['\u00a0\u00ad\u200b\u2028', '"\\u00a0\\u00ad\\u200b\\u2028"'],
    ['\u{1F600}', '"\u{1F600}"'],
    ['\u{E0001}', '"\\U000e0001"'],
    ['x\ud800y', '"x\\xed\\xa0\\x80y"'],
  ])('%j', (input, want) => {
    expect(quoteGoString(input)).toBe(want);
  });
});

describe('quoteGoTime (time.quote)', () => {
  it.each([
    ['1d', '"1d"'],
    ['a"b\\', '"a\\"b\\\\"'],
    ['\u00b5m', '"\\xc2\\xb5m"'],
    ['\t\u007f', '"\\x09\u007f"'],
    ['\u{1F600}', '"\\xf0\\x9f\\x98\\x80"'],
  ])('%j', (input, want) => {
    expect(quoteGoTime(input)).toBe(want);
  });
});
