/** The examples of DSL.md compile, and the full example's own tests hold against the engine. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSource, formatVerdictSource } from '../../src/index.ts';
import { ROOT, read } from './helpers.ts';

const doc = read(join(ROOT, 'packages/compiler/DSL.md'));
const blocks = [...doc.matchAll(/```verdict\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe('DSL.md', () => {
  it('has examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it('the full example compiles cleanly, is in canonical layout, and its tests pass', async () => {
    const text = blocks[0]!;
    const r = compileSource(text, 'example.verdict');
    expect(r.diagnostics).toEqual([]);
    expect(formatVerdictSource(text, 'example.verdict').text).toBe(text);
    const approver = r.approver!;
    expect(r.ir!.tests).toHaveLength(3);
    for (const t of r.ir!.tests) {
      const e = approver.explain({ toolName: t.tool, input: t.input });
      expect(e.decision, t.name).toBe(t.expect);
      if (t.reason !== undefined) expect(e.reason).toBe(t.reason);
      if (t.rule !== undefined) expect(e.rule ? `${e.rule.list}[${e.rule.index}]` : 'default').toBe(t.rule);
    }
  });

  it('every other example parses (the policy reference, the approver and test shapes filled in)', () => {
    const policy = blocks.find((b) => b.startsWith('policy {'))!;
    expect(compileSource(policy, 'policy.verdict', { stopAfter: 'parse' }).diagnostics).toEqual([]);
    const test = blocks.find((b) => b.startsWith('test '))!;
    expect(compileSource(test, 'test.verdict', { stopAfter: 'parse' }).diagnostics).toEqual([]);
  });
});

describe('the TextMate grammar', () => {
  it('highlights exactly the lexer\'s keywords', async () => {
    const { keywordTokens } = await import('../../src/dsl/tokens.ts');
    const grammar = JSON.parse(read(join(ROOT, 'packages/compiler/src/dsl/verdict.tmLanguage.json'))) as {
      repository: { keyword: { patterns: { match: string }[] } };
    };
    const words = grammar.repository.keyword.patterns.flatMap((p) => /\(\?:([a-z|]+)\)/.exec(p.match)![1]!.split('|'));
    expect(words.sort()).toEqual([...keywordTokens.keys()].sort());
  });
});
