/**
 * Properties: every IR prints to `.verdict` (and YAML) text that reads back as the same IR;
 * formatting is idempotent; mutated files never throw and always explain themselves.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApprovalsIR, ApproverIR, PolicyFileIR, PolicyIR, RuleIR, TestCaseIR } from '@verdict/engine';
import { compileSource, formatVerdictSource, parseVerdictSource, printVerdict, printYaml } from '../../src/index.ts';
import { verdictLexer } from '../../src/dsl/tokens.ts';
import { FIXTURES, listFiles, positionsValid, read, stripIR } from './helpers.ts';

const tricky = fc.constantFrom(
  '', 'allow', 'deny', 'ask', 'Ask', 'default', 'input', 'reason', 'test', 'field', 'match', 'rule', 'defualt', 'inptu', '*', ' Pattern ', 'ALLOW',
  '30s', '-5s', '1h30m', '0', '-1', '1e5', '1.0', 'true', 'null', 'a/b', '\\/', 'x\\', '\\\\/', '/', '//', '#', '"', "'",
  'rm\\s+-rf|sudo', '"path":"/etc/', '\n', 'a\r\nb', '\u2028', '\uFEFF', '\0', '\u0007', '\u007f', '\u0085', 'a\u0000b', 'mcp__x__y-z.v2', 'é', '😀', '\uD800',
);
const text = fc.oneof(tricky, fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 8 }));
const yamlText = fc.oneof(tricky.filter((s) => !s.includes('\uD800') && !s.includes('\uFEFF')), fc.string({ maxLength: 12 }));

const jsonInput = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.json({ maxDepth: 2 }).map((j) => JSON.stringify(JSON.parse(j), null, 1)),
  fc.constantFrom('{}', '', ' {}', '{"command":"\\u0072m -rf /"}', '{ "command": "ls"}', '"str"', 'not json', '[1,2]', '1.0', '-0'),
);

function ir(str: fc.Arbitrary<string>): fc.Arbitrary<PolicyFileIR> {
  const located = str.map((value) => ({ value }));
  const rule: fc.Arbitrary<RuleIR> = fc
    .record({ tool: str, match: str, field: fc.option(str.filter((s) => s !== ''), { nil: undefined }) })
    .map(({ tool, match, field }) => (field === undefined ? { tool, match } : { tool, match, field }));
  const approver: fc.Arbitrary<ApproverIR> = fc
    .record({
      mode: str,
      default: str,
      reason: str,
      input: fc.constantFrom('raw' as const, 'canonical' as const),
      allow: fc.array(rule, { maxLength: 3 }),
      deny: fc.array(rule, { maxLength: 3 }),
      // An ask list is absent or holds a rule (an empty one is no list in any syntax).
      ask: fc.option(fc.array(rule, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    })
    .map(({ ask, ...a }) => (ask === undefined ? a : { ...a, ask }));
  const approvals: fc.Arbitrary<ApprovalsIR> = fc.record(
    {
      permission: located,
      planReview: located,
      question: located,
      timeout: located,
      onTimeout: located,
      onReject: located,
      maxRetries: fc.integer({ min: -1000, max: 1_000_000 }).map((value) => ({ value })),
    },
    { requiredKeys: [] },
  );
  const policy: fc.Arbitrary<PolicyIR> = fc.record(
    { sandbox: located, webSearch: located, browser: located, approvals },
    { requiredKeys: [] },
  );
  const test: fc.Arbitrary<TestCaseIR> = fc.record(
    {
      name: str,
      tool: str,
      input: jsonInput,
      expect: fc.constantFrom('allow' as const, 'deny' as const, 'ask' as const),
      reason: str,
      rule: fc.oneof(fc.constant('default'), fc.tuple(fc.constantFrom('allow', 'deny', 'ask'), fc.nat(20)).map(([l, n]) => `${l}[${n}]`)),
    },
    { requiredKeys: ['tool', 'input', 'expect'] },
  );
  return fc
    .record(
      { driver: str.map((ref) => ({ ref })), policy, approver, tests: fc.array(test, { maxLength: 3 }) },
      { requiredKeys: ['tests'] },
    )
    .map((r) => ({ file: 'gen', ...r, ...(r.approver ? { approverPlacement: 'approver' as const } : {}) }));
}

describe('printVerdict', () => {
  it('prints every IR to text that parses back to the same IR, and formats to itself', () => {
    fc.assert(
      fc.property(ir(text), (policy) => {
        const printed = printVerdict(policy);
        // A file holds no invisible character raw: the loader refuses a NUL byte, and editors hide the others.
        // eslint-disable-next-line no-control-regex
        expect(printed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufeff]/);
        const back = parseVerdictSource(printed, 'gen.verdict');
        expect(back.diagnostics).toEqual([]);
        expect(stripIR(back.ir)).toEqual(stripIR(policy));
        expect(formatVerdictSource(printed, 'gen.verdict').text).toBe(printed);
      }),
      { numRuns: 200 },
    );
  });
});

describe('printYaml', () => {
  it('prints every IR to YAML that the YAML front end reads back as the same IR', () => {
    fc.assert(
      fc.property(ir(yamlText), (policy) => {
        const printed = printYaml(policy);
        const back = compileSource(printed, 'gen.yaml', { stopAfter: 'parse' });
        expect(back.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(stripIR(back.ir)).toEqual(stripIR(policy));
      }),
      { numRuns: 200 },
    );
  });
});

describe('mutated files', () => {
  const seeds = [
    ...listFiles(join(FIXTURES, 'dsl/format'), '.verdict').map((f) => read(join(FIXTURES, 'dsl/format', f))),
    ...listFiles(join(FIXTURES, 'dsl/convert'), '.verdict').map((f) => read(join(FIXTURES, 'dsl/convert', f))),
  ].filter((s) => s.trim() !== '');

  /** Token boundaries of a seed, comments included, for token-level edits. */
  const tokensOf = (s: string): { start: number; end: number }[] => {
    const lexed = verdictLexer.tokenize(s);
    return [...lexed.tokens, ...(lexed.groups['comments'] ?? [])]
      .map((t) => ({ start: t.startOffset, end: t.startOffset + t.image.length }))
      .sort((a, b) => a.start - b.start);
  };

  const mutation = fc.record({
    seed: fc.nat(seeds.length - 1),
    edits: fc.array(fc.record({ kind: fc.constantFrom('delete', 'swap', 'duplicate', 'char'), at: fc.nat(), ch: fc.string({ unit: 'binary', minLength: 1, maxLength: 2 }) }), {
      minLength: 1,
      maxLength: 4,
    }),
  });

  function mutate(src: string, edits: { kind: string; at: number; ch: string }[]): string {
    let s = src;
    for (const e of edits) {
      const toks = tokensOf(s);
      if (toks.length === 0) break;
      const i = e.at % toks.length;
      const t = toks[i]!;
      if (e.kind === 'delete') s = s.slice(0, t.start) + s.slice(t.end);
      else if (e.kind === 'duplicate') s = s.slice(0, t.end) + ' ' + s.slice(t.start, t.end) + s.slice(t.end);
      else if (e.kind === 'swap' && i + 1 < toks.length) {
        const u = toks[i + 1]!;
        s = s.slice(0, t.start) + s.slice(u.start, u.end) + s.slice(t.end, u.start) + s.slice(t.start, t.end) + s.slice(u.end);
      } else if (e.kind === 'char') {
        const p = e.at % (s.length + 1);
        s = s.slice(0, p) + e.ch + s.slice(p);
      }
    }
    return s;
  }

  it('never throw, and either parse cleanly or report located diagnostics', () => {
    fc.assert(
      fc.property(mutation, ({ seed, edits }) => {
        const src = mutate(seeds[seed]!, edits);
        const r = parseVerdictSource(src, 'mutant.verdict');
        expect(positionsValid(src, r.diagnostics)).toBe(true);
        if (r.diagnostics.some((d) => d.severity === 'error')) {
          expect(r.ir).toBeUndefined();
        } else {
          expect(r.ir).toBeDefined();
          // A mutant that is still valid formats, and its formatting is stable.
          const once = formatVerdictSource(src, 'mutant.verdict').text!;
          expect(formatVerdictSource(once, 'mutant.verdict').text).toBe(once);
        }
        expect(r.diagnostics.every((d) => d.code.startsWith('dsl/') && !/--&gt;|<--|Expecting/.test(d.message))).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});
