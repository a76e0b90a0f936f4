/**
 * A lint run parses each policy file once: the compiler's parse builds the tree that locates
 * findings, tells scalar styles apart and answers whether a file names a Verdict `$schema`.
 * Every YAML and JSON parse goes through yaml's `Lexer.lex`, which is counted here per text.
 * Not counted: what `SourceEditor` reads to write a fix (`verdict lint --fix`, and the `fix` a
 * fixable finding carries): it needs yaml's concrete syntax tree, which the compiler does not keep.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SourceEditor } from '@verdict/compiler';
import { Lexer } from 'yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lintFiles } from '../src/lint-files.ts';
import { project } from './support/project.ts';


/** How many times each distinct text was lexed while `run` ran (outside the fix editor). */
function parsesOf(run: () => void): Map<string, number> {
  const counts = new Map<string, number>();
  const lex = Lexer.prototype.lex;
  let fixing = 0;
  const spy = vi.spyOn(Lexer.prototype, 'lex').mockImplementation(function (this: Lexer, source: string, incomplete?: boolean) {
    if (fixing === 0) counts.set(source, (counts.get(source) ?? 0) + 1);
    return lex.call(this, source, incomplete);
  });
  const edit = SourceEditor.prototype.patternEdit;
  const editSpy = vi.spyOn(SourceEditor.prototype, 'patternEdit').mockImplementation(function (this: SourceEditor, at, pattern) {
    fixing++;
    try {
      return edit.call(this, at, pattern);
    } finally {
      fixing--;
    }
  });
  try {
    run();
  } finally {
    spy.mockRestore();
    editSpy.mockRestore();
  }
  return counts;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const reason = 'denied — only reads are allowed in this job; ask the operator';
const files: Record<string, string> = {
  // Findings located by path (a missing `reason`, a field that is not the approver's) and by style.
  'a.policy.yaml': `approver:\n  mode: pattern\n  default: allow\n  allow:\n    - {tool: bash, match: "git\\\\s+status"}\n    - tool: read\n      match: '\\\\d+'\n`,
  'b.policy.json': `{"approver": {"mode": "pattern", "reason": "${reason}", "allow": [{"tool": "read", "match": "("}], "deny": []}}`,
  'anchors.policy.yaml': `approver:\n  mode: pattern\n  reason: ${reason}\n  allow: &rules\n    - {tool: read, match: "x"}\n  deny: *rules\n`,
  'policy-fields.policy.yaml': 'policy:\n  sandbox: full\n  approvals: {permission: ask, plan_review: auto_approve, question: ask, max_retries: 0}\n',
  // Found by its `$schema`, not its name.
  'schema.json': `{"$schema": "https://verdict.dev/schemas/policy-file.schema.json", "approver": {"mode": "deny_all", "reason": "${reason}"}}`,
  'schema.yaml': `$schema: https://verdict.dev/schemas/policy-file.schema.json\napprover:\n  mode: pattern\n  allow:\n    - {tool: bash, match: "^ls"}\n`,
  // Not a policy, read but never linted.
  'other.json': '{"$schema": "https://json.schemastore.org/renovate", "mode": "x"}',
};

describe('a lint run parses each file once', () => {
  it('lexes every YAML and JSON text at most once, findings located', () => {
    const dir = project(files);
    let findings = 0;
    const counts = parsesOf(() => {
      const run = lintFiles([], { cwd: dir, noConfigLookup: true });
      findings = run.results.reduce((n, r) => n + r.messages.length, 0);
      expect(run.results.map((r) => r.file)).toEqual([
        'a.policy.yaml',
        'anchors.policy.yaml',
        'b.policy.json',
        'policy-fields.policy.yaml',
        'schema.json',
        'schema.yaml',
      ]);
      // Located findings: none falls back to the start of the file for want of a locator.
      for (const r of run.results) for (const m of r.messages) expect(m.span).toBeDefined();
    });
    if (process.env.PARSE_COUNTS) console.log(JSON.stringify(Object.fromEntries(Object.entries(files).map(([n, t]) => [n, counts.get(t)]))));
    expect(findings).toBeGreaterThan(5);
    for (const [name, text] of Object.entries(files)) {
      expect({ name, parses: counts.get(text) ?? 0 }).toEqual({ name, parses: 1 });
    }
  });

  it('also for every policy fixture of the repository', () => {
    const root = join(import.meta.dirname, '../../../fixtures');
    const named = ['policies', 'lint/policies'].flatMap((d) =>
      readdirSync(join(root, d))
        .filter((n) => /\.(ya?ml|json)$/.test(n) && n !== 'verdict.config.yaml')
        .map((n) => join(d, n)),
    );
    const counts = parsesOf(() => {
      const run = lintFiles(named, { cwd: root, noConfigLookup: true });
      expect(run.results.length).toBe(named.length);
    });
    if (process.env.PARSE_COUNTS) console.log("fixtures", counts.size, "texts", [...counts.values()].reduce((a, b) => a + b, 0), "parses");
    const twice = [...counts].filter(([, n]) => n > 1).map(([text]) => text.slice(0, 60));
    expect(twice).toEqual([]);
  });
});
