/**
 * Perl and PCRE constructs RE2 rejects, found by reading the pattern text (escapes and classes
 * skipped). Only consulted for patterns the engine has already refused.
 */
export type UnsupportedKind =
  | 'lookahead'
  | 'lookbehind'
  | 'atomic'
  | 'backreference'
  | 'possessive'
  | 'bigZ'
  | 'unicodeEscape'
  | 'controlEscape'
  | 'repeatCount';

export interface UnsupportedConstruct {
  kind: UnsupportedKind;
  /** The construct as written. */
  text: string;
  /** Offset in the pattern. */
  offset: number;
}

export function unsupportedConstruct(p: string): UnsupportedConstruct | undefined {
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      const n = p[i + 1] ?? '';
      if (n === 'Q') {
        const e = p.indexOf('\\E', i + 2);
        if (e < 0) return undefined;
        i = e + 1;
        continue;
      }
      if (!inClass && /[1-9]/.test(n)) return { kind: 'backreference', text: `\\${n}`, offset: i };
      if (!inClass && n === 'k' && p[i + 2] === '<') return { kind: 'backreference', text: p.slice(i, p.indexOf('>', i) + 1 || undefined), offset: i };
      if (n === 'Z') return { kind: 'bigZ', text: '\\Z', offset: i };
      if (n === 'u') return { kind: 'unicodeEscape', text: p.slice(i, i + 6), offset: i };
      if (n === 'c') return { kind: 'controlEscape', text: p.slice(i, i + 3), offset: i };
      // `\x{263a}`, `\p{Greek}`: the braces belong to the escape (a `+` after them is a plain repeat).
      if ((n === 'x' || n === 'p' || n === 'P') && p[i + 2] === '{') {
        const close = p.indexOf('}', i + 3);
        if (close > 0) {
          i = close;
          continue;
        }
      }
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (p[i + 1] === '^') i++;
      if (p[i + 1] === ']') i++;
      continue;
    }
    if (c === '(' && p[i + 1] === '?') {
      const rest = p.slice(i + 2);
      if (rest.startsWith('=') || rest.startsWith('!')) return { kind: 'lookahead', text: `(?${rest[0]}`, offset: i };
      if (rest.startsWith('<=') || rest.startsWith('<!')) return { kind: 'lookbehind', text: `(?${rest.slice(0, 2)}`, offset: i };
      if (rest.startsWith('>')) return { kind: 'atomic', text: '(?>', offset: i };
      if (rest.startsWith('P=')) return { kind: 'backreference', text: p.slice(i, p.indexOf(')', i) + 1 || undefined), offset: i };
      continue;
    }
    if ((c === '*' || c === '+' || c === '?' || c === '}') && p[i + 1] === '+' && i > 0) {
      return { kind: 'possessive', text: `${c}+`, offset: i };
    }
    if (c === '{') {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(p.slice(i));
      if (m && (Number(m[1]) > 1000 || (m[2] !== undefined && m[2] !== '' && Number(m[2]) > 1000))) {
        return { kind: 'repeatCount', text: m[0], offset: i };
      }
    }
  }
  return undefined;
}
