/**
 * Literal screens: a check costing one native string search that rules a pattern out without
 * running it. A screen never rejects a subject its regex matches; when it cannot say, it is `run`.
 *
 * Screens are read from what re2js already computed when it compiled the pattern (its program and
 * its prefilter tree: the literals any match must contain), so they are exactly the tests re2js
 * itself would make first, done here without building a matcher input for every rule:
 * - `literal`: the whole pattern is a literal (re2js `prefixComplete`): matches iff the subject
 *   contains it.
 * - `check`: the pattern starts with `^` (beginning of text, no `(?m)`) followed by literal
 *   characters, so a subject that does not start with them cannot match; and/or every match contains
 *   one literal of each of a few groups (re2js's prefilter tree, case-sensitive parts only).
 * - `run`: nothing cheap is known; the regex runs.
 *
 * re2js internals are read through `regex/re2-program.ts`; `fast.test.ts` checks screens against the regex.
 */
import { MatcherInput, RE2Set } from 're2js';
import type { RE2JS } from 're2js';
import {
  ALT as OP_ALT,
  BEGIN_TEXT as EMPTY_BEGIN_TEXT,
  CAPTURE as OP_CAPTURE,
  EMPTY_WIDTH as OP_EMPTY_WIDTH,
  END_TEXT as EMPTY_END_TEXT,
  FAIL as OP_FAIL,
  FOLD_CASE,
  internalsOf,
  MATCH as OP_MATCH,
  NOP as OP_NOP,
  PF_AND,
  PF_EXACT,
  PF_NONE,
  PF_OR,
  RUNE as OP_RUNE,
  RUNE1 as OP_RUNE1,
  WORD_BOUNDARY as EMPTY_WORD_BOUNDARY,
} from '../regex/re2-program.ts';
import type { Prefilter, Prog } from '../regex/re2-program.ts';

export type Screen =
  | { readonly kind: 'literal'; readonly needle: string }
  | {
      readonly kind: 'check';
      /** The subject must start with this (`""`: no anchor known). */
      readonly prefix: string;
      /** For each group, the subject must contain one of its literals. */
      readonly groups: readonly (readonly string[])[];
      /**
       * Unanchored patterns that begin with a literal (no assertion before it): every match starts
       * at an occurrence of `lead`, so the regex only needs trying there (`""`: unknown).
       */
      readonly lead: string;
      /** The pattern starts with `^` (beginning of text): only an anchored match at 0 can exist. */
      readonly anchored: boolean;
    }
  | { readonly kind: 'run' };

const RUN: Screen = { kind: 'run' };
/** More literals than this (in one group, or in all) cost more than running the regex. */
const MAX_NEEDLES = 8;

function searchable(cp: number): boolean {
  return !(cp === 0xfffd || (cp >= 0xd800 && cp <= 0xdfff));
}

/** Whether the program starts with `^` (beginning of text), and the literal that must follow it. */
function anchoredPrefix(prog: Prog): { anchored: boolean; prefix: string } {
  let pc = prog.start;
  let anchored = false;
  let inst = prog.inst[pc]!;
  // Leading no-ops and empty-width assertions; only a plain beginning-of-text anchor is understood.
  for (;;) {
    if (inst.op === OP_NOP || inst.op === OP_CAPTURE) {
      pc = inst.out;
    } else if (inst.op === OP_EMPTY_WIDTH) {
      if (inst.arg !== EMPTY_BEGIN_TEXT) return { anchored: false, prefix: '' };
      anchored = true;
      pc = inst.out;
    } else break;
    inst = prog.inst[pc]!;
  }
  if (!anchored) return { anchored: false, prefix: '' };
  let prefix = '';
  for (;;) {
    if (inst.op === OP_NOP || inst.op === OP_CAPTURE) {
      inst = prog.inst[inst.out]!;
      continue;
    }
    if ((inst.op !== OP_RUNE && inst.op !== OP_RUNE1) || inst.runes.length !== 1) break;
    if ((inst.arg & FOLD_CASE) !== 0) break;
    const cp = inst.runes[0]!;
    if (!searchable(cp)) break;
    prefix += String.fromCodePoint(cp);
    inst = prog.inst[inst.out]!;
  }
  return { anchored: true, prefix };
}

/**
 * Groups of literals such that any match contains one literal of every group (an AND of ORs read
 * off re2js's prefilter tree), or `null` when nothing is known.
 */
function groups(pf: Prefilter | null): string[][] | null {
  if (pf === null) return null;
  switch (pf.type) {
    case PF_EXACT:
      return pf.str === '' ? null : [[pf.str]];
    case PF_AND: {
      const all: string[][] = [];
      for (const sub of pf.subs) {
        const g = groups(sub);
        if (g !== null) for (const x of g) all.push(x);
      }
      return all.length === 0 ? null : all;
    }
    case PF_OR: {
      // Each alternative requires one literal of its first group: their union is required.
      const union: string[] = [];
      for (const sub of pf.subs) {
        const g = groups(sub);
        if (g === null || g[0] === undefined) return null;
        for (const x of g[0]) union.push(x);
        if (union.length > MAX_NEEDLES) return null;
      }
      return union.length === 0 ? null : [union];
    }
    case PF_NONE:
    default:
      return null;
  }
}

/** JSON keys (`"file_path":"`) are in almost every input: check them last. */
function common(group: readonly string[]): boolean {
  return group.every((n) => /^"[\w-]*":?"?$/.test(n));
}

/** The groups worth checking: selective ones first, one-character and JSON-key ones last, bounded. */
function pickGroups(all: string[][]): string[][] {
  const short = (g: readonly string[]) => g.some((n) => n.length < 2);
  const ordered = [
    ...all.filter((g) => !common(g) && !short(g)),
    ...all.filter((g) => !common(g) && short(g)),
    ...all.filter(common),
  ];
  const kept: string[][] = [];
  let count = 0;
  for (const g of ordered) {
    if (count + g.length > MAX_NEEDLES) continue;
    kept.push(g);
    count += g.length;
  }
  return kept;
}

/** The cheapest sound screen for an unanchored search with `re`. */
export function screenFor(re: RE2JS): Screen {
  const r = internalsOf(re);
  if (r === null) return RUN;
  if (r.prefixComplete && typeof r.prefix === 'string' && r.prefix !== '') return { kind: 'literal', needle: r.prefix };
  const { anchored, prefix } = anchoredPrefix(r.prog);
  const g = pickGroups(groups(r.prefilter) ?? []);
  // re2js's `prefix` is the program's leading run of plain characters; a program that starts with
  // an assertion (`^`, `\b`) has none.
  const lead = !anchored && typeof r.prefix === 'string' && r.prefix.length >= 2 ? r.prefix : '';
  if (!anchored && g.length === 0 && lead === '') return RUN;
  return { kind: 'check', prefix, groups: g, lead, anchored };
}

/** Whether `subject` passes `screen` (a `literal` screen that passes is a match). */
export function passes(screen: Screen, subject: string): boolean {
  switch (screen.kind) {
    case 'literal':
      return subject.includes(screen.needle);
    case 'check':
      return checks(screen.prefix, screen.groups, subject);
    case 'run':
      return true;
  }
}

/** The `check` screen's test, shared with the decision loop. */
export function checks(prefix: string, groups: readonly (readonly string[])[], subject: string): boolean {
  if (prefix !== '' && !subject.startsWith(prefix)) return false;
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i]!;
    let hit = false;
    for (let j = 0; j < g.length && !hit; j++) hit = subject.includes(g[j]!);
    if (!hit) return false;
  }
  return true;
}

/**
 * Whether `re` matches at the start of `subject` (Go's anchored match, no captures). re2js's public
 * `lookingAt` asks for the match bounds, which rules out its DFA; this runs the anchored DFA, which
 * stops as soon as no match can start at 0 (an unanchored `test` of `^(?:…)` would read to the end).
 */
export function matchesAtStart(re: RE2JS, subject: string): boolean {
  const r = internalsOf(re);
  if (r === null || typeof r.matchMachineInput !== 'function') return re.matcher(subject).lookingAt();
  return r.matchMachineInput(MatcherInput.utf16(subject), 0, subject.length, RE2Set.ANCHOR_START, 0)[0] === true;
}

/** Literal paths: at most this many, a screen's each of at least `MIN_PATH_LEN` characters, at most `MAX_PATH_LEN`. */
const MAX_PATHS = 8;
const MIN_PATH_LEN = 3;
const MAX_PATH_LEN = 64;

const hex = (u: number) => `\\u${u.toString(16).padStart(4, '0')}`;

/**
 * The JavaScript class (code-unit mode) of the characters a rune instruction accepts, or `null` when
 * it is not one known character. A folded ASCII letter accepts its Go simple-fold orbit: both cases,
 * plus U+212A for k and U+017F for s; other folded characters are not handled.
 */
function unitClass(rune: number, fold: boolean): string | null {
  if (!searchable(rune) || rune > 0xffff) return null;
  const lower = rune | 0x20;
  const letter = lower >= 0x61 && lower <= 0x7a;
  if (!fold || !letter) return fold && rune > 0x7f ? null : hex(rune);
  const extra = lower === 0x6b ? hex(0x212a) : lower === 0x73 ? hex(0x17f) : '';
  return `[${hex(lower & ~0x20)}${hex(lower)}${extra}]`;
}

/**
 * The JavaScript text (no flags) of an empty-width assertion that means exactly what it means to
 * re2js, or `null`: beginning and end of text are `^` and `$`; RE2's `\b` is ASCII, as JavaScript's
 * is without the `u` and `i` flags (a surrogate is not a word character in either, so no boundary
 * falls inside a pair). Not `\B`: JavaScript finds one between the two halves of a pair.
 */
function assertion(arg: number): string | null {
  switch (arg) {
    case EMPTY_BEGIN_TEXT:
      return '^';
    case EMPTY_END_TEXT:
      return '$';
    case EMPTY_WORD_BOUNDARY:
      return '\\b';
    default:
      return null;
  }
}

export interface LiteralPaths {
  /** Every subject the pattern matches (unanchored) also matches this. */
  readonly regex: RegExp;
  /** The regex decides exactly as the pattern does (the program is nothing but these paths). */
  readonly exact: boolean;
}

/**
 * The literal runs every match begins with, as a JavaScript RegExp: a walk of the program from its
 * start over single-character instructions (each as its class; folded ASCII letters as their fold
 * orbit) and assertions (kept when JavaScript means the same, else skipped, which only weakens the
 * screen), branching at alternations. When every path ends at the program's match and nothing was
 * skipped or cut, the alternation is the whole pattern and decides exactly; else it is a screen and
 * each path must be at least `MIN_PATH_LEN` characters. `null` when neither.
 */
export function literalPaths(re: RE2JS): LiteralPaths | null {
  const r = internalsOf(re);
  if (r === null) return null;
  const prog = r.prog;
  const paths: string[] = [];
  let ok = true;
  let exact = true;
  let shortest = Infinity;
  const walk = (start: number, acc: string, len: number, seen: readonly number[]): void => {
    let pc = start;
    let text = acc;
    let n = len;
    for (;;) {
      if (!ok) return;
      const inst = prog.inst[pc]!;
      let complete = false;
      switch (inst.op) {
        case OP_NOP:
        case OP_CAPTURE:
          pc = inst.out;
          continue;
        case OP_EMPTY_WIDTH: {
          const a = assertion(inst.arg);
          if (a === null) exact = false;
          else text += a;
          pc = inst.out;
          continue;
        }
        case OP_FAIL:
          return;
        case OP_ALT:
          if (seen.includes(pc) || paths.length >= MAX_PATHS) break;
          walk(inst.out, text, n, [...seen, pc]);
          walk(inst.arg, text, n, [...seen, pc]);
          return;
        case OP_MATCH:
          complete = true;
          break;
        case OP_RUNE:
        case OP_RUNE1: {
          if (inst.runes.length !== 1 || n >= MAX_PATH_LEN) break;
          const c = unitClass(inst.runes[0]!, inst.op === OP_RUNE && (inst.arg & FOLD_CASE) !== 0);
          if (c === null) break;
          text += c;
          n++;
          pc = inst.out;
          continue;
        }
      }
      // The literal run ends here: every match through this path begins with it.
      if (!complete) exact = false;
      if (paths.length >= MAX_PATHS) ok = false;
      else {
        paths.push(text);
        shortest = Math.min(shortest, n);
      }
      return;
    }
  };
  walk(prog.start, '', 0, []);
  if (!ok || paths.length === 0) return null;
  if (!exact && shortest < MIN_PATH_LEN) return null;
  return { regex: new RegExp([...new Set(paths)].join('|')), exact };
}

/** `literalPaths(re).regex` for a pattern with no case-sensitive screen (typically `(?i)…`), or `null`. */
export function foldedLeads(re: RE2JS): RegExp | null {
  return literalPaths(re)?.regex ?? null;
}
