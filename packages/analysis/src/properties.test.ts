/**
 * Soundness properties against the engine: an "equivalent" (or "stricter"/"looser") verdict is
 * never contradicted by a generated call, and a rule reported dead never matches a generated
 * input of the kind it was declared dead on.
 */
import { compileApprover } from '@verdict/engine';
import type { ApproverIR, InputMode, RuleIR } from '@verdict/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeApprover, diffPolicies } from './index.ts';

const PATTERNS = [
  '', 'ls', '"command":"ls', '"command":\\s*"ls', 'rm\\s+-rf', 'rm -rf', 'sudo', '\\bsudo\\b', '(?i)SUDO', '^\\{"command"',
  '^\\s*"command"', '"path":"/etc/', '"path":"/(etc|usr)/', '.*', 'x$y', '[0-9]{2}', 's|u', '[su]', 'l(s|)', 'ls?',
  '\\}$', '^\\{\\}$', '"\\s*:\\s*"', '(?m)^"', '\\\\u0072', '[^a-z"{}:,]',
];
const EQUIVALENT: Record<string, string> = {
  's|u': '[su]',
  '[su]': 's|u',
  'l(s|)': 'ls?',
  'ls?': 'l(s|)',
  'rm -rf': 'rm[ ]-rf',
  '.*': '',
  '"command":"ls': '"command":"l[s]',
};
const TOOLS = ['bash', 'Bash', 'read', ''];

const rule: fc.Arbitrary<RuleIR> = fc.record({ tool: fc.constantFrom(...TOOLS), match: fc.constantFrom(...PATTERNS) });
const fieldRule: fc.Arbitrary<RuleIR> = fc.record({
  tool: fc.constantFrom(...TOOLS),
  match: fc.constantFrom('ls', 'ls.*', 'rm -rf.*', '', '.*', 'sudo|su', '[a-z]+'),
  field: fc.constantFrom('command', 'Command', 'path'),
});

function policy(input: InputMode): fc.Arbitrary<ApproverIR> {
  const r = input === 'canonical' ? fc.oneof(rule, fieldRule) : rule;
  return fc.record({
    mode: fc.constant('pattern'),
    default: fc.constantFrom('allow', 'deny'),
    reason: fc.constant(''),
    input: fc.constant(input),
    allow: fc.array(r, { maxLength: 3 }),
    deny: fc.array(r, { maxLength: 3 }),
  });
}

/** A variant of `p`: meaning-preserving edits, sometimes a real change. */
function variant(p: ApproverIR): fc.Arbitrary<ApproverIR> {
  return fc
    .record({
      reverse: fc.boolean(),
      rewrite: fc.boolean(),
      upper: fc.boolean(),
      extra: fc.option(fc.record({ list: fc.constantFrom('allow', 'deny'), rule }), { freq: 3 }),
      flip: fc.integer({ min: 0, max: 4 }),
    })
    .map(({ reverse, rewrite, upper, extra, flip }) => {
      const edit = (r: RuleIR): RuleIR => ({
        ...r,
        tool: upper ? r.tool.toUpperCase() : r.tool,
        match: rewrite && r.field === undefined ? (EQUIVALENT[r.match] ?? r.match) : r.match,
      });
      let allow = p.allow.map(edit);
      let deny = p.deny.map(edit);
      if (reverse) {
        allow = allow.reverse();
        deny = deny.reverse();
      }
      if (extra !== null) (extra.list === 'allow' ? allow : deny).push(extra.rule);
      const def = flip === 0 ? (p.default === 'allow' ? 'deny' : 'allow') : p.default;
      return { ...p, default: def, allow, deny };
    });
}

const value = fc
  .array(fc.constantFrom('l', 's', ' ', '-', 'r', 'f', 'm', 'u', 'd', 'o', '/', 'e', 't', 'c', '"', '\\', 'x', 'y', '1', '2', 'a', '\n', 'S', 'U', 'D', 'O'), {
    maxLength: 10,
  })
  .map((cs) => cs.join(''));
const key = fc.constantFrom('command', 'Command', 'path', 'x', '');
const objectText = fc
  .record({
    pairs: fc.array(fc.tuple(key, fc.oneof(value, value.map((v) => `ls ${v}`), value.map((v) => `/etc/${v}`), fc.integer())), { maxLength: 3 }),
    spaced: fc.boolean(),
  })
  .map(({ pairs, spaced }) => {
    const body = pairs.map(([k, v]) => `${JSON.stringify(k)}:${spaced ? ' ' : ''}${JSON.stringify(v)}`).join(spaced ? ', ' : ',');
    return spaced ? `{ ${body} }` : `{${body}}`;
  });
const call = fc.record({ toolName: fc.constantFrom('bash', 'BASH', 'read', 'write'), input: objectText });

function isObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

function decisions(ir: ApproverIR, calls: { toolName: string; input: string }[]): string[] {
  const a = compileApprover(ir).approver;
  if (a === undefined) throw new Error('policy does not load');
  return calls.map((c) => a.approve(c).decision);
}

describe('diff verdicts agree with the engine', () => {
  for (const input of ['raw', 'canonical'] as const) {
    it(`on generated policies and calls (input: ${input})`, () => {
      let decided = 0;
      fc.assert(
        fc.property(
          policy(input).chain((p) => fc.tuple(fc.constant(p), variant(p))),
          fc.array(call, { minLength: 20, maxLength: 40 }),
          ([oldIr, newIr], calls) => {
            const d = diffPolicies(oldIr, newIr, { timeMs: 300 });
            const before = decisions(oldIr, calls);
            const after = decisions(newIr, calls);
            const newlyDenied = calls.some((_, i) => before[i] === 'allow' && after[i] === 'deny');
            const newlyAllowed = calls.some((_, i) => before[i] === 'deny' && after[i] === 'allow');
            if (d.verdict !== 'unknown') decided++;
            if (d.verdict === 'equivalent') expect(newlyDenied || newlyAllowed).toBe(false);
            if (d.verdict === 'stricter') expect(newlyAllowed).toBe(false);
            if (d.verdict === 'looser') expect(newlyDenied).toBe(false);
            for (const [w, was, now] of [
              [d.newlyDenied, 'allow', 'deny'],
              [d.newlyAllowed, 'deny', 'allow'],
            ] as const) {
              if (w === null) continue;
              expect(decisions(oldIr, [w])).toEqual([was]);
              expect(decisions(newIr, [w])).toEqual([now]);
            }
          },
        ),
        { numRuns: 30 },
      );
      // The property must not pass by answering "unknown" to everything.
      expect(decided).toBeGreaterThan(10);
    });
  }
});

describe('dead rules never match', () => {
  for (const input of ['raw', 'canonical'] as const) {
    it(`generated JSON object inputs (input: ${input})`, () => {
      fc.assert(
        fc.property(policy(input), fc.array(objectText, { minLength: 20, maxLength: 40 }), fc.array(value, { maxLength: 10 }), (ir, objects, texts) => {
          for (const f of analyzeApprover(ir, { checks: { shadowed: false, overlap: false } })) {
            if (f.kind !== 'dead-rule') continue;
            const r = (f.rule.list === 'allow' ? ir.allow : ir.deny)[f.rule.index] as RuleIR;
            const single = compileApprover({ ...ir, default: 'deny', allow: [r], deny: [] }).approver;
            const tool = r.tool === '' ? 'bash' : r.tool;
            // Matching-shaped objects: the rule's own pattern text and its example, placed in objects.
            const seeds = [r.match.replace(/\\(.)/g, '$1').replace(/[\^$]/g, ''), f.example?.input ?? ''];
            const shaped = seeds.flatMap((t) => [`{${t}}`, `{ ${t} }`, `{"x":${JSON.stringify(t)}}`, `{${t},"y":1}`, `{"a":1,${t}}`]);
            const objectsToTry = [...objects, ...shaped.filter(isObject)];
            const inputs = f.scope === 'any-input' ? [...objectsToTry, ...texts, '', ...seeds] : objectsToTry;
            for (const text of inputs) expect(single?.approve({ toolName: tool, input: text }).decision, `${r.match} on ${text}`).toBe('deny');
          }
        }),
        { numRuns: 80 },
      );
    });
  }
});

describe('shadowed allow rules never decide', () => {
  for (const input of ['raw', 'canonical'] as const) {
    it(`on generated calls (input: ${input})`, () => {
      fc.assert(
        fc.property(policy(input), fc.array(call, { minLength: 20, maxLength: 40 }), (ir, calls) => {
          const shadowed = analyzeApprover(ir, { checks: { overlap: false } }).flatMap((f) => (f.kind === 'shadowed-rule' ? [f.rule.index] : []));
          if (shadowed.length === 0) return;
          const a = compileApprover(ir).approver;
          for (const c of calls) {
            const e = a?.explain(c);
            expect(e?.rule?.list === 'allow' && shadowed.includes(e.rule.index), `${JSON.stringify(c)}`).toBe(false);
          }
        }),
        { numRuns: 60 },
      );
    });
  }
});

/** `policy(input)` with an ask list (deny > ask > allow). */
function policyWithAsk(input: InputMode): fc.Arbitrary<ApproverIR> {
  const r = input === 'canonical' ? fc.oneof(rule, fieldRule) : rule;
  return fc.tuple(policy(input), fc.array(r, { maxLength: 3 })).map(([p, ask]) => ({ ...p, ask }));
}

const STRICTNESS: Record<string, number> = { allow: 0, ask: 1, deny: 2 };

function ruled(ir: ApproverIR, calls: { toolName: string; input: string }[]): string[] {
  const a = compileApprover(ir).approver;
  if (a === undefined) throw new Error('policy does not load');
  return calls.map((c) => a.decide(c).decision);
}

describe('with ask rules', () => {
  for (const input of ['raw', 'canonical'] as const) {
    it(`diff verdicts agree with the engine's three decisions (input: ${input})`, () => {
      let decided = 0;
      fc.assert(
        fc.property(
          policyWithAsk(input),
          policyWithAsk(input),
          fc.array(call, { minLength: 20, maxLength: 40 }),
          (oldIr, other, calls) => {
            // Half the time a small edit of the old policy (often equivalent), else an unrelated one.
            const newIr = calls.length % 2 === 0 ? { ...oldIr, ask: [...(oldIr.ask ?? [])].reverse() } : { ...other, input: oldIr.input };
            const d = diffPolicies(oldIr, newIr, { timeMs: 300 });
            const before = ruled(oldIr, calls);
            const after = ruled(newIr, calls);
            const up = calls.some((_, i) => STRICTNESS[after[i]!]! > STRICTNESS[before[i]!]!);
            const down = calls.some((_, i) => STRICTNESS[after[i]!]! < STRICTNESS[before[i]!]!);
            if (d.verdict !== 'unknown') decided++;
            if (d.verdict === 'equivalent') expect(up || down).toBe(false);
            if (d.verdict === 'stricter') expect(down).toBe(false);
            if (d.verdict === 'looser') expect(up).toBe(false);
            const want: Record<string, string> = { 'newly-denied': 'deny', 'newly-allowed': 'allow', 'newly-asked': 'ask' };
            for (const c of d.changes) {
              const [was] = ruled(oldIr, [c]);
              const [now] = ruled(newIr, [c]);
              expect(now).toBe(want[c.direction]);
              expect(was).not.toBe(now);
            }
          },
        ),
        { numRuns: 30 },
      );
      expect(decided).toBeGreaterThan(10);
    });

    it(`dead and shadowed ask rules never decide (input: ${input})`, () => {
      fc.assert(
        fc.property(policyWithAsk(input), fc.array(call, { minLength: 20, maxLength: 40 }), (ir, calls) => {
          const never = analyzeApprover(ir, { checks: { overlap: false } }).flatMap((f) =>
            f.kind === 'shadowed-rule' || f.kind === 'dead-rule' ? [`${f.rule.list}[${f.rule.index}]`] : [],
          );
          if (never.length === 0) return;
          const a = compileApprover(ir).approver;
          for (const c of calls) {
            const e = a?.explain(c);
            const name = e?.rule ? `${e.rule.list}[${e.rule.index}]` : '';
            expect(never.includes(name), `${name} decided ${JSON.stringify(c)}`).toBe(false);
          }
        }),
        { numRuns: 60 },
      );
    });
  }
});
