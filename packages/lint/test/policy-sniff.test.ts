import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, parseDocument } from 'yaml';
import { textLooksLikePolicy } from '../src/lint-files.ts';

/** The check by parsing alone (what the shortcut in `textLooksLikePolicy` must agree with). */
function byParsing(text: string): boolean {
  const keys = new Set(['approver', 'policy', 'agent', 'driver', 'mode', 'allow', 'deny']);
  try {
    const doc = parseDocument(text, { uniqueKeys: false });
    if (doc.errors.length === 0) {
      const root = doc.contents;
      if (!isMap(root)) return false;
      return root.items.some((p) => isScalar(p.key) && keys.has(String(p.key.value)));
    }
  } catch {
    // fall through
  }
  return /^(?:\s*\{\s*)?["']?(approver|policy|agent|driver|mode)["']?\s*:/m.test(text);
}

describe('textLooksLikePolicy shortcut', () => {
  const word = fc.constantFrom('approver', 'policy', 'agent', 'driver', 'mode', 'allow', 'deny', 'name', 'agents', 'x');
  const line = fc.oneof(
    fc.constantFrom('', '# a comment', '  # indented comment', '\t', '---', '...', '- item', '[', '{', '}', 'a: [', '%YAML 1.2', '? agent', ': x', '|', '  nested: 1', '"unclosed'),
    fc.tuple(word, fc.constantFrom(':', ' :', ':\t', ': x', ':x', ': [1]', ': {a: 1}', ': &a v', ': *a', ': "q"')).map(([w, r]) => w + r),
    fc.tuple(fc.constantFrom('', '  ', '\t'), word, fc.constantFrom(': 1', ':')).map(([i, w, r]) => i + w + r),
    fc.tuple(fc.constantFrom('{', '{ ', '{\n'), fc.constantFrom('"', "'", ''), word, fc.constantFrom('"', "'", ''), fc.constantFrom(': 1}', ':1, "b": 2}', ' : {}}', ': [')).map((p) => p.join('')),
  );
  const text = fc.tuple(fc.array(line, { maxLength: 6 }), fc.constantFrom('\n', '\r\n'), fc.boolean()).map(([ls, nl, end]) => ls.join(nl) + (end ? nl : ''));

  it('agrees with parsing on generated documents', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(textLooksLikePolicy(t), JSON.stringify(t)).toBe(byParsing(t));
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['# comment\n\ndriver: claude\napprover:\n  mode: pattern\n', true],
    ['agent:\n  approver: {}\n---\nother: 1\n', true],
    ['agent: x\n- y\n', true],
    ['{\n  "approver": {"mode": "pattern"}\n}\n', true],
    ['allow: [\n', false],
    ['  agent: 1\n', true],
    ['name: x\n', false],
  ])('%j', (t, want) => {
    expect(textLooksLikePolicy(t)).toBe(byParsing(t));
    expect(textLooksLikePolicy(t)).toBe(want);
  });
});
