import { describe, expect, it } from 'vitest';
import { parseRegex, type RegexNode } from './syntax.ts';

/** Each node as `type[start,end)` with its children, for reading spans at a glance. */
function shape(n: RegexNode): unknown {
  const at = `${n.t}[${n.start},${n.end})`;
  if (n.t === 'cat' || n.t === 'alt') return { [at]: n.subs.map(shape) };
  if (n.t === 'rep') return { [`${at}{${n.min},${n.max}}`]: shape(n.sub) };
  return at;
}

describe('the syntax tree', () => {
  it('has source offsets: branches span their flag groups, groups their parentheses, repetitions their operator', () => {
    expect(shape(parseRegex('(?i)ab|c(d|)*'))).toEqual({
      'alt[0,13)': [
        { 'cat[0,6)': ['chars[4,5)', 'chars[5,6)'] },
        { 'cat[7,13)': ['chars[7,8)', { 'rep[8,13){0,-1}': { 'alt[8,12)': [{ 'cat[9,10)': ['chars[9,10)'] }, { 'cat[11,11)': [] }] } }] },
      ],
    });
  });

  it('counts offsets in UTF-16 code units and keeps each quoted character an item of its own', () => {
    expect(shape(parseRegex('😀\\Qab\\E+$'))).toEqual({
      'cat[0,10)': ['chars[0,2)', 'chars[4,5)', { 'rep[5,9){1,-1}': 'chars[5,6)' }, 'assert[9,10)'],
    });
  });

  it('records how a character item is written', () => {
    const items = (parseRegex('(?i)k.\\d[x]') as { subs: RegexNode[] }).subs;
    expect(items.map((n) => (n.t === 'chars' ? [n.form, n.lit] : n.t))).toEqual([
      ['literal', 0x6b],
      ['dot', undefined],
      ['class', undefined],
      ['class', undefined],
    ]);
  });
});
