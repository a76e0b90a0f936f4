import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CANONICAL_REJECT_REASON,
  MAX_JSON_DEPTH,
  canonicalize,
  compareUtf8,
  parseCanonical,
  parseStrictJson,
  scanObjectMembers,
  topLevelMember,
} from './canonical.ts';
import { caseFold } from './casefold.ts';

/** Any UTF-16 code unit (lone surrogates included), plus some astral and JSON-ish characters. */
const utf16Unit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('😀', '\u{10400}', 'a', 'b', '1', '{', '}', '"', ':', ','),
);

interface CanonicalCase {
  name: string;
  input: string;
  canonical?: string;
  rejected?: boolean;
  table?: string;
}

const fixture = JSON.parse(
  readFileSync(new URL('../../../../fixtures/cases/canonical.json', import.meta.url), 'utf8'),
) as { cases: CanonicalCase[] };

describe('canonicalize: fixtures/cases/canonical.json', () => {
  it('has C3 rows', () => {
    expect(fixture.cases.filter((c) => c.table === 'C3').length).toBeGreaterThanOrEqual(16);
  });
  it.each(fixture.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const result = canonicalize(c.input);
    if (c.rejected) {
      expect(result).toEqual({ ok: false });
    } else {
      expect(result).toEqual({ ok: true, text: c.canonical });
      // The canonical text is itself canonical.
      expect(canonicalize(c.canonical!)).toEqual({ ok: true, text: c.canonical });
    }
  });
});

describe('canonicalize: edges', () => {
  it('exports the exact reject reason', () => {
    expect(CANONICAL_REJECT_REASON).toBe('tool input is not valid JSON or repeats a key');
  });

  it('reads raw lone surrogates as U+FFFD', () => {
    expect(canonicalize('{"s":"a\ud800b"}')).toEqual({ ok: true, text: '{"s":"a\ufffdb"}' });
    expect(canonicalize('{"\udc00":1}')).toEqual({ ok: true, text: '{"\ufffd":1}' });
    expect(canonicalize('{"s":"\ud83d\ude00"}')).toEqual({ ok: true, text: '{"s":"\ud83d\ude00"}' });
  });

  it('rejects keys that collide once lone surrogates become U+FFFD', () => {
    expect(canonicalize('{"\ud800":1,"\\udc00":2}')).toEqual({ ok: false });
  });

  it('rejects a lone surrogate outside strings', () => {
    expect(canonicalize('{"a":1}\ud800')).toEqual({ ok: false });
  });

  it('accepts exactly 10000 nesting levels and rejects 10001, as Go', () => {
    const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(canonicalize(ok)).toEqual({ ok: true, text: ok });
    const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
    expect(canonicalize(deep)).toEqual({ ok: false });
    const deepObjects = '{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1);
    expect(canonicalize(deepObjects)).toEqual({ ok: false });
  });

  it('rejects a million open brackets without overflowing the stack', () => {
    expect(canonicalize('['.repeat(1_000_000))).toEqual({ ok: false });
    expect(canonicalize('{"a":'.repeat(200_000))).toEqual({ ok: false });
  });

  // Linear time is measured in bench/ (front-end scaling), as a ratio to a quarter of the input.
  it('handles a 10 MB input', () => {
    const long = 'x'.repeat(10 * 1024 * 1024);
    const r = canonicalize(`{"b":"${long}","a":[${'1,'.repeat(100_000)}1]}`);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.text.startsWith('{"a":[1,1,')).toBe(true);
  });

  it('keeps __proto__ as data, never as a prototype', () => {
    const r = parseCanonical('{"__proto__":"x","command":"ls"}');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.text).toBe('{"__proto__":"x","command":"ls"}');
    expect(topLevelMember(r.value, caseFold('__proto__'))).toEqual({ kind: 'string', value: 'x' });
    expect(canonicalize('{"__proto__":1,"__PROTO__":2}')).toEqual({ ok: false });
  });

  it('finds top-level members under case folding', () => {
    const r = parseCanonical('{"Command":"rm -rf /","n":{"command":"x"}}');
    if (!r.ok) throw new Error('expected ok');
    expect(topLevelMember(r.value, caseFold('command'))).toEqual({ kind: 'string', value: 'rm -rf /' });
    expect(topLevelMember(r.value, caseFold('missing'))).toBeUndefined();
    const arr = parseCanonical('[{"command":"x"}]');
    if (!arr.ok) throw new Error('expected ok');
    expect(topLevelMember(arr.value, caseFold('command'))).toBeUndefined();
  });

  it('compares by UTF-8 byte order', () => {
    expect(compareUtf8('\uffff', '😀')).toBeLessThan(0);
    expect(compareUtf8('a', 'b')).toBeLessThan(0);
    expect(compareUtf8('a', 'ab')).toBeLessThan(0);
    expect(compareUtf8('\ue000', '\ud800\udc00')).toBeLessThan(0);
    expect(compareUtf8('😀', '😀')).toBe(0);
  });
});

describe('canonicalize: properties', () => {
  it('is idempotent on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.json(), (json) => {
        const once = canonicalize(json);
        if (!once.ok) return; // fc.json may repeat keys after case folding
        expect(canonicalize(once.text)).toEqual(once);
      }),
      { numRuns: 300 },
    );
  });

  it('is idempotent on arbitrary text (accepted or not)', () => {
    fc.assert(
      fc.property(fc.string({ unit: utf16Unit }), (s) => {
        const once = canonicalize(s);
        if (once.ok) expect(canonicalize(once.text)).toEqual(once);
      }),
    );
  });

  it('agrees with JSON.parse on the value, for inputs without repeated keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        const r = canonicalize(text);
        if (!r.ok) return;
        expect(JSON.parse(r.text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\\', 'u', '1', 'a', ' ', '\ud800') }), (s) => {
        canonicalize(s);
      }),
    );
  });
});

/**
 * A string literal's body decoded by Go's rules, one code unit at a time (the reference for the
 * parser's native path): escapes, a high and a low surrogate escape as one character, any other
 * surrogate escape U+FFFD; a lone surrogate of the text itself U+FFFD (the invalid UTF-8 it stands
 * for); undefined for a control character or a bad escape.
 */
function goUnquote(body: string): string | undefined {
  let out = '';
  const hex = (at: number) => (/^[0-9a-fA-F]{4}$/.test(body.slice(at, at + 4)) ? parseInt(body.slice(at, at + 4), 16) : -1);
  for (let i = 0; i < body.length; ) {
    const c = body.charCodeAt(i);
    if (c < 0x20 || c === 0x22) return undefined;
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = body.charCodeAt(i + 1);
      const pair = c < 0xdc00 && d >= 0xdc00 && d <= 0xdfff;
      out += pair ? body.slice(i, i + 2) : '\ufffd';
      i += pair ? 2 : 1;
      continue;
    }
    if (c !== 0x5c) {
      out += body[i++];
      continue;
    }
    const e = body[i + 1] ?? '';
    const simple = ({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e];
    if (simple !== undefined) {
      out += simple;
      i += 2;
      continue;
    }
    const u = e === 'u' ? hex(i + 2) : -1;
    if (u < 0) return undefined;
    i += 6;
    if (u < 0xd800 || u > 0xdfff) out += String.fromCharCode(u);
    else {
      const v = body.startsWith('\\u', i) ? hex(i + 2) : -1;
      if (u < 0xdc00 && v >= 0xdc00 && v <= 0xdfff) {
        out += String.fromCharCode(u, v);
        i += 6;
      } else out += '\ufffd';
    }
  }
  return out;
}

describe('strings: the native path and Go', () => {
  const piece = fc.constantFrom('a', ' ', '\\"', '\\\\', '\\/', '\\n', '\\u0041', '\\u00e9', '\\ud800', '\\udc00', '\\ud83d\\ude00', '\\uDBFF', '\\x', '\\u12', '\\', '\t', '\u0001', '\u00e9', '\u{1f600}', '\ud800', '\udc00', '\u2028');
  it('decodes any string literal as Go does (lone surrogates of the text itself as U+FFFD)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const body = pieces.join('');
        const want = goUnquote(body);
        const got = parseStrictJson(`["${body}"]`);
        // A body ending in an odd backslash escapes the closing quote: not a literal at all.
        if (want === undefined || /(^|[^\\])(\\\\)*\\$/.test(body)) expect(got.ok).toBe(false);
        else expect(got).toEqual({ ok: true, value: { kind: 'array', items: [{ kind: 'string', value: want }] } });
      }),
      { numRuns: 3000 },
    );
  });
});

describe('scanObjectMembers', () => {
  it('gives each member its decoded key and the exact span of its value', () => {
    const text = ' { "a" : 1e999 , "\\u0062":{ "x" : [ -0 ] }, "c":"\\ud800\\u00e9", "a":null } ';
    const r = scanObjectMembers(text);
    expect(r.kind).toBe('object');
    if (r.kind !== 'object') return;
    expect(r.members.map((m) => [m.key, text.slice(m.start, m.end), m.string])).toEqual([
      ['a', '1e999', undefined],
      ['b', '{ "x" : [ -0 ] }', undefined],
      ['c', '"\\ud800\\u00e9"', '\ufffd\u00e9'],
      ['a', 'null', undefined],
    ]);
  });

  it('checks the whole text as Go does, counting the object as the first level', () => {
    expect(scanObjectMembers('[1]')).toEqual({ kind: 'other' });
    expect(scanObjectMembers('')).toEqual({ kind: 'invalid', tooDeep: false });
    expect(scanObjectMembers('{"a":1} x')).toEqual({ kind: 'invalid', tooDeep: false });
    expect(scanObjectMembers('{"a":[1,]}')).toEqual({ kind: 'invalid', tooDeep: false });
    expect(scanObjectMembers('{"a":{"b" 1}}')).toEqual({ kind: 'invalid', tooDeep: false });
    const nest = (n: number) => `{"a":${'['.repeat(n)}${']'.repeat(n)}}`;
    expect(scanObjectMembers(nest(MAX_JSON_DEPTH - 1)).kind).toBe('object');
    expect(scanObjectMembers(nest(MAX_JSON_DEPTH))).toEqual({ kind: 'invalid', tooDeep: true });
    expect(scanObjectMembers('['.repeat(MAX_JSON_DEPTH + 1))).toEqual({ kind: 'invalid', tooDeep: true });
    expect(scanObjectMembers(`{"a":1,,${'['.repeat(MAX_JSON_DEPTH + 1)}`)).toEqual({ kind: 'invalid', tooDeep: false });
    // No repeated-key rule here: that is the caller's.
    expect(scanObjectMembers('{"a":{"b":1,"b":2},"a":3}').kind).toBe('object');
  });
});
