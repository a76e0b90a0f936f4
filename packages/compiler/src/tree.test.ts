import { describe, expect, it } from 'vitest';
import { compileSource } from './index.ts';

const codes = (r: ReturnType<typeof compileSource>) => r.diagnostics.map((d) => d.code);

describe('tree: aliases resolve in linear time', () => {
  it('20000 aliases of one anchor compile (no quadratic lookup: bench/ measures the scaling)', () => {
    // yaml's Alias.resolve walks the whole document per alias: 20000 aliases took minutes.
    const text = ['mode: pattern', 'default: deny', 'allow:', '  - &r {tool: bash, match: "^ls$"}', `deny: [${Array(20000).fill('*r').join(',')}]`].join('\n');
    const r = compileSource(text, 'many-aliases.yaml');
    expect(codes(r)).toEqual([]);
    expect(r.ir?.approver?.deny).toHaveLength(20000);
    expect(r.approver?.approve({ toolName: 'bash', input: 'ls' })).toEqual({ decision: 'deny', reason: 'denied by pattern policy' });
  });

  it('an alias names the last anchor of that name written before it', () => {
    const text = [
      'mode: pattern',
      'default: deny',
      'allow:',
      '  - &r {tool: bash, match: "^one$"}',
      '  - &r {tool: bash, match: "^two$"}',
      'deny:',
      '  - *r',
    ].join('\n');
    const r = compileSource(text, 'rebind.yaml');
    expect(codes(r)).toEqual([]);
    expect(r.ir?.approver?.deny[0]?.match).toBe('^two$');
    expect(r.ir?.approver?.deny[0]?.matchSpan?.start.line).toBe(5);
  });

  it('an alias before its anchor is unknown; an alias key resolves too', () => {
    const r = compileSource(['approver:', '  mode: *m', 'x: &m pattern'].join('\n'), 'early.yaml');
    expect(codes(r)).toContain('yaml/unknown-alias');
    expect(r.approver).toBeUndefined();
    const k = compileSource(['tests:', '  - &k tool: bash', '    expect: deny'].join('\n'), 'k.yaml', { stopAfter: 'parse' });
    expect(codes(k)).toEqual([]);
  });
});

describe('tree: depth counts aliases expanded', () => {
  // Each anchor nests the previous one 250 levels deeper: 14 KB of text, 7000 levels once expanded.
  function chain(key: string): string {
    let s = `${key}:\n  - &a0 q\n`;
    for (let i = 1; i < 28; i++) s += `  - &a${i} ${'['.repeat(250)}*a${i - 1}${']'.repeat(250)}\n`;
    return s;
  }

  it.each([
    ['under an unknown key', chain('x')],
    ['as a test input', chain('other') + 'tests:\n  - {tool: t, expect: deny, input: *a27}\n'],
  ])('an alias chain nesting 7000 levels deep is refused, %s', (_name, text) => {
    const r = compileSource(text, 'deep-aliases.yaml');
    expect(codes(r)).toEqual(['yaml/too-deep']);
    expect(r.diagnostics[0]?.span?.start.line).toBe(3);
    expect(r.approver).toBeUndefined();
  });

  it('an alias whose expansion stays within the limit is fine', () => {
    const text = ['approver:', '  mode: pattern', `  allow: &l ${'['.repeat(3)}{tool: bash}${']'.repeat(3)}`, 'tests: [{tool: t, expect: deny, input: *l}]'].join('\n');
    const r = compileSource(text, 'ok.yaml', { stopAfter: 'parse' });
    expect(codes(r)).toEqual([]);
    expect(r.ir?.tests[0]?.input).toBe('[[[{"tool":"bash"}]]]');
  });
});

describe('tree: duplicate keys in linear time', () => {
  it('a mapping of 40000 keys compiles (yaml checks each key against every earlier one: bench/ measures the scaling)', () => {
    const text = 'approver:\n  mode: pattern\nextra:\n' + Array.from({ length: 40000 }, (_, i) => `  k${i}: 1`).join('\n') + '\n';
    const r = compileSource(text, 'wide.yaml');
    expect(r.diagnostics.map((d) => `${d.code}@${d.span?.start.line}:${d.span?.start.column}`)).toEqual(['schema/unknown-key@3:1']);
  });

  it('reports every repeated key, spanned whole, under its decoded name, and stops', () => {
    const text = ['approver:', '  mode: pattern', '  "m\\x6fde": allow_all', '  allow: [{tool: a, tool: b}]', '  1: x', '  0x1: y', '  "1": z'].join('\n');
    const r = compileSource(text, 'dups.yaml');
    expect(r.diagnostics.map((d) => [d.code, d.message, d.span?.start.line, d.span?.start.column, d.span?.end.column])).toEqual([
      ['yaml/duplicate-key', 'duplicate key `mode`', 3, 3, 12],
      ['yaml/duplicate-key', 'duplicate key `tool`', 4, 21, 25],
      ['yaml/duplicate-key', 'duplicate key `0x1`', 6, 3, 6],
    ]);
    expect(r.diagnostics[0]?.help).toBe('the later value would silently replace the earlier one: keep only one');
    expect(r.ir).toBeUndefined();
    expect(r.approver).toBeUndefined();
  });

  it('a repeated key inside an anchored mapping is reported once, at the anchor', () => {
    const r = compileSource('a: &x {k: 1, k: 2}\nb: [*x, *x]\n', 'anchored.yaml');
    expect(r.diagnostics.map((d) => `${d.code}@${d.span?.start.line}:${d.span?.start.column}`)).toEqual(['yaml/duplicate-key@1:14']);
  });
});
