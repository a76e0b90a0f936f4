// The literal gate must mark every keyed rule whose literal occurs in the text (it may mark more),
// and a plan with many keyed rules must still decide as the rule-by-rule definition does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRegex } from '../regex/regex.ts';
import { buildPlan, decide } from './decide.ts';
import { decidingRule } from './definition.ts';
import type { Rule } from './definition.ts';
import { buildGate, Q, scan } from './fast-gate.ts';

const UNITS = ['a', 'b', 'c', 'A', '"', ':', '/', ' ', 'é', '😀', '\ufffd', 'k', '\u212a'];
const text = (max: number) => fc.array(fc.constantFrom(...UNITS), { maxLength: max }).map((xs) => xs.join(''));
const literal = text(6).filter((s) => s.length >= Q);

describe('literal gate', () => {
  it('marks every key with a literal in the text', () => {
    fc.assert(
      fc.property(fc.array(fc.array(literal, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 40 }), text(6), text(6), fc.nat(), (keys, before, after, pick) => {
        // The text holds one key literal, anywhere (at the very start and end too).
        const lits = keys.flat();
        const t = before + lits[pick % lits.length]! + after;
        const gate = buildGate(keys)!;
        const no = scan(gate, t);
        keys.forEach((lits, id) => {
          if (lits.some((l) => t.includes(l))) expect(gate.marks[id]).toBe(no);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('marks nothing in a text without any key gram, and finds a literal at the very start and end', () => {
    const gate = buildGate([['sudo'], ['rm -rf'], ['/etc/shadow']])!;
    let no = scan(gate, 'git status');
    expect([0, 1, 2].filter((i) => gate.marks[i] === no)).toEqual([]);
    no = scan(gate, 'sudo ls; cat /etc/shadow');
    expect(gate.marks[0]).toBe(no);
    expect(gate.marks[2]).toBe(no);
  });

  it('a plan with many keyed rules decides as the definition', () => {
    const words = ['sudo', 'rm -rf', '"command":"git', 'secret', 'passwd', '/etc/', 'curl', 'ssh-key'];
    const pats = fc.oneof(
      fc.constantFrom(...words).map((w) => w.replace(/[-/"]/g, (c) => (c === '"' ? '"' : c))),
      fc.tuple(fc.constantFrom(...words), fc.constantFrom(...words)).map(([a, b]) => `${a}.*${b}`),
      fc.constantFrom(...words).map((w) => `^\\{${w}`),
      fc.constantFrom(...words).map((w) => `(?:${w}|xyzw)\\b`),
      fc.constantFrom('(?i)SUDO', 'a', ''),
    );
    const subj = fc.array(fc.constantFrom(...words, ' ', '{', 'x', 'SUDO', 'é'), { maxLength: 8 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), pats), { minLength: 1, maxLength: 30 }), fc.array(subj, { minLength: 1, maxLength: 5 }), (spec, subjects) => {
        const counters = { deny: 0, allow: 0 };
        const rules: Rule[] = spec.map(([deny, m]) => {
          const list = deny ? 'deny' : 'allow';
          const c = m === '' ? null : compileRegex(m);
          if (c !== null && !c.ok) throw new Error(c.error);
          return { list, index: counters[list]++, foldedTool: '', regex: c === null ? null : c.regex, field: undefined };
        });
        const plan = buildPlan(rules, { minGate: 2, dfa: false });
        for (const t of subjects) {
          const s = { text: t, field: () => undefined };
          expect(decide(plan, 'bash', s)).toBe(decidingRule(rules, 'bash', s));
        }
      }),
      { numRuns: 300 },
    );
  });
});
