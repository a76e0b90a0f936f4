import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  LineIndex,
  SourceMap,
  jsonPointer,
  pathFromJsonPointer,
  spanFromChevrotain,
  spanFromYamlRange,
  spanOf,
} from './positions.ts';

describe('LineIndex', () => {
  it('maps offsets to 1-based lines and columns across \\n, \\r\\n and \\r', () => {
    const ix = new LineIndex('ab\ncd\r\nef\rg');
    expect(ix.position(0)).toEqual({ offset: 0, line: 1, column: 1 });
    expect(ix.position(2)).toEqual({ offset: 2, line: 1, column: 3 });
    expect(ix.position(3)).toEqual({ offset: 3, line: 2, column: 1 });
    expect(ix.position(7)).toEqual({ offset: 7, line: 3, column: 1 });
    expect(ix.position(10)).toEqual({ offset: 10, line: 4, column: 1 });
    expect(ix.lineCount).toBe(4);
  });

  it('counts UTF-16 code units: an emoji is two columns', () => {
    const ix = new LineIndex('😀x');
    expect(ix.position(2)).toEqual({ offset: 2, line: 1, column: 3 });
  });

  it('clamps offsets out of range', () => {
    const ix = new LineIndex('abc');
    expect(ix.position(-5).offset).toBe(0);
    expect(ix.position(99)).toEqual({ offset: 3, line: 1, column: 4 });
  });

  it('offsetAt inverts position for every offset', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\n', '\r', 'é', '😀') }), (text) => {
        const ix = new LineIndex(text);
        for (let o = 0; o <= text.length; o++) {
          // an offset between \r and \n has no position of its own; skip it
          if (text[o - 1] === '\r' && text[o] === '\n') continue;
          const p = ix.position(o);
          expect(ix.offsetAt(p.line, p.column)).toBe(o);
        }
      }),
    );
  });
});

describe('span conversions', () => {
  const ix = new LineIndex('key: value\nnext: 1\n');
  it('spanOf keeps the end exclusive', () => {
    const s = spanOf('f.yaml', ix, 5, 10);
    expect(s.start).toEqual({ offset: 5, line: 1, column: 6 });
    expect(s.end).toEqual({ offset: 10, line: 1, column: 11 });
  });
  it('spanFromYamlRange uses the value end, not the node end', () => {
    expect(spanFromYamlRange('f', ix, [11, 15, 19])?.end.offset).toBe(15);
    expect(spanFromYamlRange('f', ix, undefined)).toBeUndefined();
  });
  it('spanFromChevrotain adds one to the inclusive end offset, once', () => {
    const s = spanFromChevrotain('f', ix, { startOffset: 0, endOffset: 2 });
    expect(s.end.offset).toBe(3);
    expect(spanFromChevrotain('f', ix, { startOffset: 4, endOffset: Number.NaN }).end.offset).toBe(4);
  });
});

describe('JSON pointers', () => {
  it('round-trips paths with / and ~', () => {
    const p = ['a/b', 'c~d', '0'];
    expect(pathFromJsonPointer(jsonPointer(p))).toEqual(p);
    expect(pathFromJsonPointer('')).toEqual([]);
  });
  it('SourceMap.lookup falls back to the nearest ancestor', () => {
    const ix = new LineIndex('approver: {}');
    const span = spanOf('f', ix, 10, 12);
    const keySpan = spanOf('f', ix, 0, 8);
    const m = new SourceMap({ kind: 'map', span: spanOf('f', ix, 0, 12), size: 2, entries: [{ key: 'approver', keySpan, value: { kind: 'map', entries: [], span, size: 1 } }] });
    const hit = m.lookup('/approver/allow/0');
    expect(hit?.exact).toBe(false);
    expect(hit?.path).toEqual(['approver']);
    expect(hit?.entry).toEqual({ key: keySpan, value: span });
    expect(m.lookup('')?.exact).toBe(true);
  });
});
