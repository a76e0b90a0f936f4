import { describe, expect, it } from 'vitest';
import type { Span } from '@verdict/engine';
import { compileSource } from '../src/pipeline.ts';

const at = (s: Span | undefined): string | undefined => (s === undefined ? undefined : `${s.start.line}:${s.start.column}-${s.end.line}:${s.end.column}`);

describe('CompileResult.locate: a document path to where it is written', () => {
  const yaml = [
    'approver:', //                           1
    '  mode: pattern', //                     2
    '  allow: &rules', //                     3
    "    - {tool: bash, match: 'a\\\\b'}", //  4
    '  deny: *rules', //                      5
    'x: {flag, n: 1}', //                     6
    'b: |', //                                7
    '  block', //                             8
    '',
  ].join('\n');
  const r = compileSource(yaml, 'p.yaml', { stopAfter: 'parse' });

  it('finds values, keys, and the deepest ancestor of a missing path', () => {
    expect(at(r.locate(['approver', 'mode']))).toBe('2:9-2:16');
    expect(at(r.locate(['approver', 'mode'], true))).toBe('2:3-2:7');
    expect(at(r.locate(['approver', 'allow', 0, 'match']))).toBe('4:27-4:33');
    expect(at(r.locate(['approver', 'allow', 7]))).toBe('4:5-5:1');
    expect(at(r.locate(['approver', 'nope', 'deeper']))).toBe('2:3-6:1');
    expect(at(r.locate([]))).toBe('1:1-9:1');
  });

  it('stops at an alias, and at the key of a value that is not written', () => {
    expect(at(r.locate(['approver', 'deny', 0, 'tool']))).toBe('5:9-5:15');
    expect(at(r.locate(['x', 'flag']))).toBe('6:5-6:9');
  });

  it('tells scalar styles apart', () => {
    const style = (path: (string | number)[]) => r.scalarStyleAt(r.locate(path));
    expect(style(['approver', 'mode'])).toBe('PLAIN');
    expect(style(['approver', 'allow', 0, 'match'])).toBe('QUOTE_SINGLE');
    expect(style(['b'])).toBe('BLOCK_LITERAL');
    const json = compileSource('{"a": "x"}', 'p.json', { stopAfter: 'parse' });
    expect(json.scalarStyleAt(json.locate(['a']))).toBe('QUOTE_DOUBLE');
  });

  it('has nothing to say without a tree: the DSL, or a file that did not parse', () => {
    const dsl = compileSource('approver deny_all reason "denied: no"\n', 'p.verdict', { stopAfter: 'parse' });
    expect(dsl.locate(['approver'])).toBeUndefined();
    const broken = compileSource('a: [\n', 'p.yaml', { stopAfter: 'parse' });
    expect(broken.locate(['a'])).toBeUndefined();
  });

  it('reads a top-level `$schema`, even from a document with errors', () => {
    expect(compileSource('$schema: x\n$schema: y\n', 'p.yaml').schemas).toEqual(['x', 'y']);
    expect(compileSource('a: 1\n', 'p.yaml').schemas).toEqual([]);
    expect(compileSource('{"$schema": ', 'p.json').schemas).toBeUndefined();
  });
});
