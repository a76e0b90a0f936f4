import { describe, expect, it } from 'vitest';
import { compileSource } from './index.ts';

const at = (r: ReturnType<typeof compileSource>) =>
  r.diagnostics.map((d) => `${d.code}@${d.span?.start.line}:${d.span?.start.column}`);

describe('parse: safety', () => {
  it('treats __proto__ and constructor as ordinary keys: no prototype pollution', () => {
    const src = [
      '__proto__: {polluted: yes}',
      'constructor: {prototype: {polluted: yes}}',
      'tests:',
      '  - {tool: t, expect: deny, input: {__proto__: {polluted: yes}, constructor: 1}}',
    ].join('\n');
    const r = compileSource(src, 'p.yaml', { stopAfter: 'validate' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    expect(at(r)).toEqual(['schema/unknown-key@1:1', 'schema/unknown-key@2:1']);
    expect(r.diagnostics[0]?.message).toBe('unknown key `__proto__`');
    expect(r.ir?.tests[0]?.input).toBe('{"__proto__":{"polluted":"yes"},"constructor":1}');
  });

  it('stops a billion-laughs alias bomb', () => {
    const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i <= 12; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(',')}]`);
    const r = compileSource(lines.join('\n'), 'bomb.yaml');
    expect(at(r)).toEqual(['yaml/alias-limit@1:1']);
    expect(r.ir).toBeUndefined();
  });

  it('accepts ordinary anchors and aliases (a rule reused in two lists)', () => {
    const r = compileSource(
      ['approver:', '  mode: pattern', '  allow:', '    - &r {tool: bash, match: "ls"}', '  deny:', '    - *r'].join('\n'),
      'alias.yaml',
      { stopAfter: 'validate' },
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.ir?.approver?.deny[0]?.match).toBe('ls');
    expect(r.ir?.approver?.deny[0]?.matchSpan?.start.line).toBe(4);
  });

  it('refuses an alias that contains itself and deep nesting, without crashing', () => {
    expect(at(compileSource('a: &a [*a]\n', 'cycle.yaml'))[0]).toMatch(/^yaml\/(alias-cycle|unknown-alias)@1:/);
    const deep = compileSource('a: ' + '['.repeat(5000) + ']'.repeat(5000), 'deep.yaml');
    expect(deep.diagnostics[0]?.code).toMatch(/^yaml\/too-deep$/);
    const deepJson = compileSource('{"a": ' + '['.repeat(5000) + ']'.repeat(5000) + '}', 'deep.json');
    expect(deepJson.diagnostics.map((d) => d.code)).toEqual(['json/syntax']);
  });
});

describe('parse: placements and spans', () => {
  const block = ['mode: pattern', 'default: deny', 'allow:', '  - {tool: read, match: "\\"path\\":\\"/w/"}'];
  const indent = (n: number) => block.map((l) => ' '.repeat(n) + l);
  it.each([
    ['bare', block, 1],
    ['approver', ['approver:', ...indent(2)], 2],
    ['agent.approver', ['provider: x', 'agent:', '  max_turns: 3', '  approver:', ...indent(4)], 5],
  ] as const)('reads the %s placement', (placement, lines, firstLine) => {
    const r = compileSource(lines.join('\n'), 'p.yaml', { stopAfter: 'validate' });
    expect(r.diagnostics).toEqual([]);
    expect(r.ir?.approverPlacement).toBe(placement);
    const ap = r.ir!.approver!;
    expect([ap.mode, ap.default]).toEqual(['pattern', 'deny']);
    const rule = ap.allow[0]!;
    expect(rule.match).toBe('"path":"/w/');
    expect(ap.modeSpan?.start.line).toBe(firstLine);
    // the pattern's span is the whole scalar, quotes included
    const line = lines[lines.length - 1]!;
    expect(rule.matchSpan?.start).toMatchObject({ line: firstLine + 3, column: line.indexOf('"\\"') + 1 });
    expect(rule.matchSpan?.end.column).toBe(line.lastIndexOf('"') + 2);
    expect(rule.toolSpan?.start.column).toBe(line.indexOf('read') + 1);
    expect(rule.span?.start.column).toBe(line.indexOf('{') + 1);
  });

  it('reports two approver blocks', () => {
    const r = compileSource('approver: {mode: pattern}\nagent:\n  approver: {mode: deny_all}\n', 'two.yaml');
    expect(at(r)).toEqual(['approver/duplicate-block@3:3']);
  });

  it('does not report the agent configuration keys, only ours', () => {
    const r = compileSource('provider: x\nmodel: y\nagent: {tools: [a], approver: {mode: deny_all, reasn: x}}\n', 'a.yaml', {
      stopAfter: 'validate',
    });
    expect(at(r)).toEqual(['schema/unknown-key@3:48']);
    expect(r.diagnostics[0]?.help).toBe('did you mean `reason`?');
  });
});

describe('parse: tests block', () => {
  it('keeps a string input verbatim and writes other values as compact JSON in source key order', () => {
    const r = compileSource(
      [
        'tests:',
        '  - {tool: bash, input: "{ \\"command\\" : \\"ls\\" }", expect: allow}',
        '  - {tool: bash, input: {b: 1, "2": [true, null], a: "x"}, expect: deny, reason: no, rule: "deny[0]", name: n}',
        '  - {tool: bash, expect: deny}',
        '  - {tool: bash, input: 42, expect: deny}',
      ].join('\n'),
      't.yaml',
      { stopAfter: 'validate' },
    );
    expect(r.diagnostics).toEqual([]);
    const tests = r.ir!.tests;
    expect(tests.map((t) => t.input)).toEqual(['{ "command" : "ls" }', '{"b":1,"2":[true,null],"a":"x"}', '{}', '42']);
    expect(tests[1]).toMatchObject({ name: 'n', tool: 'bash', expect: 'deny', reason: 'no', rule: 'deny[0]' });
    expect(tests[1]?.span?.start.line).toBe(3);
  });

  it('keeps number literals of test inputs as written, however long (as the approver sees them)', () => {
    const long = '1'.repeat(450);
    const r = compileSource(`tests:\n  - {tool: x, input: {m: -0, e: 1E5, f: 1.50, h: 0x10, n: ${long}}, expect: deny}\n`, 't.yaml');
    expect(r.diagnostics).toEqual([]);
    expect(r.ir!.tests[0]!.input).toBe(`{"m":-0,"e":1E5,"f":1.50,"h":16,"n":${long}}`);
    const j = compileSource(`{"tests": [{"tool": "x", "input": {"n": ${long}}, "expect": "deny"}]}`, 't.json');
    expect(j.ir!.tests[0]!.input).toBe(`{"n":${long}}`);
  });

  it('refuses a test input JSON cannot write', () => {
    const r = compileSource('tests:\n  - {tool: x, input: {n: .inf}, expect: deny}\n', 't.yaml');
    expect(at(r)).toEqual(['tests/invalid-input@2:22']);
  });
});

describe('parse: JSON files', () => {
  it('reads JSON with positions, tabs included', () => {
    const r = compileSource('{\n\t"approver": {\n\t\t"mode": "pattern",\n\t\t"mdoe": 1\n\t}\n}', 'p.json', { stopAfter: 'validate' });
    expect(at(r)).toEqual(['schema/unknown-key@4:3']);
  });
  it('reports duplicate keys in JSON too', () => {
    const r = compileSource('{"a": 1, "a": 2}', 'p.json');
    expect(at(r)).toEqual(['yaml/duplicate-key@1:10']);
  });
  it('a document that is a scalar or a list is refused', () => {
    expect(at(compileSource('"x"', 'p.json'))).toEqual(['parse/not-a-mapping@1:1']);
    expect(at(compileSource('[]', 'p.json'))).toEqual(['parse/not-a-mapping@1:1']);
    expect(compileSource('[]', 'p.json').diagnostics[0]?.message).toBe(
      'a policy file must be a mapping of keys to values, not a list',
    );
  });
  it('an empty YAML file is an empty policy', () => {
    const r = compileSource('# nothing here\n', 'e.yaml');
    expect(r.diagnostics).toEqual([]);
    expect(r.ir).toMatchObject({ file: 'e.yaml', tests: [] });
    expect(r.ir?.approver).toBeUndefined();
  });
});

describe('parse: YAML errors read as ours', () => {
  it('a duplicate key names the key, at the second occurrence', () => {
    const r = compileSource('approver:\n  mode: pattern\n  "mode": allow_all\n', 'd.yaml');
    expect(r.diagnostics.map((d) => [d.code, d.message, d.span?.start.line, d.span?.start.column])).toEqual([
      ['yaml/duplicate-key', 'duplicate key `mode`', 3, 3],
    ]);
  });
  it('several documents in one file', () => {
    const r = compileSource('a: 1\n---\nb: 2\n', 'm.yaml');
    expect(r.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['yaml/multiple-documents', 'the file holds more than one YAML document'],
    ]);
  });
  it('`default: true` is a type error with advice', () => {
    const r = compileSource('approver:\n  mode: pattern\n  default: true\n', 'd.yaml');
    expect(r.diagnostics.map((d) => [d.code, d.message, d.help, d.span?.start.column])).toEqual([
      ['schema/type', '`default` must be a string, not a boolean', 'write `default: allow` or `default: deny`', 12],
    ]);
  });
  it('every yaml syntax error message is lowercase without a final period', () => {
    for (const src of ['a: [1, 2\n', 'a:\n\t- b\n', 'a: "x\n', 'a: b: c\n', '- a\nb: c\n', '{a: 1']) {
      const r = compileSource(src, 'e.yaml');
      expect(r.diagnostics.length, src).toBeGreaterThan(0);
      for (const d of r.diagnostics) {
        expect(d.message).toMatch(/^[^A-Z].*[^.]$/);
        expect(d.span?.start.line).toBeGreaterThan(0);
      }
    }
  });
});

describe('parse: line endings', () => {
  it('CRLF files get the same lines and columns', () => {
    const r = compileSource('approver:\r\n  mode: pattern\r\n  mdoe: x\r\n', 'crlf.yaml');
    expect(r.diagnostics.map((d) => [d.code, d.span?.start.line, d.span?.start.column, d.span?.end.column])).toEqual([
      ['schema/unknown-key', 3, 3, 7],
    ]);
  });
  it('a duplicate key is spanned whole', () => {
    const r = compileSource('a: 1\n"a": 2\n', 'd.yaml');
    expect(r.diagnostics.map((d) => [d.span?.start.column, d.span?.end.column])).toEqual([[1, 4]]);
  });
});
