import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CANONICAL_REJECT_REASON,
  MAX_JSON_DEPTH,
  canonicalize,
  compareUtf8,
  parseCanonical,
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

  it('handles a 10 MB input in linear time', () => {
    const long = 'x'.repeat(10 * 1024 * 1024);
    const t0 = Date.now();
    const r = canonicalize(`{"b":"${long}","a":[${'1,'.repeat(100_000)}1]}`);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.text.startsWith('{"a":[1,1,')).toBe(true);
    expect(Date.now() - t0).toBeLessThan(3000);
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
