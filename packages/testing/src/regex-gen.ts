/**
 * Strings from a rule's regex: the pattern's syntax tree (`@verdict/analysis`, the one parser of
 * Go's regexp syntax, with exact character sets) becomes a fast-check arbitrary. The generator only
 * proposes: every "matching" sample is checked with the engine's own matcher and dropped when it
 * does not match, so an approximated construct (anchors in odd places, `\b`, capped repetition)
 * can cost samples, never correctness.
 */
import { type CharSet, intersect, parsedRegex, type RegexNode } from '@verdict/analysis';
import fc from 'fast-check';

export type { RegexNode };

const REPEAT_CAP = 4;

/** The tree of `pattern`, or `undefined` for a pattern the parser cannot model. */
export function parseRegex(pattern: string): RegexNode | undefined {
  return parsedRegex(pattern) ?? undefined;
}

const PRINTABLE: CharSet = [0x20, 0x7e];
/** Past this many members a set is "wide" (`.`, `[^a]`, `\pL`): drawn from its printable ASCII only. */
const WIDE = 0x1000;

function size(set: CharSet): number {
  let n = 0;
  for (let i = 0; i < set.length; i += 2) n += (set[i + 1] as number) - (set[i] as number) + 1;
  return n;
}

function charIn(set: CharSet): fc.Arbitrary<string> {
  // Prefer small, printable members: a set like [^a] would otherwise draw mostly rare characters.
  let ranges = size(set) > WIDE ? intersect(set, PRINTABLE) : set;
  if (ranges.length === 0) ranges = [0xe9, 0xe9];
  const picks: fc.Arbitrary<string>[] = [];
  for (let i = 0; i < ranges.length; i += 2) {
    const lo = ranges[i] as number;
    picks.push(fc.integer({ min: lo, max: Math.min(ranges[i + 1] as number, lo + 200) }).map((n) => String.fromCodePoint(n)));
  }
  return picks.length === 1 ? (picks[0] as fc.Arbitrary<string>) : fc.oneof(...picks);
}

/** An arbitrary of strings proposed by the tree (not yet checked against the engine). */
export function proposals(node: RegexNode): fc.Arbitrary<string> {
  switch (node.t) {
    case 'assert':
      return fc.constant('');
    case 'chars': {
      if (node.form === 'literal') {
        const ch = String.fromCodePoint(node.lit as number);
        // Under `(?i)` a letter is written in any case.
        const folds = node.set.length > 2 || node.set[0] !== node.set[1];
        return folds && ch.toLowerCase() !== ch.toUpperCase() ? fc.constantFrom(ch, ch.toLowerCase(), ch.toUpperCase()) : fc.constant(ch);
      }
      return charIn(node.set);
    }
    case 'cat':
      if (node.subs.length === 0) return fc.constant('');
      if (node.subs.length === 1) return proposals(node.subs[0] as RegexNode);
      return fc.tuple(...node.subs.map(proposals)).map((parts) => parts.join(''));
    case 'alt':
      return fc.oneof(...node.subs.map(proposals));
    case 'rep': {
      // Bounded: `*` and `+` up to REPEAT_CAP copies, `{n,}` and `{n,m}` up to n + REPEAT_CAP.
      const max = node.max >= 0 ? Math.min(node.max, node.min + REPEAT_CAP) : node.min <= 1 ? REPEAT_CAP : node.min + REPEAT_CAP;
      return fc.array(proposals(node.sub), { minLength: node.min, maxLength: max }).map((parts) => parts.join(''));
    }
  }
}

/** One-edit mutations of `s`: delete, insert, replace or re-case one character. */
export function mutations(s: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const ch = fc.constantFrom(' ', '-', '/', 'x', '0', '\\', '"', ';', 'é', '\t');
  return fc.tuple(s, fc.nat(), fc.constantFrom('delete', 'insert', 'replace', 'case', 'double'), ch).map(([text, at, op, c]) => {
    const chars = [...text];
    const i = chars.length === 0 ? 0 : at % (op === 'insert' ? chars.length + 1 : chars.length);
    switch (op) {
      case 'delete':
        chars.splice(i, 1);
        break;
      case 'insert':
        chars.splice(i, 0, c);
        break;
      case 'replace':
        if (chars.length) chars[i] = chars[i] === c ? 'y' : c;
        else chars.push(c);
        break;
      case 'case': {
        const x = chars[i] ?? '';
        chars[i] = x === x.toUpperCase() ? x.toLowerCase() : x.toUpperCase();
        break;
      }
      default:
        if (chars.length) chars.splice(i, 0, chars[i]!);
    }
    return chars.join('');
  });
}
