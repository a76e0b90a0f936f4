/**
 * The linter never throws and no rule crashes, whatever the policy says: random approver blocks
 * with regex-like patterns (the probing rules build witnesses from them), random run policies, and
 * random text in every syntax.
 */
import { RegexCache } from '@verdict/analysis';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixSource, MAX_FIX_PASSES } from '../src/fix.ts';
import { lintSource } from '../src/runner.ts';

const regexChar = fc.constantFrom('a', 'b', '"', ':', '{', '}', '\\', '^', '$', '(', ')', '|', '*', '+', '?', '.', '[', ']', '/', ' ', ';', 's', 'd', 'Q', 'E', 'x', '?=', '(?m)', '\\s', '\\"');
const pattern = fc.array(regexChar, { maxLength: 14 }).map((xs) => xs.join(''));
const tool = fc.constantFrom('', 'bash', 'Bash', 'read', 'edit', 'exec');
const rule = fc.record(
  { tool, match: pattern, field: fc.option(fc.constantFrom('command', 'path'), { nil: undefined }) },
  { requiredKeys: [] },
);
const approver = fc.record({
  mode: fc.constantFrom('pattern', ' Pattern ', 'allow_all', 'deny_all', '', 'bogus'),
  default: fc.constantFrom('allow', 'deny', '', 'ALLOW', ' allow'),
  reason: fc.string({ maxLength: 30 }),
  input: fc.constantFrom('raw', 'canonical'),
  allow: fc.array(rule, { maxLength: 4 }),
  deny: fc.array(rule, { maxLength: 4 }),
});
const policy = fc.record(
  {
    sandbox: fc.constantFrom('', 'read_only', 'unrestricted', 'READ_ONLY'),
    web_search: fc.constantFrom('allow', 'deny', 'x'),
    approvals: fc.record(
      {
        permission: fc.constantFrom('ask', 'auto_approve', 'auto_reject', 'auto_deny'),
        question: fc.constantFrom('ask', 'auto_reject', 'auto_approve'),
        timeout: fc.constantFrom('30s', '-5s', '0', 'x'),
        on_timeout: fc.constantFrom('retry', 'abort', 'Retry'),
        on_reject: fc.constantFrom('retry', 'continue'),
        max_retries: fc.integer({ min: -2, max: 3 }),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);
const doc = fc.record(
  {
    driver: fc.constantFrom('claude', 'codex', 'cursor', 'codebuddy', 'nope'),
    policy,
    approver,
    tests: fc.array(fc.record({ tool, input: fc.dictionary(fc.constantFrom('command', 'path'), fc.string({ maxLength: 10 })), expect: fc.constantFrom('allow', 'deny') }), { maxLength: 2 }),
  },
  { requiredKeys: ['approver'] },
);

describe('robustness', () => {
  const regexes = new RegexCache();
  it('random policies: no throw, no internal error', () => {
    fc.assert(
      fc.property(doc, (d) => {
        const r = lintSource(JSON.stringify(d, null, 1), 'p.json', { regexes });
        expect(r.messages.filter((m) => m.ruleId === 'lint/internal-error').map((m) => m.message)).toEqual([]);
        for (const m of r.messages) expect(m.span?.start.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 50 },
    );
  });
  it('random text in every syntax: no throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.constantFrom('p.yaml', 'p.json', 'p.verdict'), (text, file) => {
        const r = lintSource(text, file, { regexes });
        expect(r.messages.filter((m) => m.ruleId === 'lint/internal-error').map((m) => m.message)).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });
});

/** Pattern pieces that draw the fixable findings (doubled escapes, anchors, PCRE spellings, a keyed `|`), among others. */
const fixablePiece = fc.constantFrom('\\\\s', '\\\\.', '\\\\', '^', '$', '\\u0041', '\\cA', '(?>', ')', '*+', '"command":"', '|', 'rm', ' ', "'", '"', '\\d', '.*', '(?s)', '{', '#', ': ');
const fixablePattern = fc.array(fixablePiece, { minLength: 1, maxLength: 8 }).map((xs) => xs.join(''));
/** A rule as a YAML flow map or block map, its pattern in one of the quoting styles a person writes. */
const yamlRule = fc.record({
  tool,
  match: fixablePattern,
  field: fc.constantFrom(undefined, 'command'),
  style: fc.constantFrom('single', 'double', 'plain'),
  block: fc.boolean(),
  list: fc.constantFrom('allow', 'deny'),
});
const yamlDoc = fc.record({ rules: fc.array(yamlRule, { maxLength: 5 }), input: fc.constantFrom('raw', 'canonical'), comments: fc.boolean() });
type YamlRule = { tool: string; match: string; field: string | undefined; style: string; block: boolean; list: string };
function renderYaml(d: { rules: YamlRule[]; input: string; comments: boolean }): string {
  const value = (r: YamlRule): string => (r.style === 'single' ? `'${r.match.replace(/'/g, "''")}'` : r.style === 'double' ? JSON.stringify(r.match) : r.match);
  const why = d.comments ? ' # why' : '';
  const out = ['# policy', 'mode: pattern', `input: ${d.input}`];
  for (const list of ['allow', 'deny']) {
    out.push(`${list}:`);
    for (const r of d.rules.filter((x) => x.list === list)) {
      const field = r.field === undefined ? '' : `field: ${r.field}, `;
      if (r.block) out.push(`  - tool: ${JSON.stringify(r.tool)}${why}`, ...(r.field ? [`    field: ${r.field}`] : []), `    match: ${value(r)}${why}`);
      else out.push(`  - {tool: ${JSON.stringify(r.tool)}, ${field}match: ${value(r)}}${why}`);
    }
  }
  return `${out.join('\n')}\n`;
}

/** The same rules in a `.verdict` file: regex literals (a `/` escaped) or `match "…"` strings. */
function renderVerdict(d: { rules: YamlRule[]; input: string; comments: boolean }): string {
  const why = d.comments ? ' # why' : '';
  const lines = d.rules.map((r) => {
    const m = r.style === 'double' || /[\n\r]|\\$/.test(r.match) ? `match ${JSON.stringify(r.match)}` : `/${r.match.replace(/\\\/|\//g, (x) => (x === '/' ? '\\/' : x))}/`;
    return `  ${r.list} ${r.tool === '' ? '*' : JSON.stringify(r.tool)}${r.field ? ` field ${r.field}` : ''} ${m}${why}`;
  });
  return `# policy\napprover pattern input ${d.input} {\n${lines.join('\n')}\n}\n`;
}

describe('robustness of --fix', () => {
  it('random policies in every quoting: no throw, and every fix the rules offer passes the lossless check', () => {
    let fixedFiles = 0;
    fc.assert(
      fc.property(fc.oneof(yamlDoc.map((d) => ({ text: renderYaml(d), file: 'p.yaml' })), yamlDoc.map((d) => ({ text: renderVerdict(d), file: 'p.verdict' })), doc.map((d) => ({ text: JSON.stringify(d, null, 1), file: 'p.json' }))), ({ text, file }) => {
        const fixed = fixSource(text, file);
        expect(fixed.diagnostics).toEqual([]);
        expect(fixed.result.messages.filter((m) => m.ruleId === 'lint/internal-error').map((m) => m.message)).toEqual([]);
        if (fixed.output === undefined) return;
        fixedFiles++;
        if (fixed.passes < MAX_FIX_PASSES) expect(fixSource(fixed.output, file).output).toBeUndefined();
      }),
      { numRuns: Number(process.env['FIX_RUNS'] ?? 80) },
    );
    expect(fixedFiles).toBeGreaterThan(5);
  }, 120_000);
});
