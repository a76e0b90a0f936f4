/**
 * Test support for the decision's tests (not part of the engine's API, outside `src/`): the long-run
 * switch; generated rules, subjects, patterns and texts shared by the property tests; the definition
 * of a whole configuration (`definitionOf`, from `src/approver/definition.ts`), which every property
 * compares the fast path with; the acceptance-table readers; and texts that put astral characters
 * and lone surrogates at every class position of a rule's match.
 *
 * Texts made of randomly drawn units rarely hold a rule's match with an astral character exactly
 * where one of its classes reads it (`s😀do` for `s.do `): a property over them can run for a
 * long time without reaching the case. `placedTexts` builds them on purpose: it walks a rule's
 * re2js program from its start to its match, choosing at each alternation, and reads one character
 * for each class on the way (a witness, which matches unless an assertion on the way fails); then
 * it makes one text per class position and per special character put there: an astral character
 * the class accepts (if it has one), one it refuses, a lone high and a lone low surrogate (read as
 * U+FFFD), U+FFFD itself, and a whole surrogate pair split over this position and the next.
 * Each text comes bare and after filler (long enough for the DFA to search ahead).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { CANONICAL_REJECT_REASON } from '../../src/canonical/canonical.ts';
import { caseFold } from '../../src/canonical/casefold.ts';
import type { ApproverIR, InputMode, RuleList } from '../../src/ir.ts';
import { compileRegex, wellFormed } from '../../src/regex/regex.ts';
import type { CaseApproverConfig } from './case-files.ts';
import { analyse, compileApprover } from '../../src/approver/config.ts';
import type { CompileApproverOptions } from '../../src/approver/config.ts';
import { decidingRule, decisionOf, readInput } from '../../src/approver/definition.ts';
import type { Rule, Subject } from '../../src/approver/definition.ts';
import { DEFAULT_PATTERN_REASON, prepareRules } from '../../src/approver/pattern.ts';
import { compileRuleRegex } from '../../src/approver/rule-regex.ts';
import type { ApprovalRequest, CompiledApprover, Explanation, RuledDecisionResult } from '../../src/approver/types.ts';
import { ALT, ALT_MATCH, CAPTURE, EMPTY_WIDTH, type Inst, NOP, type Prog, progOf, RUNE, RUNE1, RUNE_ANY, RUNE_ANY_NOT_NL } from '../../src/regex/re2-program.ts';

const LONG_RUNS = process.env['VERDICT_FUZZ_RUNS'];

/** `VERDICT_FUZZ_RUNS=N` runs every property that asks here N times (a long run); else `runs`. */
export function fuzzRuns(runs: number): number {
  return LONG_RUNS === undefined || LONG_RUNS === '' ? runs : Number(LONG_RUNS);
}

/** The time limit of a property test that uses `fuzzRuns`: the package's default, or an hour for a long run. */
export const fuzzTimeout: number | undefined = LONG_RUNS === undefined || LONG_RUNS === '' ? undefined : 3_600_000;

/** The program of a pattern the caller just compiled (re2js always exposes it in 2.10.0). */
function instsOf(re: RE2JS): Prog {
  const prog = progOf(re);
  if (prog === null) throw new Error('re2js did not expose the compiled program');
  return prog;
}

function accepts(inst: Inst, cp: number): boolean {
  if (inst.op === RUNE_ANY) return true;
  if (inst.op === RUNE_ANY_NOT_NL) return cp !== 10;
  return inst.matchRune(cp);
}

/** Ordinary characters a witness is read from, then astral ones; specials are put in separately. */
const ORDINARY = [
  ...Array.from({ length: 95 }, (_, i) => 0x20 + i),
  0x0a, 0x09, 0xe9, 0xdf, 0x3c3, 0x3a3, 0x17f, 0x212a, 0x4e00, 0xa0, 0xfffd,
];
const ASTRAL = [0x1f600, 0x10400, 0x1d400, 0x20000, 0x10000, 0x10ffff, 0xe0041];

/** The most classes a witness reads (its rune instructions). */
const MAX_CLASSES = 10;

/**
 * The classes (rune instructions) of one way through `re`'s program from its start towards its
 * match, each alternation taken as `choices` say; at most `MAX_CLASSES`, fewer when the way ends.
 */
export function classPath(re: RE2JS, choices: readonly number[]): Inst[] {
  const { start, inst } = instsOf(re);
  const out: Inst[] = [];
  let pc = start;
  let c = 0;
  for (let guard = 0; guard < 4 * inst.length + 64 && out.length < MAX_CLASSES; guard++) {
    const i = inst[pc];
    if (i === undefined) break;
    if (i.op === ALT || i.op === ALT_MATCH) pc = (choices[c++ % choices.length]! & 1) === 0 ? i.out : i.arg;
    else if (i.op === NOP || i.op === CAPTURE || i.op === EMPTY_WIDTH) pc = i.out;
    else if (i.op === RUNE || i.op === RUNE1 || i.op === RUNE_ANY || i.op === RUNE_ANY_NOT_NL) {
      out.push(i);
      pc = i.out;
    } else break; // a match or a failure
  }
  return out;
}

/** A character `inst` accepts (as a string), picked by `pick`; `null` when none is known. */
function charFor(inst: Inst, pick: number): string | null {
  const ok = ORDINARY.filter((cp) => accepts(inst, cp));
  const astral = ASTRAL.filter((cp) => accepts(inst, cp));
  const all = [...ok, ...astral];
  if (all.length > 0) return String.fromCodePoint(all[pick % all.length]!);
  const r = inst.runes[0];
  return r !== undefined && (r < 0xd800 || r > 0xdfff) ? String.fromCodePoint(r) : null;
}

/** What is put at a class position: astral accepted and refused, lone surrogates, U+FFFD, a split pair. */
function specials(inst: Inst): string[] {
  const yes = ASTRAL.find((cp) => accepts(inst, cp));
  const no = ASTRAL.find((cp) => !accepts(inst, cp));
  const out = ['\ud83d', '\ude00', '\ufffd'];
  if (yes !== undefined) out.push(String.fromCodePoint(yes));
  if (no !== undefined) out.push(String.fromCodePoint(no));
  return out;
}

/**
 * Runs of characters and classes with no anchor (`s.do `, `a[^a]\\x{1F600}`): rules whose matches
 * the DFA searches ahead for, classes over astral characters and U+FFFD included.
 */
export const leadingPattern: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('a', 's', 'd', ' ', 'é', '"', '\\x{1F600}') },
      { weight: 2, arbitrary: fc.constantFrom('.', '(?s:.)', '[^\\n]', '[^a]', '\\w', '\\W', '\\pL', '\\x{fffd}', '[a-c]', '(?i:s)') },
    ),
    { minLength: 2, maxLength: 5 },
  )
  .map((xs) => xs.join(''));

const FILLER = ['lorem ipsum dolor sit amet, '.repeat(3), '{"k":"v","n":[1,2]} '.repeat(4), 'é — é 漢字 '.repeat(5), '😀 x '.repeat(8)];

/**
 * Texts for `patterns` (a rule list; `null` entries are skipped): one rule's witness (the rule
 * and the way through it chosen by fast-check) with each special character at each of its class
 * positions, and a split surrogate pair over each pair of neighbouring positions; each bare and
 * after filler that ends with and without an astral character.
 */
export function placedTexts(patterns: readonly (string | null)[]): fc.Arbitrary<string[]> {
  const real = patterns.filter((p): p is string => p !== null && p !== '');
  if (real.length === 0) return fc.constant(['', '😀', '\ud800']);
  return fc
    .record({
      rule: fc.nat({ max: real.length - 1 }),
      choices: fc.array(fc.nat(), { minLength: 16, maxLength: 16 }),
      picks: fc.array(fc.nat(), { minLength: MAX_CLASSES, maxLength: MAX_CLASSES }),
      filler: fc.constantFrom(...FILLER),
      after: fc.constantFrom('', ' tail', '😀', '\n'),
    })
    .map(({ rule, choices, picks, filler, after }) => {
      const path = classPath(RE2JS.compile(real[rule]!), choices);
      const base: string[] = [];
      for (const [j, inst] of path.entries()) {
        const ch = charFor(inst, picks[j]!);
        if (ch === null) break;
        base.push(ch);
      }
      const variants = [base.join('')];
      for (let j = 0; j < base.length; j++) {
        for (const s of specials(path[j]!)) variants.push([...base.slice(0, j), s, ...base.slice(j + 1)].join(''));
        if (j + 1 < base.length) variants.push([...base.slice(0, j), '\ud83d', '\ude00', ...base.slice(j + 2)].join(''));
      }
      const texts: string[] = [];
      for (const v of variants) texts.push(v, `${filler}${v}${after}`, `${filler}😀${v}`);
      return texts;
    });
}

// ---- rules, subjects and the definition, for the decision's property tests ------------------------

/** A generated rule as written (`field` absent: not a field rule). */
export interface GenRule {
  readonly list: RuleList;
  readonly tool: string;
  readonly match: string;
  readonly field?: string | undefined;
}

/** The compiled rules of `gen`, numbered in each list in generation order; patterns that do not compile are dropped. */
export function compiledRules(gen: readonly GenRule[]): Rule[] {
  const counters: Record<RuleList, number> = { deny: 0, ask: 0, allow: 0 };
  return gen.flatMap((r) => {
    const c = compileRuleRegex(r.match, r.field);
    if (c !== null && !c.ok) return [];
    const field = r.field === undefined ? undefined : caseFold(r.field);
    return [{ list: r.list, index: counters[r.list]++, foldedTool: caseFold(r.tool), regex: c === null ? null : c.regex, field }];
  });
}

/**
 * A subject: `text` made well-formed, and top-level fields by case-folded key (`null` for the whole
 * map: the input cannot be read as JSON; a key mapped to `null` answers `null` too).
 */
export function subjectOf(text: string, fields: Record<string, string | undefined | null> | null = {}): Subject {
  return {
    text: wellFormed(text),
    field: (k) => (fields === null ? null : Object.hasOwn(fields, k) ? fields[k] : undefined),
  };
}

/** `deny[0]`, `ask[1]`, `allow[2]`, or `default`. */
export const ruleKey = (r: Pick<Rule, 'list' | 'index'> | null): string => (r === null ? 'default' : `${r.list}[${r.index}]`);

/** The pattern approver configuration of generated rules (each list in generation order). */
export function approverConfig(gen: readonly GenRule[], input: InputMode, def: string): ApproverIR {
  const list = (which: RuleList) =>
    gen.filter((r) => r.list === which).map((r) => ({ tool: r.tool, match: r.match, ...(r.field === undefined ? {} : { field: r.field }) }));
  const ask = list('ask');
  return { mode: 'pattern', default: def, reason: '', input, deny: list('deny'), allow: list('allow'), ...(ask.length === 0 ? {} : { ask }) };
}

/** The approver of `ir`, which must load. */
export function buildApprover(ir: ApproverIR, options: CompileApproverOptions = {}): CompiledApprover {
  const { approver, issues } = compileApprover(ir, options);
  if (approver === undefined) throw new Error(`did not load: ${issues.map((i) => i.message).join('; ')}`);
  return approver;
}

/** What decided an explanation: `deny[0]`, … for a rule (or the rule a compile error names), else `by`. */
export function ruleName(e: Explanation): string {
  if (e.rule !== null && (e.by === 'rule' || e.by === 'compile-error')) return `${e.rule.list}[${e.rule.index}]`;
  return e.by;
}

/** The answer of the definition: decision, reason, and `deny[0]`, …, `default` or `invalid-input`. */
export interface DefinitionAnswer extends RuledDecisionResult {
  readonly rule: string;
}

/**
 * The decision of a pattern configuration by the definition alone (`definition.ts`: every rule tried
 * one by one, no plan, no DFA, no screen). `ir` must load in pattern mode.
 */
export function definitionOf(ir: ApproverIR): (request: ApprovalRequest) => DefinitionAnswer {
  const { issues, mode, defaultDecision, rules } = analyse(ir);
  if (mode !== 'pattern' || defaultDecision === undefined || issues.length > 0) throw new Error(`not a loadable pattern configuration: ${JSON.stringify(issues)}`);
  const prepared = prepareRules(rules);
  const reason = ir.reason === '' ? DEFAULT_PATTERN_REASON : ir.reason;
  const inputMode: InputMode = ir.input === 'canonical' ? 'canonical' : 'raw';
  return (request) => {
    const subject = readInput(request.input, inputMode);
    if (subject === null) return { decision: 'deny', reason: CANONICAL_REJECT_REASON, rule: 'invalid-input' };
    const rule = decidingRule(prepared, request.toolName, subject);
    return { ...decisionOf(rule === null ? null : rule.list, defaultDecision, reason), rule: ruleKey(rule) };
  };
}

/** An expected row of a decision case file. */
export interface ExpectedDecision {
  decision: 'allow' | 'deny' | 'ask';
  reason?: string;
  rule: string;
}
export interface DecisionCase {
  name: string;
  table?: string;
  approver: CaseApproverConfig;
  tool: string;
  input: string;
  expect: { raw?: ExpectedDecision; canonical?: ExpectedDecision };
}

/** The cases of `fixtures/cases/<file>`. */
export function decisionCases(file: string): DecisionCase[] {
  const text = readFileSync(new URL(`../../../../fixtures/cases/${file}`, import.meta.url), 'utf8');
  return (JSON.parse(text) as { cases: DecisionCase[] }).cases;
}

/** One row per case and input mode it expects something for: `[name, mode, case, expected]`. */
export function decisionRows(cases: readonly DecisionCase[]): [string, InputMode, DecisionCase, ExpectedDecision][] {
  const rows: [string, InputMode, DecisionCase, ExpectedDecision][] = [];
  for (const c of cases) {
    if (c.expect.raw) rows.push([c.name, 'raw', c, c.expect.raw]);
    if (c.expect.canonical) rows.push([c.name, 'canonical', c, c.expect.canonical]);
  }
  return rows;
}

// ---- patterns and texts ---------------------------------------------------------------------------

/** `s` with every regex metacharacter escaped. */
export const escapeRegex = (s: string): string => s.replace(/[\\.+*?()|[\]{}^$]/g, (c) => `\\${c}`);

/** Literal atoms the fast path cares about: case folds beyond ASCII (K/K, s/ſ), astral, JSON bits. */
export const ATOMS = ['a', 'b', 'k', 'K', '\u212a', 's', 'ſ', 'é', '😀', '"', '{', ':', '/', '.', 'x', ' ', '\n', '_', '0', 'ab', 'rm -rf', '"command":"', '"path":"'];
/** Text units: the atoms, lone surrogates, U+FFFD, other cases and a few words. */
export const TEXT_UNITS = [...ATOMS, '\ud800', '\udc00', '\ud83d', '\ufffd', 'A', 'S', 'É', '\u00a0', '\t', '-', 'z', 'sudo', 'AKIA'];

const piece: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ATOMS).map(escapeRegex) },
  {
    weight: 2,
    arbitrary: fc.constantFrom('.', '\\w', '\\s', '\\b', '\\B', '[a-c]', '[^"]*', '\\d+', '\\x{1F600}', '\\pL', '\\x{fffd}', '(?m:^)', '(?m:$)', '[^\\n]'),
  },
  { weight: 1, arbitrary: fc.constantFrom('*', '+', '?', '{1,2}').map((q) => `(?:b|x)${q}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...ATOMS), fc.constantFrom(...ATOMS)).map(([x, y]) => `(?:${escapeRegex(x)}|${escapeRegex(y)})`) },
);

/** RE2 patterns built from pieces the screens and the DFA care about: literals, classes, anchors, flags, groups. */
export const patternArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '', '', '(?i)', '(?m)', '(?s)', '(?i)(?m)'),
    fc.constantFrom('', '', '', '', '^', '\\A', '\\b'),
    fc.array(piece, { minLength: 0, maxLength: 5 }),
    fc.constantFrom('', '', '', '$', '\\z', '|x', '\\b'),
  )
  .map(([flags, anchor, pieces, end]) => flags + anchor + pieces.join('') + end)
  .filter((p) => compileRegex(p).ok);

/** Short texts of `TEXT_UNITS`. */
export const textArb = (maxLength = 14): fc.Arbitrary<string> => fc.array(fc.constantFrom(...TEXT_UNITS), { maxLength }).map((xs) => xs.join(''));
