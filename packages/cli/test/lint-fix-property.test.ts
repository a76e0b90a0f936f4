/**
 * `verdict lint --fix` changes a policy's decisions only as each fix intends. Generated YAML agent
 * configurations (comments, keys that are not the policy's, every quoting style) hold rules
 * written with a fixable mistake next to what the author meant; after the fix, the policy must
 * decide every generated call exactly as the one written as meant (the engine's approver on calls
 * from @verdict/testing), keep every comment and other value byte for byte, keep its inline tests
 * passing, and a second `--fix` must find nothing. Over every fixture the same holds but for the
 * intended policy, which a fixture does not say: there a fix may only deny more in a deny rule and
 * allow less in an allow rule.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSource, findFiles, POLICY_EXTENSIONS, readSourceFile } from '@verdict/compiler';
import { fixSource, lintSource } from '@verdict/lint';
import { assertProperty, equivalent, mustLoad, policyFromSource, stricterThan } from '@verdict/testing';
import { repoRoot } from './harness.ts';

/** A rule written with a mistake a fix rewrites, and the same rule as its author meant it. */
interface Case {
  family: 'quoting' | 'spelling' | 'anchor' | 'grouping' | 'dotAll';
  list: 'allow' | 'deny';
  /** YAML flow-map text of the rule as written, and as meant (a different spelling, never the fix's own text). */
  written: string;
  meant: string;
  /** An inline test (YAML flow map) the policy as meant passes, whatever the default; most fail as written. */
  test?: string;
}

const CASES: readonly Case[] = [
  { family: 'quoting', list: 'deny', written: "{tool: bash, match: 'rm\\\\s+-rf'}", meant: '{tool: bash, match: "rm\\\\s+-rf"}', test: '{tool: bash, input: \'{"command":"rm  -rf /tmp/x"}\', expect: deny}' },
  { family: 'quoting', list: 'deny', written: "{tool: bash, match: 'curl\\\\b.*\\\\|\\\\s*sh'}", meant: '{tool: bash, match: "curl\\\\b.*\\\\|\\\\s*sh"}', test: '{tool: bash, input: \'{"command":"curl x | sh"}\', expect: deny}' },
  { family: 'quoting', list: 'allow', written: "{tool: read, match: '\\\\.md\"'}", meant: '{tool: read, match: "\\\\.md\\""}', test: '{tool: read, input: \'{"path":"/etc/a.md"}\', expect: allow}' },
  { family: 'spelling', list: 'deny', written: "{tool: bash, match: 'su\\u0064o'}", meant: "{tool: bash, match: 'sudo'}", test: '{tool: bash, input: \'{"command":"sudo ls"}\', expect: deny}' },
  { family: 'spelling', list: 'deny', written: "{tool: bash, match: 'a\\cIb'}", meant: '{tool: bash, match: "a\\\\tb"}' },
  { family: 'spelling', list: 'allow', written: "{tool: bash, match: '\"command\":\"(?>ls|pwd)\"'}", meant: "{tool: bash, match: '\"command\":\"(ls|pwd)\"'}", test: '{tool: bash, input: \'{"command":"pwd"}\', expect: allow}' },
  { family: 'spelling', list: 'deny', written: "{tool: bash, match: 'rm -r++f'}", meant: "{tool: bash, match: 'rm -r+f'}", test: '{tool: bash, input: \'{"command":"rm -rrf x"}\', expect: deny}' },
  { family: 'anchor', list: 'deny', written: "{tool: bash, match: '^sudo '}", meant: "{tool: bash, match: 'sudo '}", test: '{tool: bash, input: \'{"command":"sudo rm"}\', expect: deny}' },
  { family: 'anchor', list: 'deny', written: "{tool: bash, match: 'shutdown$'}", meant: "{tool: bash, match: 'shutdown'}", test: '{tool: bash, input: \'{"command":"shutdown"}\', expect: deny}' },
  { family: 'grouping', list: 'allow', written: "{tool: bash, match: '\"command\":\"git status|git diff'}", meant: "{tool: bash, match: '\"command\":\"(git status|git diff)'}", test: '{tool: bash, input: \'{"command":"git diff"}\', expect: allow}' },
  { family: 'dotAll', list: 'deny', written: "{tool: bash, field: command, match: '.*sudo.*'}", meant: "{tool: bash, field: command, match: '(?s:.*sudo.*)'}", test: '{tool: bash, input: \'{"command":"ls\\nsudo rm"}\', expect: deny}' },
];

/** Rules with nothing to fix, around the generated ones. */
const PLAIN_RULES = { allow: ["{tool: read, field: path, match: '/workspace/[^/]+'}"], deny: ['{tool: bash, match: "rm -rf /"}'] };

const COMMENTS = ['# reviewed by the platform team', '# keep this list short', '# see the runbook'];

interface Generated {
  written: string;
  meant: string;
  families: Set<Case['family']>;
}

const configs: fc.Arbitrary<Generated> = fc
  .record({
    picks: fc.uniqueArray(fc.nat({ max: CASES.length - 1 }), { minLength: 1, maxLength: 4 }),
    comments: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    input: fc.constantFrom('raw', 'canonical'),
    defaultDecision: fc.constantFrom('allow', 'deny'),
  })
  .map(({ picks, comments, input, defaultDecision }) => {
    const chosen = picks.map((i) => CASES[i]!);
    const c = (i: number, text: string): string[] => (comments[i] ? [text] : []);
    const build = (side: 'written' | 'meant'): string => {
      const list = (name: 'allow' | 'deny', k: number): string[] => [
        `    ${name}:`,
        ...c(k, `      ${COMMENTS[k % COMMENTS.length]}`),
        ...PLAIN_RULES[name].map((r) => `      - ${r}`),
        ...chosen.filter((x) => x.list === name).map((x, j) => `      - ${x[side]}${comments[(k + j) % 8] ? '  # why' : ''}`),
      ];
      return [
        '# nightly agent',
        'name: nightly   # not the policy',
        'model: {id: large, temperature: 0.2}',
        ...c(1, '# the approver'),
        'agent:',
        '  approver:',
        '    mode: pattern',
        `    default: ${defaultDecision}`,
        `    input: ${input}`,
        '    reason: "denied: ask the operator"',
        ...list('allow', 2),
        ...list('deny', 3),
        ...c(4, '# examples'),
        'tests:',
        "  - {name: rm, tool: bash, input: '{\"command\":\"rm -rf /\"}', expect: deny}",
        ...chosen.flatMap((x, i) => (x.test === undefined ? [] : [`  - {name: ${x.family} ${i},${x.test.slice(1)}`])),
        ...c(5, '# trailing'),
        '',
      ].join('\n');
    };
    return { written: build('written'), meant: build('meant'), families: new Set(chosen.map((x) => x.family)) };
  });

/** The text with every rule pattern blanked: what a fix must leave byte for byte (comments, other keys, layout). */
function withoutPatterns(text: string, file: string): string {
  const ir = compileSource(text, file, { stopAfter: 'parse' }).ir;
  const spans = (['allow', 'deny', 'ask'] as const).flatMap((l) => ir?.approver?.[l] ?? []).flatMap((r) => (r.matchSpan ? [r.matchSpan] : []));
  spans.sort((a, b) => b.start.offset - a.start.offset);
  let out = text;
  for (const s of spans) out = `${out.slice(0, s.start.offset)}<pattern>${out.slice(s.end.offset)}`;
  return out;
}

const failingTests = (text: string, file: string): string[] =>
  lintSource(text, file, { only: ['tests/failing'] })
    .messages.filter((m) => m.ruleId === 'tests/failing')
    .map((m) => m.message);

describe('lint --fix decides as the author meant (generated agent configurations)', () => {
  it('the generator covers every fix family', () => {
    expect(new Set(CASES.map((c) => c.family)).size).toBe(5);
  });

  it('fixed policy ≡ policy written as meant; comments and other values kept; tests pass; a second fix finds nothing', () => {
    let failedAsWritten = 0;
    fc.assert(
      fc.property(configs, ({ written, meant }) => {
        const fixed = fixSource(written, 'agent.yaml');
        expect(fixed.diagnostics).toEqual([]);
        const out = fixed.output;
        expect(out).toBeDefined();
        expect(withoutPatterns(out!, 'agent.yaml')).toBe(withoutPatterns(written, 'agent.yaml'));
        expect(fixed.result.messages.filter((m) => m.fix !== undefined)).toEqual([]);
        expect(fixSource(out!, 'agent.yaml').output).toBeUndefined();
        // The author's own examples: the policy as meant passes them, and so does the fixed one.
        expect(failingTests(meant, 'meant.yaml')).toEqual([]);
        if (failingTests(written, 'agent.yaml').length > 0) failedAsWritten++;
        expect(failingTests(out!, 'agent.yaml')).toEqual([]);
        const after = mustLoad(policyFromSource(out!, 'agent.yaml'));
        const intended = mustLoad(policyFromSource(meant, 'meant.yaml'));
        assertProperty(equivalent(intended, after), { numRuns: 60, seed: 7 });
      }),
      { numRuns: 40, seed: 17 },
    );
    // Not vacuous: as written, the policies fail their author's examples, and the fix mends them.
    expect(failedAsWritten).toBeGreaterThan(0);
  });
});

/** Every policy-shaped file under `dir` (the golden runs' `args.json` aside), found by the walker the commands use. */
function policyFiles(dir: string): string[] {
  return findFiles([dir], { cwd: dir, extensions: POLICY_EXTENSIONS, gitignore: false })
    .files.map((f) => f.abs)
    .filter((p) => !p.endsWith('/args.json'));
}

const FIXTURES = join(repoRoot, 'fixtures');
const fixable = policyFiles(FIXTURES).flatMap((path) => {
  const read = readSourceFile(path);
  if (read.text === undefined) return [];
  const compiled = compileSource(read.text, path, { stopAfter: 'resolve' });
  if (compiled.ir === undefined || compiled.syntax === undefined) return [];
  const fixed = fixSource(read.text, path);
  return fixed.output === undefined ? [] : [{ path, text: read.text, syntax: compiled.syntax, fixed }];
});

describe('lint --fix over the fixtures', () => {
  it('finds fixtures with fixes in every syntax', () => {
    expect(new Set(fixable.map((f) => f.syntax))).toEqual(new Set(['yaml', 'json', 'verdict']));
  });
  it.each(fixable.map((f) => [relative(FIXTURES, f.path), f] as const))('%s', (_name, { path, text, fixed }) => {
    const out = fixed.output!;
    expect(fixed.diagnostics).toEqual([]);
    expect(withoutPatterns(out, path)).toBe(withoutPatterns(text, path));
    expect(fixSource(out, path).output).toBeUndefined();
    // Inline tests that passed still pass.
    const before = failingTests(text, path);
    expect(failingTests(out, path).filter((m) => !before.includes(m))).toEqual([]);
    // A fix denies more in a deny rule and allows less in an allow rule: the fixed policy is at least
    // as strict, whenever both load (a pattern RE2 could not compile may have been respelled).
    const a = policyFromSource(text.replace(/^\ufeff/, ''), path);
    const b = policyFromSource(out.replace(/^\ufeff/, ''), path);
    if (a.ok) expect(b.ok).toBe(true);
    if (a.ok && b.ok && !/regex\/(unsupported-syntax|yaml-escape)/.test(fixedRules(text, path).join(' '))) {
      assertProperty(stricterThan(b.policy, a.policy), { numRuns: 100, seed: 3 });
    }
  });
});

/** The rules whose findings carried a fix on the first pass. */
function fixedRules(text: string, file: string): string[] {
  return lintSource(text, file)
    .messages.filter((m) => m.fix !== undefined)
    .map((m) => m.ruleId);
}

it('reads the fixture files it fixes as they are on disk', () => {
  for (const f of fixable) expect(readFileSync(f.path, 'utf8')).toBe(f.text);
});
