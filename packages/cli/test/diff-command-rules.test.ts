/**
 * `diffPolicies` with command rules on shell tools: exact where the changes decide it, a witness
 * the approvers confirm where one is found, "unknown" otherwise, never a wrong verdict. Here, with
 * the CLI's tests, because `@verdict/analysis` does not depend on `@verdict/shell`: like
 * `verdict diff`, the tests pass its judge in (`commandJudge`).
 */
import { readFileSync } from 'node:fs';
import { compileApprover } from '@verdict/engine';
import type { ApproverIR, CompiledApprover, RuledDecision, RuleIR, WrapperIR } from '@verdict/engine';
import { commandJudgeFactory } from '@verdict/shell';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeApprover, diffPolicies } from '@verdict/analysis';
import type { DiffChange, PolicyDiff } from '@verdict/analysis';

type Block = Partial<ApproverIR> & Pick<ApproverIR, 'allow' | 'deny'>;
const approver = (b: Block): ApproverIR => ({ mode: 'pattern', default: 'deny', reason: '', input: 'raw', ...b });
const cmd = (command: (string | string[])[], more: Partial<RuleIR> = {}): RuleIR => ({ tool: 'Bash', match: '', command, ...more });
const options = { commandJudge: commandJudgeFactory, totalTimeMs: 20_000 };
const diff = (o: ApproverIR, n: ApproverIR): PolicyDiff => diffPolicies(o, n, options);

const compiled = (ir: ApproverIR): CompiledApprover => {
  const a = compileApprover(ir, { commandJudge: commandJudgeFactory }).approver;
  if (a === undefined) throw new Error('the policy does not load');
  return a;
};

const WANT: Record<DiffChange['direction'], RuledDecision> = { 'newly-denied': 'deny', 'newly-allowed': 'allow', 'newly-asked': 'ask' };

/** Every witness shown is decided by both approvers as the diff says. */
function checkChanges(oldIr: ApproverIR, newIr: ApproverIR, d: PolicyDiff): void {
  const [oldA, newA] = [compiled(oldIr), compiled(newIr)];
  for (const c of d.changes) {
    const req = { toolName: c.toolName, input: c.input };
    const before = oldA.decide(req).decision;
    const after = newA.decide(req).decision;
    expect(after).toBe(WANT[c.direction]);
    expect(before).not.toBe(after);
    expect([c.old.decision, c.new.decision]).toEqual([before, after]);
  }
}

const shown = (d: PolicyDiff): string[] => d.changes.map((c) => `${c.direction} ${c.toolName} ${c.input}`);

describe('diffPolicies with command rules', () => {
  it('without a command judge, a policy with command rules is unknown, as before', () => {
    const p = approver({ allow: [cmd(['git', 'status'])], deny: [] });
    const d = diffPolicies(p, p);
    expect(d.verdict).toBe('unknown');
    expect(d.unknown).toEqual([
      'the old policy has command rules on shell tools, and no command judge was given to compare them',
      'the new policy has command rules on shell tools, and no command judge was given to compare them',
    ]);
  });

  it('a policy against itself is equivalent', () => {
    const p = approver({ allow: [cmd(['git', ['status', 'diff']]), { tool: 'Read', match: '' }], deny: [cmd(['rm'])], unknown: 'ask' });
    const d = diff(p, p);
    expect(d.verdict).toBe('equivalent');
    expect(d.unknown).toEqual([]);
  });

  it('a deny command rule added: stricter, with the command it denies', () => {
    const o = approver({ allow: [cmd(['git', ['status', 'diff']])], deny: [] });
    const n = approver({ allow: [cmd(['git', ['status', 'diff']])], deny: [cmd(['git', 'diff'])] });
    const d = diff(o, n);
    expect(d.verdict).toBe('stricter');
    expect(shown(d)).toEqual(['newly-denied Bash {"command":"git diff"}']);
    expect(d.newlyDenied?.old).toMatchObject({ decision: 'allow', rule: { list: 'allow', index: 0 } });
    expect(d.newlyDenied?.new).toMatchObject({ decision: 'deny', rule: { list: 'deny', index: 0 } });
    expect(d.unknown).toEqual([]);
    checkChanges(o, n, d);
    // And the other way round.
    const back = diff(n, o);
    expect(back.verdict).toBe('looser');
    expect(shown(back)).toEqual(['newly-allowed Bash {"command":"git diff"}']);
  });

  it('an allow command rule added: looser, with the command it allows', () => {
    const o = approver({ allow: [cmd(['git', 'status'])], deny: [] });
    const n = approver({ allow: [cmd(['git', 'status']), cmd(['npm', 'test'], { args: '(--[a-z]+ ?)*' })], deny: [] });
    const d = diff(o, n);
    expect(d.verdict).toBe('looser');
    expect(shown(d)).toEqual(['newly-allowed Bash {"command":"npm test"}']);
    checkChanges(o, n, d);
  });

  it('identical command sides and a regex rule changed on another tool: exact', () => {
    const rules = { allow: [cmd(['git', 'status'])], deny: [cmd(['rm'])] };
    const o = approver({ ...rules, allow: [...rules.allow, { tool: 'Read', match: 'src/' }] });
    const n = approver({ ...rules, allow: [...rules.allow, { tool: 'Read', match: '' }] });
    const d = diff(o, n);
    expect(d.verdict).toBe('looser');
    expect(d.unknown).toEqual([]);
    expect(d.changes.map((c) => [c.direction, c.toolName])).toEqual([['newly-allowed', 'Read']]);
    checkChanges(o, n, d);
  });

  it('a list of alternatives and the rules it spells out are the same rules: equivalent, exactly', () => {
    const o = approver({ allow: [cmd(['git', ['status', 'diff']])], deny: [cmd([['rm', 'rmdir']])] });
    const n = approver({ allow: [cmd(['git', 'diff']), cmd(['git', 'status'])], deny: [cmd(['rmdir']), cmd(['rm'])] });
    const d = diff(o, n);
    expect(d.verdict).toBe('equivalent');
    expect(d.unknown).toEqual([]);
  });

  it('a deny rule with `args` is not spelled out: where the alternatives match decides what `args` reads', () => {
    const o = approver({ allow: [], deny: [cmd(['git', ['status', 'diff']], { args: 'x' })], default: 'allow' });
    const n = approver({ allow: [], deny: [cmd(['git', 'status'], { args: 'x' }), cmd(['git', 'diff'], { args: 'x' })], default: 'allow' });
    const req = { toolName: 'Bash', input: '{"command":"git diff status x"}' };
    expect([compiled(o).decide(req).decision, compiled(n).decide(req).decision]).toEqual(['allow', 'deny']);
    const d = diff(o, n);
    expect(d.verdict).not.toBe('equivalent');
    expect(d.verdict).not.toBe('looser');
    checkChanges(o, n, d);
  });

  it('a deny rule the others already cover: the same calls, which examples cannot prove: unknown, said so', () => {
    const o = approver({ allow: [cmd(['git', ['status', 'diff']])], deny: [cmd(['rm'])] });
    const n = approver({ allow: [cmd(['git', ['status', 'diff']])], deny: [cmd(['rm']), cmd(['rm', '-rf'])] });
    const d = diff(o, n);
    expect(d.verdict).toBe('unknown');
    expect(d.changes).toEqual([]);
    // Only the direction the change can take is unknown: nothing can be newly allowed.
    expect(d.unknown).toHaveLength(1);
    expect(d.unknown[0]).toMatch(/^newly denied calls: tool `Bash`: command rules are compared by examples only, and none of \d+ example calls is such a call$/);
  });

  it('a policy that never allows cannot newly deny: equivalent, exactly, whatever deny rules it gains', () => {
    const o = approver({ allow: [], deny: [cmd(['rm'], { tool: '' })] });
    const n = approver({ allow: [], deny: [cmd(['rm'], { tool: '' }), cmd(['git'])] });
    expect(diff(o, n).verdict).toBe('equivalent');
  });

  it('shell tools left unknown for one reason share one line', () => {
    const o = approver({ allow: [], deny: [cmd(['rm'], { tool: '' })], default: 'allow' });
    const n = approver({ allow: [], deny: [cmd(['rm'], { tool: '' }), cmd(['rm', '-rf'], { tool: '' })], default: 'allow' });
    const d = diff(o, n);
    expect(d.verdict).toBe('unknown');
    expect(d.unknown).toHaveLength(1);
    expect(d.unknown[0]).toMatch(/^newly denied calls: tools `Bash`, `run_shell_command`, `Shell`: command rules are compared by examples only, and none of \d+ example calls is such a call$/);
  });

  it('`unknown: ask` instead of deny: looser, newly asked, with a command that cannot be judged', () => {
    const o = approver({ allow: [cmd(['ls'])], deny: [] });
    const n = approver({ allow: [cmd(['ls'])], deny: [], unknown: 'ask' });
    const d = diff(o, n);
    expect(d.verdict).toBe('looser');
    // On each of the default shell tools.
    expect(shown(d)).toEqual([
      // The first text the example search finds that cannot be judged: an assignment not known to be harmless.
      'newly-asked Bash {"command":"env A=1 ls"}',
      'newly-asked run_shell_command {"command":"$x"}',
      'newly-asked Shell {"command":"$x"}',
    ]);
    checkChanges(o, n, d);
  });

  it('command rules on a policy that had none: both ways, with witnesses', () => {
    const o = approver({ allow: [{ tool: 'Bash', match: '^\\{"command":"(git|ls)' }], deny: [] });
    const n = approver({ allow: [cmd(['git', 'status']), cmd(['ls'])], deny: [] });
    const d = diff(o, n);
    expect(d.verdict).toBe('neither');
    checkChanges(o, n, d);
  });

  it('a shell tool of one policy only (its own `shell:` table) is compared as a shell tool', () => {
    const o = approver({ allow: [{ tool: 'sh', match: 'ls' }], deny: [] });
    const n = approver({ allow: [{ tool: 'sh', match: 'ls' }], deny: [cmd(['rm'], { tool: 'sh' })], shell: [{ tool: 'sh', field: 'script' }] });
    const d = diff(o, n);
    // The new policy judges `sh` calls: `rm` after `ls` is denied now, and nothing is allowed that was not.
    expect(d.verdict).toBe('stricter');
    expect(shown(d)).toEqual(['newly-denied sh {"script":"ls && rm"}']);
    checkChanges(o, n, d);
  });

  it('a field changed in the `shell:` table: the calls that moved are found', () => {
    const o = approver({ allow: [cmd(['ls'])], deny: [], shell: [{ tool: 'Bash', field: 'command' }] });
    const n = approver({ allow: [cmd(['ls'])], deny: [], shell: [{ tool: 'Bash', field: 'cmd' }] });
    const d = diff(o, n);
    expect(d.verdict).toBe('neither');
    checkChanges(o, n, d);
  });
});

describe('analyzeApprover with command rules', () => {
  it('reports on the regex rules only, the same with or without a judge', () => {
    const p = approver({
      allow: [cmd(['git', 'status']), { tool: 'Bash', match: 'git log' }],
      deny: [{ tool: 'Bash', match: 'git' }, cmd(['rm'])],
    });
    for (const o of [{}, { commandJudge: commandJudgeFactory }]) {
      const findings = analyzeApprover(p, { ...o, checks: { overlap: false } });
      expect(findings.map((f) => (f.kind === 'shadowed-rule' ? [f.kind, f.rule.list, f.rule.index, f.by.map((b) => `${b.list}[${b.index}]`)] : [f.kind]))).toEqual([
        ['shadowed-rule', 'allow', 1, ['deny[0]']],
      ]);
    }
  });
});

/* --------------------------------------------------------------------------------------------- */

const corpus = (name: string): string[] =>
  readFileSync(new URL(`../../../fixtures/shell/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { command: string }).command);
/** Every third command of the two corpora, and a few of their own. */
const SAMPLE = [...corpus('benign.jsonl'), ...corpus('bypass.jsonl')].filter((_, i) => i % 3 === 0).concat(['git diff', 'git status', 'npm test --watch', 'ls > /etc/x', 'cat secret', '$x', 'retry -n 3 rm -rf /', 'retry git status']);

const program = fc.constantFrom('git', 'ls', 'rm', 'cat', 'npm', '/bin/ls');
const word = fc.oneof(fc.constantFrom('status', 'diff', 'push', 'test'), fc.constant(['status', 'diff']));
const commandRule = fc.record(
  {
    command: fc.tuple(program, fc.array(word, { maxLength: 1 })).map(([p, w]) => [p, ...w] as (string | string[])[]),
    args: fc.constantFrom('(--[a-z]+ ?)*', '-[a-z]+', '.*'),
    redirect: fc.constantFrom('/etc/.*', 'out\\.txt'),
  },
  { requiredKeys: ['command'] },
);
const redirectRule = fc.record({ redirect: fc.constantFrom('/etc/.*', '.*') });
const rule: fc.Arbitrary<RuleIR> = fc.oneof(
  { weight: 5, arbitrary: commandRule.map((r) => ({ tool: 'Bash', match: '', ...r })) },
  { weight: 1, arbitrary: redirectRule.map((r) => ({ tool: '', match: '', ...r })) },
  { weight: 2, arbitrary: fc.constantFrom('secret', 'rm ', '^\\{"command":"git').map((match) => ({ tool: 'Bash', match })) },
  { weight: 1, arbitrary: fc.constant({ tool: 'Bash', match: 'diff', field: 'command' }) },
);
const policy: fc.Arbitrary<ApproverIR> = fc
  .record({
    allow: fc.array(rule, { maxLength: 3 }),
    deny: fc.array(rule, { maxLength: 2 }),
    ask: fc.array(rule, { maxLength: 1 }),
    default: fc.constantFrom('allow', 'deny'),
    unknown: fc.constantFrom('ask', 'deny'),
    input: fc.constantFrom('raw', 'canonical'),
    mode: fc.constantFrom('pattern', 'pattern', 'pattern', 'pattern', 'pattern', 'pattern', 'pattern', 'pattern', 'allow_all', 'deny_all'),
    field: fc.constantFrom('command', 'command', 'command', 'cmd'),
    wrappers: fc.constantFrom(false, false, true),
  })
  .map(({ field, wrappers, ...p }) =>
    approver({ ...p, input: p.input as 'raw' | 'canonical', shell: [{ tool: 'Bash', field }], ...(wrappers ? { wrappers: RETRY } : {}) }),
  );

type Lists = 'allow' | 'deny' | 'ask';
const RETRY: Record<string, WrapperIR> = { retry: { options: ['-n'] } };
/** A small edit of a policy: a rule added or removed, `unknown:` or the default flipped. */
const edited = (p: ApproverIR): fc.Arbitrary<ApproverIR> =>
  fc.oneof<fc.Arbitrary<ApproverIR>[]>(
    fc.tuple(fc.constantFrom<Lists>('allow', 'deny', 'ask'), rule).map(([l, r]) => ({ ...p, [l]: [...(p[l] ?? []), r] })),
    fc.tuple(fc.constantFrom<Lists>('allow', 'deny', 'ask'), fc.nat()).map(([l, i]) => ({ ...p, [l]: (p[l] ?? []).filter((_, k) => k !== i % Math.max(1, (p[l] ?? []).length)) })),
    fc.constant({ ...p, unknown: p.unknown === 'ask' ? 'deny' : 'ask' }),
    fc.constant({ ...p, default: p.default === 'allow' ? 'deny' : 'allow' }),
    fc.constant<ApproverIR>({ ...p, shell: [{ tool: 'Bash', field: p.shell?.[0]?.field === 'cmd' ? 'command' : 'cmd' }] }),
    fc.constant(p.wrappers === undefined ? { ...p, wrappers: RETRY } : (({ wrappers: _w, ...rest }) => rest)(p)),
  );
const pair: fc.Arbitrary<[ApproverIR, ApproverIR]> = fc.oneof(
  fc.tuple(policy, policy).map(([a, b]) => [a, { ...b, input: a.input }] as [ApproverIR, ApproverIR]),
  policy.chain((a) => edited(a).map((b) => [a, b] as [ApproverIR, ApproverIR])),
  policy.chain((a) => edited(a).chain((b) => edited(b).map((c) => [a, c] as [ApproverIR, ApproverIR]))),
);

/** The moves each direction of a diff is about, and the `unknown` line that leaves it undecided. */
const DIRECTIONS: { what: string; was: RuledDecision[]; want: RuledDecision }[] = [
  { what: 'newly denied calls', was: ['allow', 'ask'], want: 'deny' },
  { what: 'newly allowed calls', was: ['deny', 'ask'], want: 'allow' },
  { what: 'newly asked calls (allowed before)', was: ['allow'], want: 'ask' },
  { what: 'newly asked calls (denied before)', was: ['deny'], want: 'ask' },
];

describe('diffPolicies with command rules: properties', () => {
  it('every witness is confirmed by the approvers, and no decided direction is contradicted on the corpus sample', () => {
    fc.assert(
      fc.property(pair, ([o, n]) => {
        const d = diff(o, n);
        checkChanges(o, n, d);
        const [oldA, newA] = [compiled(o), compiled(n)];
        // Each command in the field `command`, and the first ones in `cmd` too (the other field the policies may read).
        const inputs = [...SAMPLE.map((command) => JSON.stringify({ command })), ...SAMPLE.slice(0, 30).map((cmd) => JSON.stringify({ cmd }))];
        const seen = inputs.map((input) => {
          const req = { toolName: 'Bash', input };
          return { input, old: oldA.decide(req).decision, new: newA.decide(req).decision };
        });
        for (const dir of DIRECTIONS) {
          if (d.unknown.some((u) => u.startsWith(`${dir.what}:`))) continue;
          const found = d.changes.some((c) => dir.was.includes(c.old.decision) && c.new.decision === dir.want);
          if (found) continue;
          // Decided, with no witness: the sample must not show such a call either.
          const contra = seen.find((s) => dir.was.includes(s.old) && s.new === dir.want);
          expect(contra, `${dir.what}: ${JSON.stringify(contra)} (${d.verdict})`).toBeUndefined();
        }
        if (d.verdict === 'equivalent') expect(seen.filter((s) => s.old !== s.new)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});
