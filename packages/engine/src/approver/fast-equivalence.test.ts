// The fast decision loop must decide every call exactly as the rule-by-rule definition does
// (`ruleMatches` in list order). Properties over generated rule sets and subjects: astral characters,
// lone surrogates, `(?i)` (and its non-ASCII folds: K/K, s/ſ), anchors, `(?m)`, field rules, and
// lists big enough to use re2js `RE2Set`; plus the screens alone against the regex.
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { caseFold } from '../canonical/casefold.ts';
import { compileRegex, wellFormed } from '../regex/regex.ts';
import { compileApprover } from './config.ts';
import { buildPlan, decide, decideTool, matchesByDefinition, ruleMatches } from './fast.ts';
import type { FastRule, FastSubject } from './fast.ts';
import { passes, screenFor } from './fast-screen.ts';
import { fuzzRuns, fuzzTimeout, leadingPattern, placedTexts } from './testutil.ts';

const ATOMS = ['a', 'b', 'k', 'K', '\u212a', 's', 'ſ', 'é', '😀', '"', '{', ':', '/', '.', 'x', ' ', '\n', 'ab', '"command":"', 'rm -rf'];
const SUBJECT_UNITS = [...ATOMS, '\ud800', '\udc00', '\ufffd', 'A', 'S', 'É', '\u00a0', '\t', '-', 'z', '\ud83d'];

const escape = (s: string) => s.replace(/[\\.+*?()|[\]{}^$]/g, (c) => `\\${c}`);

/** RE2 patterns built from pieces the screens care about: literals, classes, anchors, flags, groups. */
const piece: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ATOMS).map(escape) },
  { weight: 1, arbitrary: fc.constantFrom('.', '\\w', '\\s', '\\b', '[a-c]', '[^"]*', '\\d+', '\\x{1F600}', '\\pL', '\\x{fffd}') },
  { weight: 1, arbitrary: fc.constantFrom('*', '+', '?', '{1,2}').map((q) => `(?:b)${q}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...ATOMS), fc.constantFrom(...ATOMS)).map(([x, y]) => `(?:${escape(x)}|${escape(y)})`) },
);
const pattern: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('', '', '', '(?i)', '(?m)', '(?s)', '(?i)(?m)'),
    fc.constantFrom('', '', '', '^', '\\A'),
    fc.array(piece, { minLength: 0, maxLength: 5 }),
    fc.constantFrom('', '', '', '$', '\\z', '|x'),
  )
  .map(([flags, anchor, pieces, end]) => flags + anchor + pieces.join('') + end)
  .filter((p) => compileRegex(p).ok);

const subject: fc.Arbitrary<string> = fc.array(fc.constantFrom(...SUBJECT_UNITS), { maxLength: 14 }).map((xs) => xs.join(''));

interface GenRule {
  list: 'deny' | 'allow';
  tool: string;
  match: string;
  field: string | undefined;
}
const rule: fc.Arbitrary<GenRule> = fc.record({
  list: fc.constantFrom<'deny' | 'allow'>('deny', 'allow'),
  tool: fc.constantFrom('', 'bash', 'Bash', 'read', '\u212aube', 'kube'),
  match: fc.oneof({ weight: 8, arbitrary: pattern }, { weight: 1, arbitrary: fc.constant('') }),
  field: fc.constantFrom(undefined, undefined, undefined, 'command', 'Command'),
});

function fastRules(rules: readonly GenRule[]): FastRule[] {
  const counters = { deny: 0, allow: 0 };
  return rules.map((r) => {
    const c = r.match === '' ? null : compileRegex(r.match);
    if (c !== null && !c.ok) throw new Error(c.error);
    return {
      list: r.list,
      index: counters[r.list]++,
      foldedTool: caseFold(r.tool),
      regex: c === null ? null : c.regex,
      field: r.field === undefined ? undefined : caseFold(r.field),
    };
  });
}

function subjectOf(text: string, fields: Record<string, string | undefined | null>): FastSubject {
  return { text: wellFormed(text), field: (k) => (k in fields ? fields[k] : undefined) };
}

/** The definition: first matching deny rule in list order, else first matching allow rule. */
function reference(rules: readonly FastRule[], tool: string, s: FastSubject): FastRule | null {
  const folded = caseFold(tool);
  for (const list of ['deny', 'allow'] as const) {
    const inList = rules.filter((r) => r.list === list).sort((a, b) => a.index - b.index);
    for (const r of inList) if ((r.foldedTool === '' || r.foldedTool === folded) && matchesByDefinition(r, s)) return r;
  }
  return null;
}

const key = (r: FastRule | null) => (r === null ? 'default' : `${r.list}:${r.index}`);


/** The pattern approver configuration of generated rules (each list in generation order). */
function approverConfig(gen: readonly GenRule[], input: 'raw' | 'canonical', def: string) {
  const list = (which: 'deny' | 'allow') =>
    gen.filter((r) => r.list === which).map((r) => ({ tool: r.tool, match: r.match, ...(r.field === undefined ? {} : { field: r.field }) }));
  return { mode: 'pattern', default: def, reason: '', input, deny: list('deny'), allow: list('allow') };
}

describe('fast decision loop', () => {
  it('screens never reject a subject the regex matches; a literal screen is the match itself', () => {
    fc.assert(
      fc.property(pattern, fc.array(subject, { minLength: 1, maxLength: 8 }), (p, subjects) => {
        const re = RE2JS.compile(p);
        const screen = screenFor(re);
        for (const raw of subjects) {
          const s = wellFormed(raw);
          const m = re.test(s);
          if (m) expect(passes(screen, s), `${p} on ${JSON.stringify(s)}`).toBe(true);
          if (screen.kind === 'literal') expect(passes(screen, s)).toBe(m);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('decides every generated call as the rule-by-rule definition does', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 0, maxLength: 14 }),
        fc.array(fc.tuple(fc.constantFrom('bash', 'BASH', 'read', 'kube', 'KUBE', 'other'), subject, fc.constantFrom(undefined, null, 'ls', '')), {
          minLength: 1,
          maxLength: 6,
        }),
        (gen, calls) => {
          const rules = fastRules(gen);
          // With the DFA (groups without field rules), with DFAs too small to finish (calls fall back
          // to the steps midway: a bound per DFA, and one for all the tools' DFAs together), and
          // without it (the steps decide every call).
          const plans = [buildPlan(rules), buildPlan(rules, { dfaStates: 2 }), buildPlan(rules, { planStates: 4 }), buildPlan(rules, { dfa: false })];
          for (const [tool, text, fieldValue] of calls) {
            const s = subjectOf(text, { COMMAND: fieldValue });
            const want = key(reference(rules, tool, s));
            for (const plan of plans) {
              expect(key(decide(plan, caseFold(tool), s)), `${tool} ${JSON.stringify(text)}`).toBe(want);
              expect(key(decideTool(plan, tool, s))).toBe(want);
            }
            // what `explain` calls, rule by rule, takes the same shortcuts and must agree too
            for (const r of rules) expect(ruleMatches(r, s), `${r.list}:${r.index} on ${JSON.stringify(text)}`).toBe(matchesByDefinition(r, s));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('uses one RE2Set for lists of regex-only rules and still decides as the definition does', () => {
    // `(?i)` literals have no case-sensitive screen: enough of them make a set.
    const caseless = pattern.map((p) => (p.startsWith('(?i)') ? p : `(?i)${p}`)).filter((p) => compileRegex(p).ok);
    fc.assert(
      fc.property(fc.array(caseless, { minLength: 4, maxLength: 12 }), fc.array(subject, { minLength: 1, maxLength: 8 }), (patterns, texts) => {
        const rules = fastRules(patterns.map((match, i) => ({ list: i % 3 === 0 ? 'allow' : 'deny', tool: '', match, field: undefined })));
        const plan = buildPlan(rules, { dfa: false });
        for (const t of texts) {
          const s = subjectOf(t, {});
          expect(key(decide(plan, 'X', s)), JSON.stringify(t)).toBe(key(reference(rules, 'x', s)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('approve (fast path) agrees with explain (rule by rule) in raw and canonical mode, field rules included', () => {
    const jsonInput = fc.oneof(
      subject,
      fc.record({ command: subject, other: fc.constantFrom('a', 'K') }).map((o) => JSON.stringify(o)),
      fc.constantFrom('', '{"command":"ls","command":"x"}', '{"Command":"rm -rf /"}', 'not json', '{"command":["ls"]}'),
    );
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 10 }),
        fc.constantFrom<'raw' | 'canonical'>('raw', 'canonical'),
        fc.constantFrom('allow', 'deny'),
        fc.array(fc.tuple(fc.constantFrom('bash', 'Read', 'kube', 'zz'), jsonInput), { minLength: 1, maxLength: 5 }),
        (gen, input, def, calls) => {
          const { approver } = compileApprover(approverConfig(gen, input, def));
          expect(approver).toBeDefined();
          for (const [toolName, text] of calls) {
            const a = approver!.approve({ toolName, input: text });
            const e = approver!.explain({ toolName, input: text });
            expect({ decision: a.decision, reason: a.reason }).toEqual({ decision: e.decision, reason: e.reason });
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('decides as the definition, and approve as explain, with astral characters and lone surrogates at every class position', () => {
    // The subjects are one rule's witness with a special character at each class position
    // (`placedTexts`), as the whole text, as a field value, and inside a JSON input.
    // Mostly rules the DFA takes (no field) and searches ahead for (no anchor), on the tools called.
    const placedRule: fc.Arbitrary<GenRule> = fc.record({
      list: fc.constantFrom<'deny' | 'allow'>('deny', 'allow'),
      tool: fc.constantFrom('', 'bash', 'kube', 'read'),
      match: fc.oneof({ weight: 3, arbitrary: leadingPattern }, { weight: 2, arbitrary: pattern }),
      field: fc.constantFrom(undefined, undefined, undefined, undefined, 'command'),
    });
    const cases = fc
      .array(placedRule, { minLength: 1, maxLength: 6 })
      .chain((gen) => fc.tuple(fc.constant(gen), placedTexts(gen.map((r) => r.match)), fc.constantFrom<'raw' | 'canonical'>('raw', 'canonical'), fc.constantFrom('allow', 'deny')));
    fc.assert(
      fc.property(cases, ([gen, texts, input, def]) => {
        const rules = fastRules(gen);
        const plans = [buildPlan(rules), buildPlan(rules, { dfaStates: 2 }), buildPlan(rules, { dfa: false })];
        const { approver } = compileApprover(approverConfig(gen, input, def));
        expect(approver).toBeDefined();
        for (const text of texts) {
          const s = subjectOf(text, { COMMAND: wellFormed(text) });
          for (const tool of ['bash', 'KUBE']) {
            const want = key(reference(rules, tool, s));
            for (const plan of plans) expect(key(decideTool(plan, tool, s)), `${tool} ${JSON.stringify(text)}`).toBe(want);
          }
          for (const r of rules) expect(ruleMatches(r, s), `${r.list}:${r.index} on ${JSON.stringify(text)}`).toBe(matchesByDefinition(r, s));
          for (const raw of [text, `{"command":"${text}"}`, JSON.stringify({ command: text })]) {
            const a = approver!.approve({ toolName: 'bash', input: raw });
            const e = approver!.explain({ toolName: 'bash', input: raw });
            expect({ decision: a.decision, reason: a.reason }, `${input} ${JSON.stringify(raw)}`).toEqual({ decision: e.decision, reason: e.reason });
          }
        }
      }),
      { numRuns: fuzzRuns(100) },
    );
  }, fuzzTimeout);

  it('a 1 MB input of one repeated character is decided in linear time', () => {
    const rules = fastRules([
      { list: 'deny', tool: '', match: '(a+)+$', field: undefined },
      { list: 'deny', tool: '', match: '(?i)(a|aa)*c', field: undefined },
      { list: 'deny', tool: '', match: '(?i)x+x+y', field: undefined },
      { list: 'deny', tool: '', match: '(?i)(.*a){8}z', field: undefined },
      { list: 'allow', tool: '', match: 'b', field: undefined },
    ]);
    const plan = buildPlan(rules, { dfa: false });
    const big = 'a'.repeat(1 << 20);
    const t = performance.now();
    expect(key(decide(plan, 'BASH', subjectOf(big, {})))).toBe('deny:0');
    expect(key(decide(plan, 'BASH', subjectOf(`${big}!`, {})))).toBe('default');
    expect(performance.now() - t).toBeLessThan(2000);
  });
});
