/**
 * A seeded generator of (policy, request lines) cases for the Go differential test. Each case is a
 * JSON policy file's text (pattern mode, raw or canonical input, tool, match and field rules) and the
 * bytes of a few `verdict eval` request lines. Patterns are built from atoms covering every RE2
 * syntax class, together with texts that match them; requests are built from those texts, then
 * mutated: astral characters at the atoms' positions, lone surrogate escapes, invalid UTF-8 bytes,
 * repeated keys, case-folded tool names. Some rules hold invalid patterns (the error text is compared).
 *
 * Characters come from a fixed pool whose Unicode properties (category, script, case folding) are the
 * same in Unicode 13.0 (Go 1.19, Debian bookworm's Go) and in the tables Verdict uses (Unicode 16.0,
 * re2js): see README.md, "What is left out of the comparison".
 */

/** mulberry32: small, fast, and the same sequence on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GoCase {
  /** `seed S case N`, for the report and the list of expected mismatches. */
  name: string;
  /** The policy file's text (JSON). */
  policy: string;
  /** Request lines, as bytes, without their newline. */
  lines: Uint8Array[];
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const chance = (r: Rand, p: number): boolean => r() < p;

/**
 * Characters whose properties did not change between Unicode 13.0 and 16.0: ASCII, Latin-1, the
 * case-folding specials every Go release folds the same way (`ſ` with `s`, KELVIN SIGN with `k`,
 * `ß` with `ẞ`, `Σ σ ς`), Cyrillic, Han, an emoji, Deseret (an astral case pair), a mathematical
 * letter, the line separators and a few controls.
 */
export const POOL: readonly string[] = [
  'a', 'b', 'd', 'k', 'K', 'l', 'm', 'o', 'r', 's', 'S', 'u', 'x', 'A', 'Z', '0', '7',
  ' ', '-', '/', '.', '*', '"', '\\', '{', '}', ':', ',', ';', '|',
  '\t', '\n', '\r', '\b', '\f', '\u0000', '\u007f',
  'é', 'É', 'ß', 'ẞ', 'ÿ', 'Ÿ', 'ſ', '\u212a', 'Σ', 'σ', 'ς', 'ж', 'Ж', '中', 'ひ',
  '😀', '𐐀', '𐐨', '𝐀', '\u2028', '\u2029', '\ufffd', '\u00a0',
];

/** Placeholders (private use) replaced by invalid UTF-8 byte sequences once a line is encoded. */
export const INVALID: ReadonlyMap<string, readonly number[]> = new Map([
  ['\ue000', [0xe2, 0x82]], // a truncated 3-byte sequence (Go: two U+FFFD)
  ['\ue001', [0xff]],
  ['\ue002', [0xc0, 0x80]], // an overlong NUL
  ['\ue003', [0xed, 0xa0, 0x80]], // an encoded surrogate
  ['\ue004', [0xf0, 0x9f, 0x98]], // a truncated emoji
  ['\ue005', [0x80, 0x80, 0x80]],
]);
const INVALID_KEYS = [...INVALID.keys()];

/** A pattern piece and a way to make text that (usually) matches it. */
interface Atom {
  src: string;
  text: (r: Rand) => string;
}

/**
 * What tells a UTF-16 or WHATWG reading from Go's byte-wise one: astral characters (two UTF-16 units,
 * one character) and invalid UTF-8 placeholders (Go: one U+FFFD per invalid byte).
 */
const EDGE = ['😀', '𐐀', '𝐀', '😀', '\ue000', '\ue004', '\ue002', '\ufffd'];
const any = (r: Rand): string => (chance(r, 0.4) ? pick(r, EDGE) : pick(r, POOL));
const anyButNl = (r: Rand): string => {
  const c = any(r);
  return c === '\n' ? 'x' : c;
};
const fixed = (s: string) => () => s;
const flipCase = (r: Rand, s: string): string =>
  [...s]
    .map((c) => {
      if (c === 's' && chance(r, 0.2)) return 'ſ';
      if (c === 'k' && chance(r, 0.3)) return '\u212a';
      return chance(r, 0.5) ? c.toUpperCase() : c;
    })
    .join('');

export const ATOMS: readonly Atom[] = [
  { src: 'ls', text: fixed('ls') },
  { src: 'rm', text: fixed('rm') },
  { src: 'sudo', text: fixed('sudo') },
  { src: 's', text: fixed('s') },
  { src: 'do ', text: fixed('do ') },
  { src: '.', text: anyButNl },
  { src: '..', text: (r) => (chance(r, 0.3) ? '\ue000' : anyButNl(r) + anyButNl(r)) },
  { src: '...', text: (r) => (chance(r, 0.3) ? '\ue004' : anyButNl(r) + anyButNl(r) + anyButNl(r)) },
  { src: '(?s:.)', text: any },
  { src: '(?s).', text: any },
  { src: '\\.', text: fixed('.') },
  { src: '[a-z]', text: (r) => pick(r, ['a', 'k', 'z', 'ſ', 'K']) },
  { src: '[^a-z]', text: any },
  { src: '[^\\n]', text: any },
  { src: '[[:alpha:]]', text: any },
  { src: '[[:^space:]]', text: any },
  { src: '\\d', text: (r) => pick(r, ['0', '7', 'x']) },
  { src: '\\D', text: any },
  { src: '\\w', text: any },
  { src: '\\W', text: any },
  { src: '\\s', text: (r) => pick(r, [' ', '\t', '\n', '\u00a0', '\u2028']) },
  { src: '\\S', text: any },
  { src: '\\pL', text: any },
  { src: '\\PL', text: any },
  { src: '\\p{Greek}', text: (r) => pick(r, ['σ', 'Σ', 'ς', 'a']) },
  { src: '\\p{^Greek}', text: any },
  { src: '\\pN', text: any },
  { src: '\\p{Han}', text: (r) => pick(r, ['中', 'ひ']) },
  { src: '\\p{Lu}', text: any },
  { src: '[\\p{Ll}\\d]', text: any },
  { src: '\\x{1F600}', text: fixed('😀') },
  { src: '\\x{10400}', text: (r) => pick(r, ['𐐀', '𐐨']) },
  { src: '\\x41', text: fixed('A') },
  { src: '\\x{FFFD}', text: (r) => pick(r, ['\ufffd', '\ue000', '\ue001']) },
  { src: '[\\x{1F000}-\\x{1FFFF}]', text: any },
  { src: '\\Q.*\\E', text: fixed('.*') },
  { src: '(?i:sudo)', text: (r) => flipCase(r, 'sudo') },
  { src: '(?i)k', text: (r) => flipCase(r, 'k') },
  { src: '(?i:σ)', text: (r) => pick(r, ['Σ', 'σ', 'ς']) },
  { src: '(?i:ß)', text: (r) => pick(r, ['ß', 'ẞ', 'ss']) },
  { src: '(?i:𐐀)', text: (r) => pick(r, ['𐐀', '𐐨']) },
  { src: '(ls|pwd)', text: (r) => pick(r, ['ls', 'pwd']) },
  { src: '(?:ab)+', text: (r) => 'ab'.repeat(1 + Math.floor(r() * 3)) },
  { src: 'x*', text: (r) => 'x'.repeat(Math.floor(r() * 3)) },
  { src: 'x+?', text: fixed('xx') },
  { src: 'y{2}', text: fixed('yy') },
  { src: '.{2,3}', text: (r) => anyButNl(r) + anyButNl(r) + anyButNl(r) },
  { src: 'a?', text: fixed('a') },
  { src: '(?U)a+', text: fixed('aa') },
  { src: '^', text: fixed('') },
  { src: '$', text: fixed('') },
  { src: '(?m:^)', text: fixed('') },
  { src: '(?m:$)', text: fixed('') },
  { src: '\\A', text: fixed('') },
  { src: '\\z', text: fixed('') },
  { src: '\\b', text: fixed('') },
  { src: '\\B', text: fixed('') },
  { src: '(?P<n>ls)', text: fixed('ls') },
  { src: '(?P<c>ls)|(?P<c>pwd)', text: (r) => pick(r, ['ls', 'pwd']) },
  { src: '"command":"', text: fixed('"command":"') },
];

/** Patterns Go refuses, each with a different error (the text must be Go's). */
export const INVALID_PATTERNS: readonly string[] = [
  '(',
  'a)',
  'a**',
  '*a',
  'a{1001}',
  '\\u263a',
  '\\cA',
  '\\C',
  'x(?<=y)',
  '(?!x)',
  '[z-a]',
  '\\8',
  '(?P<>a)',
  '(?P<a!>x)',
  'a\\',
  '[[:foo:]]',
  '\\p{Foo}',
  '(?i',
  '[a',
  'x{2}{3}',
  'a++',
  '\\Z',
  '(?#c)',
  '((a{1000}){1000}){1000}',
  '('.repeat(1001) + ')'.repeat(1001),
  '\\pN{2}**',
  '[\\d-z]',
  'x{2,1}',
];

const TOOLS = ['', 'bash', 'Bash', 'read', 'kubectl', 'σhell', 'ſed'];
const REQUEST_TOOLS = ['bash', 'BASH', 'bAsh', 'read', 'READ', 'kubectl', '\u212aubectl', 'Σhell', 'ςhell', 'sed', 'SED', 'write', 'ba\ufffdsh'];
const FIELDS = ['command', 'Command', 'path'];

interface GenRule {
  tool?: string;
  match?: string;
  field?: string;
}

/** Go 1.22+ syntax. */
const NAMED_GO_122: Atom = { src: '(?<n>rm)', text: fixed('rm') };

const LITERALS: readonly Atom[] = ['s', 'x', '/', '-', 'do ', 'rm', 'ls', 'sudo', 'a -'].map((w) => ({ src: w.replace('/', '\\/'), text: fixed(w) }));
/** `.` and the classes that match every character but `\n`: they step over any character there is. */
const DOTS: readonly Atom[] = ATOMS.filter((a) => ['.', '(?s:.)', '[^\\n]', '\\PL', '\\W'].includes(a.src));
/** The atoms that are one character class (what a search steps over one character at a time). */
const CLASSES: readonly Atom[] = ATOMS.filter((a) => /^(?:\.|\(\?s[:)]\.\)?|\[.*\]|\\[dDwWsSpP](?:\{[^}]*\}|[A-Z])?)$/.test(a.src));

/**
 * A pattern and the atoms it is made of (to make matching texts from): half of them a class between
 * two literals (`s.do `: what a search that skips ahead must get right), the others 1 to 4 atoms.
 */
function genPattern(r: Rand): { src: string; atoms: Atom[] } {
  const atoms: Atom[] = [];
  if (chance(r, 0.5)) {
    // A one-character literal first: the search then looks for it and must step the class after it.
    atoms.push(pick(r, chance(r, 0.6) ? LITERALS.slice(0, 4) : LITERALS));
    for (let i = chance(r, 0.7) ? 1 : 2; i > 0; i--) atoms.push(pick(r, chance(r, 0.5) ? DOTS : chance(r, 0.6) ? CLASSES : ATOMS));
    atoms.push(pick(r, LITERALS));
  } else {
    for (let i = 1 + Math.floor(r() * 4); i > 0; i--) atoms.push(pick(r, ATOMS));
  }
  // Rare: Go 1.21 and older refuse `(?<name>…)`, so on them the whole case is left out.
  if (chance(r, 0.02)) atoms.push(NAMED_GO_122);
  return { src: atoms.map((a) => a.src).join(''), atoms };
}

/** `text` with a few characters replaced or inserted: astral, invalid bytes, separators. */
function mutate(r: Rand, text: string): string {
  const chars = [...text];
  const k = Math.floor(r() * 3);
  for (let i = 0; i < k; i++) {
    const at = Math.floor(r() * (chars.length + 1));
    const c = chance(r, 0.35) ? pick(r, INVALID_KEYS) : chance(r, 0.5) ? pick(r, ['😀', '𐐀', '\ud800', '\udc00']) : any(r);
    if (chance(r, 0.5) && at < chars.length) chars[at] = c;
    else chars.splice(at, 0, c);
  }
  return chars.join('');
}

/** A JSON string literal of `s`, some characters written as `\uXXXX` escapes (lone surrogates always). */
function jsonString(r: Rand, s: string, escapeRate: number): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    const lone =
      (c >= 0xd800 && c <= 0xdbff && !(s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff)) ||
      (c >= 0xdc00 && c <= 0xdfff && !(s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff));
    if (INVALID.has(ch)) out += ch; // stays a placeholder until the bytes are made
    else if (lone || c < 0x20 || (escapeRate > 0 && chance(r, escapeRate))) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else out += ch;
  }
  return out + '"';
}

/** UTF-8 bytes of `text`, with each placeholder replaced by its invalid sequence. */
function bytesOf(text: string): Uint8Array {
  const parts = text.split(/([\ue000-\ue005])/);
  return Buffer.concat(parts.map((p, i) => (i % 2 === 1 ? Buffer.from(INVALID.get(p)!) : Buffer.from(p, 'utf8'))));
}

/** The raw tool input (JSON text, or not) of one request. */
function genInput(r: Rand, texts: string[]): string {
  const w = texts.length > 0 && chance(r, 0.85) ? pick(r, texts) : '';
  const v = chance(r, 0.5) ? mutate(r, w) : w;
  const str = (s: string) => jsonString(r, s, 0.05);
  switch (Math.floor(r() * 12)) {
    case 0:
      return pick(r, ['', '  ', 'not json', '{"a":', '{} {}', '[1,2]', 'null', '"str"']);
    case 1:
      return `{"command":${str(v)},"command":${str('ls')}}`;
    case 2:
      return `{"Command":${str(v)},"command":"ls"}`;
    case 3:
      return `{"n":1e999,"m":-0,"command":${str(v)},"x":{"k":1,"\\u212a":2}}`;
    case 4:
      return `{ "command" : ${str(v)} , "path":"/tmp/x" }`;
    case 5:
      return `{"command":[${str(v)}]}`;
    case 6:
      return v; // not JSON, usually
    case 7:
      return `{"path":${str(v)},"\\uffff":2,"😀":1,"a":3}`;
    case 8:
      return `{"COMMAND":${str(v)}}`;
    default:
      return `{"command":${str(v)}}`;
  }
}

/** Lines that are no request (Go cannot decode them into the request struct): each must be a deny. */
const BAD_LINES = ['not json', '[1]', '{"input":"x"}', '{"toolName":1,"input":"x"}', '{"toolName":null}', '{"toolName":"bash","input":"x"', '"bash"'];

/** One request line: the envelope with a string `input`, as bytes. */
function genLine(r: Rand, texts: string[]): Uint8Array {
  if (chance(r, 0.03)) return bytesOf(pick(r, BAD_LINES));
  const tool = pick(r, REQUEST_TOOLS);
  const input = genInput(r, texts);
  const parts = [`"toolName":${jsonString(r, tool, 0.1)}`];
  if (input !== '' || chance(r, 0.5)) parts.push(`"input":${jsonString(r, input, 0.05)}`);
  if (chance(r, 0.5)) parts.push(`"sessionId":"s1"`);
  return bytesOf(`{${parts.join(',')}}`);
}

/** A case: a policy and its request lines. */
export function genCase(r: Rand, name: string): GoCase {
  const texts: string[] = [];
  const rule = (): GenRule => {
    const g: GenRule = {};
    if (chance(r, 0.7)) g.tool = pick(r, TOOLS);
    if (chance(r, 0.04)) g.match = pick(r, INVALID_PATTERNS);
    else if (chance(r, 0.9)) {
      const p = genPattern(r);
      g.match = p.src;
      for (let i = 0; i < 2; i++) texts.push(p.atoms.map((a) => a.text(r)).join(''));
    }
    if (chance(r, 0.15)) g.field = pick(r, FIELDS);
    return g;
  };
  const deny = Array.from({ length: Math.floor(r() * 4) }, rule);
  const allow = Array.from({ length: Math.floor(r() * 4) }, rule);
  const canonical = chance(r, 0.3);
  const ruleJson = (g: GenRule): string => {
    const fields: string[] = [];
    if (g.tool !== undefined) fields.push(`"tool":${jsonString(r, g.tool, 0)}`);
    // Patterns are sometimes written with \u escapes, a lone surrogate among them (Go decodes it to U+FFFD).
    if (g.match !== undefined) {
      const m = chance(r, 0.05) ? g.match + '\ud800' : g.match;
      fields.push(`"match":${jsonString(r, m, chance(r, 0.2) ? 0.3 : 0)}`);
    }
    if (g.field !== undefined) fields.push(`"field":${jsonString(r, g.field, 0)}`);
    return `{${fields.join(',')}}`;
  };
  const approver = [
    `"mode":${pick(r, ['"pattern"', '"pattern"', '" Pattern "'])}`,
    `"default":${pick(r, ['"allow"', '"deny"', '"ALLOW"', '""'])}`,
    `"reason":${pick(r, ['""', '"no"', '"denied: \\u00e9"'])}`,
    `"input":${canonical ? '"canonical"' : '"raw"'}`,
    `"deny":[${deny.map(ruleJson).join(',')}]`,
    `"allow":[${allow.map(ruleJson).join(',')}]`,
  ];
  const policy = `{"approver":{${approver.join(',')}}}\n`;
  const n = 4 + Math.floor(r() * 6);
  const lines = Array.from({ length: n }, () => genLine(r, texts));
  return { name, policy, lines };
}

/** `count` cases from `seed`. */
export function genCases(seed: number, count: number): GoCase[] {
  const r = rng(seed);
  return Array.from({ length: count }, (_, i) => genCase(r, `seed ${seed} case ${i}`));
}
