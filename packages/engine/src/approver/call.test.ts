/**
 * The decision procedure of a call (`call.ts`): the truth table of `precedence`, the protections
 * slot, and `decideCall` over a compiled approver agreeing with `callDefinition`. Command rules are
 * judged here by a stand-in judge (the engine does not import `@verdict/shell`; the CLI's
 * decision-entry-points test runs the real one).
 */
import { describe, expect, it } from 'vitest';
import type { ApproverIR, RuleIR } from '../ir.ts';
import { decideCall, namesAsked, PATH_TOOL, precedence } from './call.ts';
import type { AskedAnswer, CallRequest, DecidedBy, Protect } from './call.ts';
import { compileApprover } from './config.ts';
import { callDefinition } from './definition.ts';
import type { CommandJudgeFactory } from './shell.ts';
import type { RuledDecision } from '../ir.ts';

const a = (by: DecidedBy, decision: RuledDecision, index: number | null, extra: Partial<AskedAnswer> = {}): AskedAnswer => ({
  by,
  decision,
  reason: `${by} ${decision}${index === null ? '' : ` ${index}`}`,
  rule: index === null ? null : { list: decision === 'allow' ? 'allow' : decision === 'ask' ? 'ask' : 'deny', index },
  name: 'Bash',
  input: '{}',
  whole: true,
  ...extra,
});

describe('precedence: the truth table', () => {
  const rows: [string, AskedAnswer[], string][] = [
    ['a protection beats a refusal', [a('refused', 'deny', null), a('protection', 'deny', null)], 'protection deny'],
    ['a refusal beats a deny rule', [a('rule', 'deny', 0), a('refused', 'deny', null)], 'refused deny'],
    ['a deny rule beats unknown (deny)', [a('unknown', 'deny', null), a('rule', 'deny', 3)], 'rule deny 3'],
    ['unknown beats an ask rule', [a('rule', 'ask', 0), a('unknown', 'ask', null)], 'unknown ask'],
    ['an ask rule beats an allow rule', [a('rule', 'allow', 0), a('rule', 'ask', 4)], 'rule ask 4'],
    ['an allow rule beats the default', [a('default', 'deny', null), a('rule', 'allow', 1)], 'rule allow 1'],
    ['the first-written rule wins a tie', [a('rule', 'deny', 2), a('rule', 'deny', 0), a('rule', 'deny', 1)], 'rule deny 0'],
    ['then the first asked', [a('rule', 'deny', 1, { name: 'shell', reason: 'second' }), a('rule', 'deny', 1)], 'second'],
    ['the default: the first asked', [a('default', 'allow', null, { reason: 'first' }), a('default', 'allow', null)], 'first'],
    ['a path allowed alone does not allow', [a('default', 'deny', null), a('rule', 'allow', 0, { whole: false, input: 'p1' }), a('default', 'deny', null, { whole: false, input: 'p2' })], 'default deny'],
    ['every path allowed allows', [a('default', 'deny', null), a('rule', 'allow', 1, { whole: false, input: 'p1' }), a('rule', 'allow', 0, { whole: false, input: 'p2' })], 'rule allow 0'],
    ['a path denied denies', [a('rule', 'allow', 0), a('rule', 'deny', 5, { whole: false, input: 'p1' })], 'rule deny 5'],
  ];
  for (const [name, answers, want] of rows) it(name, () => expect(precedence(answers).reason).toBe(want));
});

/** A stand-in judge: a command rule matches when its first word is the text's first word. */
const judge: CommandJudgeFactory = (set) => ({
  judge(text) {
    const first = text.split(' ')[0] ?? '';
    if (first === '$(') return { decision: set.unknown, reason: 'cannot be judged' };
    for (const list of ['deny', 'ask', 'allow'] as const) {
      const r = set.rules.find((x) => x.list === list && x.command?.[0] === first);
      if (r !== undefined) return { decision: list, reason: `\`${first}\` matches ${list}[${r.index}]`, rule: { list, index: r.index } };
    }
    return { decision: null, reason: 'no command rule' };
  },
});

const cmd = (tool: string, word: string): RuleIR => ({ tool, match: '', command: [word] });
const re = (tool: string, match: string): RuleIR => ({ tool, match });

function both(ir: ApproverIR, request: CallRequest, protect?: Protect) {
  const r = compileApprover(ir, { commandJudge: judge });
  if (r.approver === undefined) throw new Error(JSON.stringify(r.issues));
  return { fast: decideCall(r.approver, request, { protect }), definition: callDefinition(ir, request, { commandJudge: judge, protect }) };
}

const base: ApproverIR = { mode: 'pattern', default: 'deny', reason: 'no', input: 'raw', allow: [], deny: [], ask: [] };

describe('decideCall', () => {
  it('a regex deny under the neutral name beats a command ask under the tool’s own', () => {
    const ir = { ...base, ask: [cmd('Bash', 'git')], deny: [re('shell', 'push')] };
    const { fast, definition } = both(ir, { names: ['Bash', 'shell'], input: '{"command":"git push"}' });
    expect(fast).toMatchObject({ decision: 'deny', reason: 'no', rule: { list: 'deny', index: 0 }, by: 'rule', decidedAs: 'shell' });
    expect(fast).toEqual(definition);
  });
  it('the first-written rule decides between the regex side and the command side', () => {
    const ir = { ...base, deny: [cmd('', 'rm'), re('Bash', 'rm')] };
    const { fast, definition } = both(ir, { names: ['Bash'], input: '{"command":"rm x"}' });
    expect(fast).toMatchObject({ decision: 'deny', reason: '`rm` matches deny[0]', rule: { list: 'deny', index: 0 } });
    expect(fast).toEqual(definition);
  });
  it('unknown stands above an ask rule, and says why', () => {
    const ir = { ...base, unknown: 'ask', ask: [re('', 'x')] };
    const { fast, definition } = both({ ...ir, allow: [cmd('', 'ls')] }, { names: ['Bash'], input: '{"command":"$( x"}' });
    expect(fast).toMatchObject({ decision: 'ask', reason: 'cannot be judged', rule: null, by: 'unknown' });
    expect(fast).toEqual(definition);
  });
  it('a patch is allowed only when every path is', () => {
    const ir = { ...base, allow: [re(PATH_TOOL, '/repo/')] };
    const request = (paths: string[]): CallRequest => ({ names: ['apply_patch'], input: '{}', paths });
    expect(both(ir, request(['/repo/a', '/repo/b'])).fast).toMatchObject({ decision: 'allow', decidedAs: PATH_TOOL });
    expect(both(ir, request(['/repo/a', '/etc/passwd'])).fast).toMatchObject({ decision: 'deny', by: 'default' });
    expect(namesAsked(request(['/repo/a']))).toEqual(['apply_patch', PATH_TOOL]);
  });
  it('a protection denies whatever the rules say, and is named', () => {
    const ir = { ...base, default: 'allow', allow: [re('', '')] };
    const protect: Protect = (r) => (r.input.includes('.git/hooks') ? { name: 'git-hooks', reason: 'writes a git hook', path: '.git/hooks/pre-commit' } : null);
    const hit = both(ir, { names: ['Write'], input: '{"file_path":".git/hooks/pre-commit"}' }, protect);
    expect(hit.fast).toEqual({ decision: 'deny', reason: 'writes a git hook', rule: null, by: 'protection', decidedAs: 'Write', protection: { name: 'git-hooks', reason: 'writes a git hook', path: '.git/hooks/pre-commit' } });
    expect(hit.fast).toEqual(hit.definition);
    expect(both(ir, { names: ['Write'], input: '{"file_path":"a"}' }, protect).fast).toMatchObject({ decision: 'allow', by: 'rule' });
  });
  it('a refusal of canonical input stands, and a mode decides as a default', () => {
    const refused = both({ ...base, input: 'canonical', allow: [cmd('', 'ls')] }, { names: ['Bash'], input: '{"command":"ls","command":"rm"}' });
    expect(refused.fast).toMatchObject({ decision: 'deny', by: 'refused' });
    expect(refused.fast).toEqual(refused.definition);
    const mode = both({ ...base, mode: 'allow_all' }, { names: ['Bash'], input: '' });
    expect(mode.fast).toEqual({ decision: 'allow', reason: '', rule: null, by: 'default', decidedAs: 'Bash' });
    expect(mode.fast).toEqual(mode.definition);
  });
});
