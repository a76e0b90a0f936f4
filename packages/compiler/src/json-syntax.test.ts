import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkJsonSyntax, replaceLoneSurrogateEscapes } from './json-syntax.ts';
import { compileSource } from './pipeline.ts';

function jsonParses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

describe('checkJsonSyntax', () => {
  it('accepts every JSON text JSON.stringify writes, compact or indented', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 2, '\t'), (v, indent) => {
        expect(checkJsonSyntax(JSON.stringify(v, null, indent))).toBeUndefined();
      }),
    );
  });

  it('agrees with JSON.parse on JSON-like noise', () => {
    const unit = fc.constantFrom('{', '}', '[', ']', '"', ':', ',', ' ', '1', '-', '.', 'e', 'a', 'true', 'null', '\\', 'u', '0');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 16 }), (s) => {
        expect(checkJsonSyntax(s) === undefined).toBe(jsonParses(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('points at the first error', () => {
    expect(checkJsonSyntax('{"a": 1,}')).toEqual({ offset: 8, message: 'unexpected `}`, expected a string key' });
    expect(checkJsonSyntax('{"a": }')).toEqual({ offset: 6, message: 'unexpected `}`, expected a value' });
    expect(checkJsonSyntax('{} {}')).toEqual({ offset: 3, message: 'unexpected `{`, expected end of input' });
    expect(checkJsonSyntax('')?.message).toBe('unexpected end of input, expected a value');
    expect(checkJsonSyntax('"a\tb"')?.message).toBe('character U+0009 must be escaped inside a string');
    expect(checkJsonSyntax('01')?.offset).toBe(1);
  });

  it('refuses deep nesting without exhausting the stack', () => {
    expect(checkJsonSyntax('['.repeat(100_000))?.message).toBe('the document nests deeper than 256 levels');
  });
});

describe('lone surrogate escapes decode as Go decodes them (U+FFFD)', () => {
  it('rewrites each escape that does not start a valid pair, keeping every offset', () => {
    const cases: [string, string][] = [
      ['"\\ud800"', '"\\ufffd"'],
      ['"\\udc00"', '"\\ufffd"'],
      ['"\\ud83d\\ude00"', '"\\ud83d\\ude00"'],
      ['"\\ud800\\u0041"', '"\\ufffd\\u0041"'],
      ['"\\udc00\\ud800\\udc00"', '"\\ufffd\\ud800\\udc00"'],
      ['"\\ud800\\ud800\\udc00"', '"\\ufffd\\ud800\\udc00"'],
      ['"\\\\ud800"', '"\\\\ud800"'],
      ['{"\\uD800":"\\\\\\uDBFF"}', '{"\\ufffd":"\\\\\\ufffd"}'],
    ];
    for (const [text, want] of cases) {
      expect(replaceLoneSurrogateEscapes(text), text).toBe(want);
      expect(JSON.parse(replaceLoneSurrogateEscapes(text))).toEqual(JSON.parse(want));
    }
  });

  const policy = (q: string) => `{"approver":{"mode":"pattern","default":"allow","deny":[{"tool":"bash","match":"s${q}x"}]}}\n`;

  it('a JSON policy pattern holding `\\ud800` is the pattern `s\\ufffdx`, which compiles (as in Go)', () => {
    const r = compileSource(policy('\\ud800'), 'p.json');
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.ir?.approver?.deny[0]?.match).toBe('s\ufffdx');
    expect(r.approver?.decide({ toolName: 'bash', input: 's\ufffdx' }).decision).toBe('deny');
    expect(r.approver?.decide({ toolName: 'bash', input: 'sax' }).decision).toBe('allow');
  });

  it('YAML keeps the lone surrogate, and the pattern is refused as invalid UTF-8 (documented)', () => {
    const r = compileSource('approver: {mode: pattern, default: allow, deny: [{tool: bash, match: "s\\ud800x"}]}\n', 'p.yaml');
    const d = r.diagnostics.find((x) => x.code === 'regex/invalid');
    expect(d?.help).toContain('error parsing regexp: invalid UTF-8');
  });
});
