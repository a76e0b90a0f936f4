import type { ApproverIR } from '@verdict/engine';
import { describe, expect, it } from 'vitest';
import { analyzeApprover } from './index.ts';

// Languages, alphabets and engine checks are shared across analyses (files of one lint run): what
// an analysis finds must not depend on which analyses ran before it.

const approver = (input: 'raw' | 'canonical', allow: ApproverIR['allow'], deny: ApproverIR['deny']): ApproverIR => ({
  mode: 'pattern',
  default: 'deny',
  reason: '',
  input,
  allow,
  deny,
});

const approvers: ApproverIR[] = [
  approver('raw', [{ tool: 'bash', match: '"command":"git ' }, { tool: 'bash', match: '^\\{"command":"ls"\\}$' }], [{ tool: 'bash', match: '--force|rm\\s+-rf' }]),
  approver('raw', [{ tool: 'bash', match: '"command":"git ' }, { tool: 'read', match: '.*' }], [{ tool: '', match: 'git ' }, { tool: 'bash', match: 'rm\\s+-rf' }]),
  approver('canonical', [{ tool: 'bash', field: 'command', match: 'git (status|diff)( [^;&|]*)?' }, { tool: 'edit', field: 'path', match: '/ws/.+' }], [
    { tool: 'bash', match: 'rm\\s+-rf|sudo' },
    { tool: 'edit', field: 'path', match: '.*\\.\\..*' },
    { tool: 'edit', match: '"path":"/etc/' },
  ]),
  approver('canonical', [{ tool: 'edit', field: 'path', match: '/ws/.+' }, { tool: 'bash', match: '\\n' }], [{ tool: 'edit', field: 'path', match: '/ws/.+' }]),
  approver('raw', [{ tool: 'bash', match: '(a|b)*a(a|b){6}$' }], [{ tool: 'bash', match: 'a$b' }]),
];

describe('analyses that share work', () => {
  it('find the same, in any order and on repetition', () => {
    const first = approvers.map((a) => analyzeApprover(a));
    const reversed = [...approvers].reverse().map((a) => analyzeApprover(a)).reverse();
    const again = approvers.map((a) => analyzeApprover(a));
    expect(reversed).toEqual(first);
    expect(again).toEqual(first);
    // The cases say something (not only "nothing found").
    expect(first.flat().map((f) => f.kind)).toEqual(expect.arrayContaining(['dead-rule', 'shadowed-rule']));
  });

  it('keep a state limit an analysis was given, whatever ran before with a larger one', () => {
    const big = approvers[4] as ApproverIR;
    const limited = analyzeApprover(big, { maxStates: 50 });
    expect(limited.map((f) => f.kind)).toContain('unknown');
    const unlimited = analyzeApprover(big);
    expect(unlimited.map((f) => f.kind)).not.toContain('unknown');
    expect(analyzeApprover(big, { maxStates: 50 })).toEqual(limited);
    expect(analyzeApprover(big)).toEqual(unlimited);
  });
});
