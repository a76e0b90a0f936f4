/**
 * `verdict fmt` loses nothing: over every policy file under fixtures/ and over generated agent
 * configurations (comments everywhere, keys that are not the policy's, anchors, any quoting and
 * indentation), the formatted text keeps every comment's text, every value of the document and the
 * policy's IR, and formatting it again changes nothing.
 */
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { CST, Lexer, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compileFile, compileSource, findFiles, formatPolicySource, parseVerdictSource, POLICY_EXTENSIONS } from '../src/index.ts';
import type { Syntax } from '../src/index.ts';
import { FIXTURES, read, stripIR } from './dsl/helpers.ts';

/** Every policy-shaped file under `dir` (the golden runs' `args.json` aside), found by the walker the commands use. */
function policyFiles(dir: string): string[] {
  return findFiles([dir], { cwd: dir, extensions: POLICY_EXTENSIONS, gitignore: false })
    .files.map((f) => f.abs)
    .filter((p) => !p.endsWith('/args.json'));
}

function comments(text: string, syntax: Syntax): string[] {
  if (syntax === 'verdict') return (parseVerdictSource(text, 'x.verdict').comments ?? []).map((c) => c.image.trimEnd()).sort();
  return [...new Lexer().lex(text)].filter((t) => CST.tokenType(t) === 'comment').map((t) => t.trimEnd()).sort();
}

function values(text: string, syntax: Syntax): unknown {
  return syntax === 'verdict' ? undefined : parseDocument(text, { uniqueKeys: false }).toJS({ maxAliasCount: -1 });
}

/** Formats `text` and checks what a user would notice if fmt lost anything. */
function expectLossless(text: string, file: string, syntax: Syntax): void {
  const once = formatPolicySource(text, file, syntax);
  expect(once.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const out = once.text!;
  expect(comments(out, syntax)).toEqual(comments(text, syntax));
  expect(values(out, syntax)).toEqual(values(text, syntax));
  const before = compileSource(text, file, { stopAfter: 'parse', syntax });
  const after = compileSource(out, file, { stopAfter: 'parse', syntax });
  expect(stripIR(after.ir)).toEqual(stripIR(before.ir));
  expect(formatPolicySource(out, file, syntax).text).toBe(out);
}

const fixtures = policyFiles(FIXTURES)
  .map((path) => ({ path, result: compileFile(path, { stopAfter: 'parse' }) }))
  .filter(({ result }) => result.ir !== undefined && result.syntax !== undefined && !result.diagnostics.some((d) => d.severity === 'error'));

describe('fmt keeps everything: fixtures', () => {
  it('finds the bundled policies', () => {
    expect(fixtures.length).toBeGreaterThan(30);
    expect(fixtures.some((f) => f.result.syntax === 'json')).toBe(true);
  });
  it.each(fixtures.map((f) => [relative(FIXTURES, f.path), f] as const))('%s', (_name, { path, result }) => {
    expectLossless(result.text!, path, result.syntax!);
    // The fixtures' own comments are there to be kept: at least one file of each syntax has some.
    if (path.endsWith('workspace.yaml')) expect(comments(read(path), 'yaml').length).toBeGreaterThan(3);
  });
});

const word = fc.stringMatching(/^[a-z][a-z_]{0,7}$/);
const commentText = fc.stringMatching(/^[ -~]{0,20}$/).map((s) => `# ${s}`.trimEnd());
const pattern = fc.constantFrom('.*', 'git (status|diff)', 'rm -rf|sudo', '"path":"/workspace/', '^ls$', 'a\\sb', "it's");

/** A scalar in one of YAML's quoting styles (the same string value in each). */
function quoted(s: string, style: number): string {
  if (style === 0 && /^[a-z][a-z ]*$/.test(s)) return s;
  if (style === 1) return `'${s.replace(/'/g, "''")}'`;
  return JSON.stringify(s);
}

interface Gen {
  indent: number;
  foreign: [string, string, string | undefined][];
  rules: { list: 'allow' | 'deny'; tool: string; match: string; flow: boolean; style: number; note: string | undefined }[];
  head: string | undefined;
  anchor: boolean;
}

const genArb: fc.Arbitrary<Gen> = fc.record({
  indent: fc.constantFrom(2, 4),
  foreign: fc.array(fc.tuple(word, word, fc.option(commentText, { nil: undefined })), { maxLength: 4 }),
  rules: fc.array(
    fc.record({
      list: fc.constantFrom('allow' as const, 'deny' as const),
      tool: fc.constantFrom('bash', 'read', 'edit'),
      match: pattern,
      flow: fc.boolean(),
      style: fc.integer({ min: 0, max: 2 }),
      note: fc.option(commentText, { nil: undefined }),
    }),
    { maxLength: 5 },
  ),
  head: fc.option(commentText, { nil: undefined }),
  anchor: fc.boolean(),
});

function render(g: Gen): string {
  const pad = (n: number) => ' '.repeat(n * g.indent);
  const lines: string[] = [];
  if (g.head) lines.push(g.head);
  const used = new Set(['agent']);
  for (const [k, v, c] of g.foreign) {
    if (used.has(k)) continue;
    used.add(k);
    lines.push(`${k}: ${v}${c ? `   ${c}` : ''}`);
  }
  lines.push(g.anchor ? 'shared: &s {level: 1}' : 'shared: 1', 'agent:', `${pad(1)}max_turns: 40`, `${pad(1)}approver:`);
  lines.push(`${pad(2)}mode: pattern`, `${pad(2)}default: deny  # closed`);
  for (const list of ['allow', 'deny'] as const) {
    const rules = g.rules.filter((r) => r.list === list);
    if (rules.length === 0) continue;
    lines.push(`${pad(2)}${list}:`);
    for (const r of rules) {
      if (r.note) lines.push(`${pad(3)}${r.note}`);
      if (r.flow) lines.push(`${pad(3)}- {tool: ${r.tool},  match: ${quoted(r.match, r.style === 0 ? 2 : r.style)}}`);
      else lines.push(`${pad(3)}- tool: ${r.tool}`, `${pad(3)}  match: ${quoted(r.match, r.style === 0 ? 2 : r.style)}`);
    }
  }
  if (g.anchor) lines.push('copy: *s');
  lines.push('# the end', '');
  return lines.join('\n');
}

describe('fmt keeps everything: generated agent configurations', () => {
  it('keeps every comment, every key and the policy, and is idempotent', () => {
    fc.assert(
      fc.property(genArb, (g) => {
        const text = render(g);
        const compiled = compileSource(text, 'gen.yaml', { stopAfter: 'parse' });
        expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expectLossless(text, 'gen.yaml', 'yaml');
      }),
      { numRuns: Number(process.env['VERDICT_FUZZ_RUNS'] ?? 150) },
    );
  });
});
