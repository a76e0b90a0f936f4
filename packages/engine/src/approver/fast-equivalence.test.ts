// The front door (`decide.ts`) must decide every call exactly as the definition does
// (`definition.ts`: `decidingRule`, every rule tried in list order). Properties over generated rule
// sets and subjects: astral characters, lone surrogates, `(?i)` (and its non-ASCII folds: K/K, s/ſ),
// anchors, `(?m)`, field rules, and lists big enough to use re2js `RE2Set`; each step alone against
// the definition's `matches`; and the screens alone against the regex.
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { caseFold } from '../canonical/casefold.ts';
import { compileRegex, wellFormed } from '../regex/regex.ts';
import { compileApprover, compileApproverFor } from './config.ts';
import { buildPlan, decide, decideTool } from './decide.ts';
import { callDefinition, decidingRule, matches } from './definition.ts';
import type { Rule, Subject } from './definition.ts';
import { passes, screenFor } from './fast-screen.ts';
import { stepMatches, stepOf } from './steps.ts';
import {
  approverConfig,
  buildApprover,
  compiledRules,
  fuzzRuns,
  fuzzTimeout,
  leadingPattern,
  patternArb as pattern,
  placedTexts,
  ruleKey as key,
  subjectOf,
  textArb,
} from '../../test/support/generators.ts';
import type { GenRule } from '../../test/support/generators.ts';

const subject = textArb(14);

const rule: fc.Arbitrary<GenRule> = fc.record({
  list: fc.constantFrom<'deny' | 'allow'>('deny', 'allow'),
  tool: fc.constantFrom('', 'bash', 'Bash', 'read', '\u212aube', 'kube'),
  match: fc.oneof({ weight: 8, arbitrary: pattern }, { weight: 1, arbitrary: fc.constant('') }),
  field: fc.constantFrom(undefined, undefined, undefined, 'command', 'Command'),
});

/** Every step alone answers as the definition's `matches`. */
function stepsAgree(rules: readonly Rule[], s: Subject, text: string): void {
  for (const r of rules) expect(stepMatches(stepOf(r), s), `${key(r)} on ${JSON.stringify(text)}`).toBe(matches(r, s));
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
          const rules = compiledRules(gen);
          // With the DFA (groups without field rules), with DFAs too small to finish (calls fall back
          // to the steps midway: a bound per DFA, and one for all the tools' DFAs together), and
          // without it (the steps decide every call).
          const plans = [buildPlan(rules), buildPlan(rules, { dfaStates: 2 }), buildPlan(rules, { planStates: 4 }), buildPlan(rules, { dfa: false })];
          for (const [tool, text, fieldValue] of calls) {
            const s = subjectOf(text, { COMMAND: fieldValue });
            const want = key(decidingRule(rules, tool, s));
            for (const plan of plans) {
              expect(key(decide(plan, caseFold(tool), s)), `${tool} ${JSON.stringify(text)}`).toBe(want);
              expect(key(decideTool(plan, tool, s))).toBe(want);
            }
            stepsAgree(rules, s, text);
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
        const rules = compiledRules(patterns.map((match, i) => ({ list: i % 3 === 0 ? 'allow' : 'deny', tool: '', match })));
        const plan = buildPlan(rules, { dfa: false });
        for (const t of texts) {
          const s = subjectOf(t, {});
          expect(key(decide(plan, 'X', s)), JSON.stringify(t)).toBe(key(decidingRule(rules, 'x', s)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('approve (fast path) agrees with the definition (rule by rule) in raw and canonical mode, field rules included', () => {
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
          const approver = buildApprover(approverConfig(gen, input, def));
          for (const [toolName, text] of calls) {
            const a = approver.approve({ toolName, input: text });
            const e = callDefinition(approverConfig(gen, input, def), { names: [toolName], input: text });
            expect({ decision: a.decision, reason: a.reason }).toEqual({ decision: e.decision, reason: e.reason });
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('an approver built for some tools (compileApproverFor) answers their calls exactly as the whole one, and refuses the others', () => {
    const tools = ['bash', 'BASH', 'Read', 'kube', '\u212aube', 'zz'];
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 10 }),
        fc.constantFrom<'raw' | 'canonical'>('raw', 'canonical'),
        fc.constantFrom('allow', 'deny'),
        fc.uniqueArray(fc.constantFrom(...tools), { minLength: 1, maxLength: 2 }),
        fc.array(fc.tuple(fc.constantFrom(...tools), subject), { minLength: 1, maxLength: 5 }),
        (gen, input, def, names, calls) => {
          const ir = approverConfig(gen, input, def);
          const whole = compileApprover(ir);
          const narrowed = compileApproverFor(ir, names);
          expect(narrowed.issues).toEqual(whole.issues);
          if (whole.approver === undefined) return expect(narrowed.approver).toBeUndefined();
          for (const [toolName, text] of calls) {
            const call = { toolName, input: text };
            if (names.some((n) => caseFold(n) === caseFold(toolName))) {
              expect(narrowed.approver!.answers(call)).toEqual(whole.approver.answers(call));
              expect(narrowed.approver!.explain(call)).toEqual(whole.approver.explain(call));
              expect(narrowed.approver!.approve(call)).toEqual(whole.approver.approve(call));
            } else {
              expect(narrowed.approver!.answers(call)).toEqual([expect.objectContaining({ decision: 'deny', by: 'refused', rule: null })]);
              expect(narrowed.approver!.approve(call).decision).toBe('deny');
            }
          }
        },
      ),
      { numRuns: fuzzRuns(300) },
    );
  });

  it('decides as the definition, and approve as the definition of a call, with astral characters and lone surrogates at every class position', () => {
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
        const rules = compiledRules(gen);
        const plans = [buildPlan(rules), buildPlan(rules, { dfaStates: 2 }), buildPlan(rules, { dfa: false })];
        const approver = buildApprover(approverConfig(gen, input, def));
        for (const text of texts) {
          const s = subjectOf(text, { COMMAND: wellFormed(text) });
          for (const tool of ['bash', 'KUBE']) {
            const want = key(decidingRule(rules, tool, s));
            for (const plan of plans) expect(key(decideTool(plan, tool, s)), `${tool} ${JSON.stringify(text)}`).toBe(want);
          }
          stepsAgree(rules, s, text);
          for (const raw of [text, `{"command":"${text}"}`, JSON.stringify({ command: text })]) {
            const a = approver.approve({ toolName: 'bash', input: raw });
            const e = callDefinition(approverConfig(gen, input, def), { names: ['bash'], input: raw });
            expect({ decision: a.decision, reason: a.reason }, `${input} ${JSON.stringify(raw)}`).toEqual({ decision: e.decision, reason: e.reason });
          }
        }
      }),
      { numRuns: fuzzRuns(100) },
    );
  }, fuzzTimeout);

  it('a 1 MB input of one repeated character is decided in linear time', () => {
    const rules = compiledRules([
      { list: 'deny', tool: '', match: '(a+)+$' },
      { list: 'deny', tool: '', match: '(?i)(a|aa)*c' },
      { list: 'deny', tool: '', match: '(?i)x+x+y' },
      { list: 'deny', tool: '', match: '(?i)(.*a){8}z' },
      { list: 'allow', tool: '', match: 'b' },
    ]);
    const plan = buildPlan(rules, { dfa: false });
    const big = 'a'.repeat(1 << 20);
    const t = performance.now();
    expect(key(decide(plan, 'BASH', subjectOf(big, {})))).toBe('deny[0]');
    expect(key(decide(plan, 'BASH', subjectOf(`${big}!`, {})))).toBe('default');
    expect(performance.now() - t).toBeLessThan(2000);
  });
});
