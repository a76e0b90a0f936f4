/**
 * The pattern approver against the definition (`definition.ts`, written from semantics.md A3/A4
 * alone: rule by rule, no plan, no DFA, no screen, no set). Random policies mix literal, anchored,
 * case-insensitive and set-sized rule lists, so the fast path's every shortcut is exercised against it.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { InputMode } from '../ir.ts';
import { approverIRFromCase } from '../../test/support/case-files.ts';
import type { CaseRule } from '../../test/support/case-files.ts';
import { compileApprover } from './config.ts';
import type { ApprovalRequest } from './types.ts';
import { definitionOf, fuzzRuns, fuzzTimeout, leadingPattern, placedTexts } from '../../test/support/generators.ts';

interface Config {
  default: 'allow' | 'deny';
  reason: string;
  input: InputMode;
  allow: CaseRule[];
  deny: CaseRule[];
}

// Regexes: atoms that stress case folding, assertions, classes and astral characters.
const atom = fc.constantFrom(
  'a', 'b', 'k', 'K', '\u212a', 's', '\u017f', '\u00df', '\u1e9e', '\u03c3', '\u03c2', '\u03a3', '\u00e9', 'rm', ' ', '-', '"',
  ':', '\\{', '\\n', '😀', '\\x{fffd}', '.', '\\s', '\\w', '\\b', '\\B', '\\pL', '[a-c]', '[^a]', '[kK]', '\\d', 'ls', 'sudo',
  '"command":"', '\\Q.*\\E',
);
const anchorOrFlag = fc.constantFrom('', '', '', '^', '(?i)', '(?s)', '(?m)', '(?m)^', '(?U)', '\\A', '(?i)^');
const tail = fc.constantFrom('', '', '', '$', '\\z', '(?m)$');
const regexArb: fc.Arbitrary<string> = fc.letrec<{ re: string }>((tie) => ({
  re: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('re'), tie('re')).map(([x, y]) => x + y),
    fc.tuple(tie('re'), tie('re')).map(([x, y]) => `${x}|${y}`),
    fc.tuple(tie('re'), fc.constantFrom('*', '+', '?', '{1,2}', '*?')).map(([x, q]) => `(?:${x})${q}`),
    tie('re').map((x) => `(?i:${x})`),
    tie('re').map((x) => `(${x})`),
  ),
})).re.chain((core) => fc.tuple(anchorOrFlag, fc.constant(core), tail).map(([a, c, t]) => a + c + t));

const toolArb = fc.constantFrom('bash', 'Bash', 'BASH', 'read', '\u212aill', 'kill', 'KILL', 'stra\u00dfe', 'STRA\u1e9eE', '\u03c3x', '\u03a3X', '');
const ruleArb: fc.Arbitrary<CaseRule> = fc.record(
  { tool: toolArb, match: fc.oneof(regexArb, fc.constant('')), field: fc.constantFrom('command', 'COMMAND', 'path', '\u212aey') },
  { requiredKeys: ['tool', 'match'] },
);
const configArb: fc.Arbitrary<Config> = fc.record({
  default: fc.constantFrom('allow', 'deny'),
  reason: fc.constantFrom('', 'no'),
  input: fc.constantFrom<InputMode>('raw', 'canonical'),
  // Lists long enough for the fast path's shared sets (4 or more regex-only rules).
  allow: fc.array(ruleArb, { maxLength: 7 }),
  deny: fc.array(ruleArb, { maxLength: 7 }),
});

const char = fc.constantFrom(
  'a', 'b', 'k', 'K', '\u212a', 's', 'S', '\u017f', '\u00df', '\u1e9e', '\u03c3', '\u03c2', '\u03a3', '\u00e9', 'r', 'm', 'l',
  ' ', '-', '"', ':', '{', '}', '\n', '\t', '\\', '😀', '\ufffd', '\ud800', '\udc00', '.', '*', '1', 'sudo', 'rm -rf', 'ls',
);
const textArb = fc.array(char, { maxLength: 12 }).map((cs) => cs.join(''));
const inputArb = fc.oneof(
  textArb,
  fc.tuple(fc.constantFrom('command', 'Command', 'COMMAND', 'path', 'Key', '\u212aey'), textArb).map(([k, v]) => JSON.stringify({ [k]: v })),
  fc.tuple(textArb, textArb).map(([a, b]) => `{"command":${JSON.stringify(a)},"other":${JSON.stringify(b)}}`),
  fc.tuple(textArb, textArb).map(([a, b]) => `{"command":${JSON.stringify(a)},"COMMAND":${JSON.stringify(b)}}`),
  fc.tuple(textArb, textArb).map(([a, b]) => `{ "command" : ${JSON.stringify(a)} , "path":[${JSON.stringify(b)}] }`),
  fc.constantFrom('', '  ', '{}', 'null', '[]', '{"command":"\\u0072m -rf /"}', '{"command":"l\\u0073"}', '\ufeff{}'),
);
const requestArb = fc.record({ toolName: toolArb, input: inputArb });

describe('the pattern approver agrees with the definition (semantics.md A3, A4)', () => {
  it('approve, decide and explain: decision, reason and deciding rule', () => {
    fc.assert(fc.property(configArb, fc.array(requestArb, { minLength: 1, maxLength: 6 }), agrees), { numRuns: fuzzRuns(400) });
  }, fuzzTimeout);

  it('the same, with astral characters and lone surrogates at every class position of a rule\'s match', () => {
    // Rules the DFA searches ahead for are mixed in; the inputs are one rule's witness with a special
    // character at each class position (`placedTexts`), bare and as a `command` value.
    const placed = configArb.chain((c) => {
      const lead = fc.array(fc.record({ tool: fc.constantFrom('bash', ''), match: leadingPattern }), { maxLength: 3 });
      return fc.tuple(lead, lead).chain(([d, a]) => {
        const plain = (rs: readonly CaseRule[]) => rs.filter((r) => r.field === undefined).slice(0, 1);
        const config = { ...c, deny: [...d, ...plain(c.deny)], allow: [...a, ...plain(c.allow)] };
        const inputs = placedTexts([...config.deny, ...config.allow].map((r) => r.match ?? null)).map((ts) =>
          ts.flatMap((t) => [t, `{"command":"${t}"}`, JSON.stringify({ command: t })]),
        );
        return fc.tuple(fc.constant(config), inputs);
      });
    });
    fc.assert(
      fc.property(placed, ([config, inputs]) => agrees(config, inputs.map((input) => ({ toolName: 'bash', input })))),
      { numRuns: fuzzRuns(100) },
    );
  }, fuzzTimeout);
});

/** `approve`, `decide` and `explain` of the compiled `config` give each request the definition's answer. */
function agrees(config: Config, requests: readonly ApprovalRequest[]): void {
  const ir = approverIRFromCase({ mode: 'pattern', ...config });
  const { approver, issues } = compileApprover(ir);
  expect(issues).toEqual([]);
  const definition = definitionOf(ir);
  for (const request of requests) {
    const want = definition(request);
    const result = { decision: want.decision, reason: want.reason };
    expect(approver!.approve(request), JSON.stringify(request)).toEqual(result);
    const d = approver!.decide(request);
    expect({ decision: d.decision, reason: d.reason }).toEqual(result);
    expect(d.rule === null ? (want.rule === 'invalid-input' ? 'invalid-input' : 'default') : `${d.rule.list}[${d.rule.index}]`).toBe(want.rule);
    const e = approver!.explain(request);
    expect({ decision: e.decision, reason: e.reason }).toEqual(result);
    expect(e.rule).toEqual(d.rule);
  }
}
