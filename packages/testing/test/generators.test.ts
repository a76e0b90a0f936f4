/** The generators: regex-derived strings, re-spellings, tool calls and repeated-key attacks. */
import { canonicalize, compileRegex } from '@verdict/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compact,
  decodedInput,
  duplicateKeys,
  effectiveCall,
  fromValue,
  matching,
  nearMiss,
  parseJson,
  parseRegex,
  PLAIN_SPELLING,
  respell,
  spelling,
  toolCall,
  toolInput,
} from '../src/index.ts';

const PATTERNS = [
  'rm\\s+-rf',
  'git (status|diff|log)( --oneline)?',
  '^\\{"command":"ls"',
  '(?i)sudo',
  '[[:alpha:]]+\\d{2,3}',
  '\\Qa.b*c\\E',
  'curl .*\\| *(ba)?sh',
  '[^a-z]x',
  '\\bfoo\\b',
  '\\x{263a}|\\pL',
  '(?s)a.b$',
  '/workspace(/[^./][^/]*)+',
  'https?://(www\\.)?github\\.com/',
  '(?P<name>ab)+c?',
  '',
];

describe('matching', () => {
  for (const p of PATTERNS) {
    it(`every sample matches \`${p}\`, as the engine decides`, () => {
      const re = compileRegex(p);
      if (!re.ok) throw new Error(re.error);
      fc.assert(fc.property(matching(p), (s) => re.regex.test(s)), { seed: 1, numRuns: 100 });
    });
  }
  it('whole-string samples match the whole string (field rules)', () => {
    const re = compileRegex('ls|pwd');
    if (!re.ok) throw new Error(re.error);
    fc.assert(fc.property(matching('ls|pwd', { whole: true }), (s) => re.regex.testWhole(s) && (s === 'ls' || s === 'pwd')), { seed: 1 });
  });
  it('throws on an invalid regex, with Go\'s error text', () => {
    expect(() => matching('a(')).toThrow('error parsing regexp: missing closing ): `a(`');
  });
  it('throws when nothing can match', () => {
    expect(() => matching('$a')).toThrow('cannot generate strings that match `$a`');
  });
  it('parses the common syntax and declines lookaround-free but unknown syntax', () => {
    expect(parseRegex('a|b')).toMatchObject({ t: 'alt' });
    expect(parseRegex('x{2,5}')).toMatchObject({ t: 'cat', subs: [{ t: 'rep', min: 2, max: 5 }] });
    expect(parseRegex('(?i)x')).toMatchObject({ t: 'cat', subs: [{ t: 'chars', form: 'literal', lit: 0x78, set: [0x58, 0x58, 0x78, 0x78] }] });
    expect(parseRegex('\\C')).toBeUndefined();
  });
});

/**
 * Whether one edit (delete, insert, replace or re-case one character) turns `s` into a string
 * `matches` accepts. Inserted and replacing characters come from `alphabet`.
 */
function oneEditFromMatch(s: string, matches: (t: string) => boolean, alphabet: readonly string[]): boolean {
  const chars = [...s];
  const edited = (i: number, remove: number, put: string): string => [...chars.slice(0, i), put, ...chars.slice(i + remove)].join('');
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] ?? '';
    if (matches(edited(i, 1, ''))) return true;
    for (const x of new Set([c.toLowerCase(), c.toUpperCase()])) if (x !== c && matches(edited(i, 1, x))) return true;
  }
  for (let i = 0; i <= chars.length; i++) {
    for (const x of alphabet) {
      if (matches(edited(i, 0, x))) return true;
      if (i < chars.length && x !== chars[i] && matches(edited(i, 1, x))) return true;
    }
  }
  return false;
}

describe('nearMiss', () => {
  for (const p of PATTERNS.filter((x) => x !== '' && x !== '\\x{263a}|\\pL')) {
    it(`no sample matches \`${p}\`, and each is one edit from a match`, () => {
      const re = compileRegex(p);
      if (!re.ok) throw new Error(re.error);
      // What an edit may put back: the pattern's own characters and a few of each class.
      const alphabet = [...new Set([...p, ...'aAzZ09 -/x"\\;\t\né☺y'])];
      fc.assert(
        fc.property(nearMiss(p), (s) => !re.regex.test(s) && oneEditFromMatch(s, (t) => re.regex.test(t), alphabet)),
        { seed: 1, numRuns: 100 },
      );
    });
  }
  it('one edit from a match means one: two edits away is not', () => {
    const re = compileRegex('^abc$');
    if (!re.ok) throw new Error(re.error);
    const matches = (t: string): boolean => re.regex.test(t);
    expect(oneEditFromMatch('abX', matches, ['c'])).toBe(true);
    expect(oneEditFromMatch('abcc', matches, [])).toBe(true);
    expect(oneEditFromMatch('aXX', matches, ['b', 'c'])).toBe(false);
  });
  it('finds the flag orders a deny rule forgot', () => {
    const samples = fc.sample(nearMiss('rm -rf'), { seed: 1, numRuns: 300 });
    expect(samples.some((s) => /rm\s+-\w*/.test(s))).toBe(true);
  });
  it('throws when a pattern matches everything', () => {
    expect(() => nearMiss('.*')).toThrow('cannot generate near misses of `.*`');
  });
});

describe('respell', () => {
  const values = fc.jsonValue({ maxDepth: 3 }).map((v) => fromValue(v));
  it('the plain spelling is the compact JSON.stringify text', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => respell(fromValue(v), PLAIN_SPELLING) === JSON.stringify(v)), { seed: 1 });
  });
  it('every spelling decodes to the same value and has the same canonical text', () => {
    fc.assert(
      fc.property(values, spelling(), (v, s) => {
        const text = respell(v, s);
        expect(JSON.parse(text)).toEqual(JSON.parse(compact(v)));
        const a = canonicalize(text);
        const b = canonicalize(compact(v));
        expect(a.ok && b.ok ? a.text === b.text : a.ok === b.ok).toBe(true);
      }),
      { seed: 1, numRuns: 300 },
    );
  });
  it('spells escapes, slashes and whitespace', () => {
    const v = parseJson('{"b":"a/b","a":1.0}')!;
    expect(respell(v, { order: 'sorted', space: ' ', spaces: [0, 2], escapes: [0], upperHex: true, slash: true })).toBe(
      '{ "\\u0061": 1.0,"b":"a\\/b"}',
    );
  });
  it('keeps the order of an object that repeats a key (there, order decides the value)', () => {
    const v = parseJson('{"c":"ls","c":"rm -rf /"}')!;
    expect(respell(v, { ...PLAIN_SPELLING, order: 'reversed' })).toBe('{"c":"ls","c":"rm -rf /"}');
  });
});

describe('tool calls', () => {
  it('inputs are JSON objects shaped by the tool', () => {
    fc.assert(
      fc.property(toolCall(), (c) => {
        const v = JSON.parse(c.input) as Record<string, unknown>;
        const t = c.tool.toLowerCase();
        if (t === 'bash') expect(typeof v['command']).toBe('string');
        if (t === 'edit') expect(Object.keys(v).sort()).toEqual(['file_path', 'new_string', 'old_string']);
        if (t === 'webfetch' || t === 'web_fetch') expect(String(v['url'])).toMatch(/^[a-zA-Z]+:\/\//);
      }),
      { seed: 1 },
    );
  });
  it('a string input is raw text; a value is its JSON text', () => {
    const [a] = fc.sample(toolCall({ tool: 'bash', input: 'not json' }), { seed: 1, numRuns: 1 });
    expect(a).toEqual({ tool: 'bash', input: 'not json' });
    const [b] = fc.sample(toolCall({ tool: 'read', input: fc.constant({ path: '/x' }) }), { seed: 1, numRuns: 1 });
    expect(b).toEqual({ tool: 'read', input: '{"path":"/x"}' });
    expect(fc.sample(toolInput('Bash'), { seed: 1, numRuns: 5 }).every((v) => typeof (v as { command: unknown }).command === 'string')).toBe(true);
  });
  it('predicates see the value Go decodes: the last repeated key wins', () => {
    expect(decodedInput({ tool: 'bash', input: '{"command":"ls","command":"rm -rf /"}' })).toEqual({ command: 'rm -rf /' });
    expect(decodedInput({ tool: 'bash', input: 'not json' })).toBeUndefined();
    expect(decodedInput({ tool: 'bash', input: '' })).toEqual({});
  });
  it('duplicateKeys puts the decoy first and the payload last', () => {
    fc.assert(
      fc.property(duplicateKeys({ tool: 'bash' }), (c) => {
        const v = parseJson(c.input)!;
        expect(v.kind === 'object' && v.members.length).toBe(2);
        const [k1, k2] = v.kind === 'object' ? v.members.map(([k]) => k) : [];
        // exact repeats collapse to the last value; a re-cased key is another key to JSON.parse and
        // Go maps (only canonical mode folds it, and rejects the input)
        expect(effectiveCall(c).input !== c.input).toBe(k1 === k2);
      }),
      { seed: 1, numRuns: 50 },
    );
  });
});
