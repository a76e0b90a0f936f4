/**
 * `diffPolicies` with command rules, through a small judge that keeps the contract the analysis
 * relies on (docs/shell.md: any deny or ask, every allow, `unknown:` after deny): the analysis
 * alone, without `@verdict/shell` (whose judge the CLI's tests use: packages/cli/test/diff-command-rules.test.ts).
 */
import type { ApproverIR, CommandJudgeFactory, RuleIR } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import { diffPolicies } from './index.ts';

/** Commands are the texts between `&&`, words split on spaces; any `$` cannot be judged. */
const toyJudge: CommandJudgeFactory = (set) => ({
  judge(text) {
    const commands = text.split('&&').map((c) => c.trim().split(' ').filter((w) => w !== ''));
    const matches = (r: (typeof set.rules)[number], words: string[]): boolean =>
      r.command !== undefined && r.command.every((w, k) => (typeof w === 'string' ? [w] : w).includes(words[k] ?? '\u0000'));
    for (const list of ['deny', 'ask'] as const) {
      for (const r of set.rules.filter((x) => x.list === list)) {
        if (commands.some((c) => matches(r, c))) return { decision: list, reason: `${list} rule`, rule: { list, index: r.index } };
      }
      if (list === 'deny' && text.includes('$')) return { decision: set.unknown, reason: 'cannot be judged' };
    }
    const allows = set.rules.filter((x) => x.list === 'allow');
    if (commands.every((c) => allows.some((r) => matches(r, c)))) return { decision: 'allow', reason: 'allowed' };
    return { decision: null, reason: 'no rule' };
  },
});

const approver = (b: Partial<ApproverIR> & Pick<ApproverIR, 'allow' | 'deny'>): ApproverIR => ({ mode: 'pattern', default: 'deny', reason: '', input: 'raw', shell: [{ tool: 'Bash', field: 'command' }], ...b });
const cmd = (command: (string | string[])[]): RuleIR => ({ tool: 'Bash', match: '', command });

describe('diffPolicies with command rules (a small judge)', () => {
  it('without a judge: unknown, saying why', () => {
    const p = approver({ allow: [cmd(['ls'])], deny: [] });
    expect(diffPolicies(p, p).unknown).toEqual([
      'the old policy has command rules on shell tools, and no command judge was given to compare them',
      'the new policy has command rules on shell tools, and no command judge was given to compare them',
    ]);
  });

  it('a deny rule added: stricter, with the witness the approvers confirm', () => {
    const o = approver({ allow: [cmd(['git', ['status', 'diff']])], deny: [] });
    const n = approver({ allow: [cmd(['git', ['status', 'diff']])], deny: [cmd(['git', 'diff'])] });
    const d = diffPolicies(o, n, { commandJudge: toyJudge });
    expect(d.verdict).toBe('stricter');
    expect(d.changes.map((c) => [c.direction, c.toolName, c.input, c.old.decision, c.new.decision])).toEqual([['newly-denied', 'Bash', '{"command":"git diff"}', 'allow', 'deny']]);
    expect(d.newlyDenied?.new.by).toBe('command');
  });

  it('other tools are compared by the regex analysis, exactly, beside unchanged command rules', () => {
    const rules = { allow: [cmd(['ls'])], deny: [cmd(['rm'])] };
    const o = approver({ ...rules, allow: [...rules.allow, { tool: 'Read', match: '' }] });
    const n = approver({ ...rules });
    const d = diffPolicies(o, n, { commandJudge: toyJudge });
    expect(d.verdict).toBe('stricter');
    expect(d.changes.map((c) => [c.direction, c.toolName])).toEqual([['newly-denied', 'Read']]);
  });

  it('what the changes cannot do is proven; what no example shows is unknown', () => {
    // `[rm, -rf]` beside `[rm]` denies nothing new, but only examples could look: unknown, one way.
    const o = approver({ allow: [], deny: [cmd(['rm'])], default: 'allow' });
    const n = approver({ allow: [], deny: [cmd(['rm']), cmd(['rm', '-rf'])], default: 'allow' });
    const d = diffPolicies(o, n, { commandJudge: toyJudge });
    expect(d.verdict).toBe('unknown');
    expect(d.unknown).toEqual([expect.stringMatching(/^newly denied calls: tool `Bash`: command rules are compared by examples only, and none of \d+ example calls is such a call$/)]);
    // Under a deny default nothing was allowed, so nothing can be newly denied: equivalent.
    const strict = diffPolicies({ ...o, default: 'deny' }, { ...n, default: 'deny' }, { commandJudge: toyJudge });
    expect(strict.verdict).toBe('equivalent');
  });
});
