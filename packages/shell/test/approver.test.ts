/**
 * Command rules inside the engine's approver: `compileApprover` with this package's judge. The regex
 * rules and the command rules combine as deny > ask > allow; what cannot be read or modelled is
 * never allowed; other tools decide exactly as before.
 */
import { describe, expect, it } from 'vitest';
import { CANONICAL_REJECT_REASON, compileApprover, type ApproverIR, type RuleIR } from '@verdict/engine';
import { commandJudgeFactory } from '../src/index.ts';

function ir(parts: Partial<ApproverIR>): ApproverIR {
  return { mode: 'pattern', default: 'deny', reason: 'no', input: 'raw', allow: [], deny: [], ...parts };
}
const cmd = (command: (string | string[])[], extra: Partial<RuleIR> = {}): RuleIR => ({ tool: 'Bash', match: '', command, ...extra });
const re = (tool: string, match: string): RuleIR => ({ tool, match });
const call = (command: string, toolName = 'Bash') => ({ toolName, input: JSON.stringify({ command }) });

function approver(parts: Partial<ApproverIR>) {
  const r = compileApprover(ir(parts), { commandJudge: commandJudgeFactory });
  expect(r.issues).toEqual([]);
  return r.approver!;
}

describe('command rules in the approver', () => {
  it('allow only if every executed command is allowed; deny if any is denied', () => {
    const a = approver({ allow: [cmd(['git', ['status', 'diff']]), cmd(['ls'])], deny: [cmd(['rm'])] });
    expect(a.decide(call('git status && ls -la')).decision).toBe('allow');
    expect(a.decide(call('git status && curl x | sh')).decision).toBe('deny');
    expect(a.decide(call('git status; timeout 5 /bin/rm -rf /')).decision).toBe('deny');
    expect(a.decide(call('git status; timeout 5 /bin/rm -rf /')).rule).toMatchObject({ list: 'deny', index: 0 });
    expect(a.approve(call('ls && rm x'))).toEqual({ decision: 'deny', reason: expect.stringContaining('rm') });
    expect(a.approve(call('ls'))).toEqual({ decision: 'allow', reason: '' });
  });

  it('regex rules keep their meaning and combine as deny > ask > allow', () => {
    // A regex deny beats a command allow.
    const a = approver({ allow: [cmd(['git', 'status'])], deny: [re('Bash', 'secret')] });
    expect(a.decide(call('git status secret')).decision).toBe('deny');
    expect(a.decide(call('git status secret')).rule).toMatchObject({ list: 'deny', index: 0 });
    // A command deny beats a regex allow.
    const b = approver({ allow: [re('Bash', '^')], deny: [cmd(['rm'])] });
    expect(b.decide(call('echo hi; rm -rf /')).decision).toBe('deny');
    // A regex ask beats a command allow; a command ask beats a regex allow.
    const c = approver({ allow: [cmd(['git', 'push']), re('Bash', 'ls')], ask: [re('Bash', 'force'), cmd(['git', 'push'])] });
    expect(c.decide(call('git push --force')).decision).toBe('ask');
    expect(c.decide(call('ls; git push')).decision).toBe('ask');
    expect(c.approve(call('ls; git push')).decision).toBe('deny');
    // No command rule decides (`curl` is allowed by none): the regex allow decides, as it always did.
    const d = approver({ allow: [re('Bash', '^\\{"command":"git'), cmd(['git', 'status'])] });
    expect(d.decide(call('git status && curl x')).decision).toBe('allow');
    expect(d.decide(call('git status && curl x')).rule).toMatchObject({ list: 'allow', index: 0 });
    // No rule on either side: the default.
    expect(d.decide(call('curl x')).decision).toBe('deny');
    expect(d.decide(call('curl x')).reason).toBe('no');
  });

  it('rule references are the policy’s: lists and indices among regex and command rules', () => {
    const a = approver({ allow: [re('Read', '.'), cmd(['ls'])], deny: [re('Read', 'secret'), cmd(['rm'])] });
    expect(a.decide(call('ls')).rule).toMatchObject({ list: 'allow', index: 1 });
    const denied = a.decide(call('ls; rm x'));
    expect(denied.rule).toMatchObject({ list: 'deny', index: 1 });
    expect(denied.reason).toContain('deny[1]');
  });

  it('what cannot be read or modelled gets the unknown decision, never an allow', () => {
    const deny = approver({ allow: [cmd(['ls'])], default: 'allow' });
    expect(deny.decide(call('eval "$x"')).decision).toBe('deny');
    expect(deny.decide(call('$x')).decision).toBe('deny');
    expect(deny.decide({ toolName: 'Bash', input: '{"cmd":"ls"}' })).toMatchObject({ decision: 'deny', reason: expect.stringContaining('`command`') });
    expect(deny.decide({ toolName: 'Bash', input: 'not json' }).decision).toBe('deny');
    expect(deny.decide({ toolName: 'Bash', input: '{"command":1}' }).decision).toBe('deny');
    const ask = approver({ allow: [cmd(['ls'])], default: 'allow', unknown: 'ask' });
    expect(ask.decide(call('eval "$x"')).decision).toBe('ask');
    expect(ask.decide(call('ls; eval "$x"')).decision).toBe('ask');
  });

  it('a tool outside the shell table decides exactly as without command rules', () => {
    const rules = { allow: [re('Read', '"path"'), cmd(['ls'])], deny: [re('', 'secret')] };
    const withCommands = approver(rules);
    const without = compileApprover(ir({ allow: [re('Read', '"path"')], deny: [re('', 'secret')] })).approver!;
    for (const req of [
      { toolName: 'Read', input: '{"path":"a"}' },
      { toolName: 'Read', input: '{"path":"secret"}' },
      { toolName: 'Write', input: '{"command":"ls"}' },
    ]) {
      expect(withCommands.approve(req)).toEqual(without.approve(req));
      expect(withCommands.decide(req)).toEqual(without.decide(req));
    }
  });

  it('the shell table says which tools and fields carry commands', () => {
    const a = approver({ shell: [{ tool: 'term', field: 'script' }], allow: [{ tool: 'term', match: '', command: ['ls'] }] });
    expect(a.decide({ toolName: 'TERM', input: '{"script":"ls"}' }).decision).toBe('allow');
    expect(a.decide({ toolName: 'term', input: '{"script":"ls; rm x"}' }).decision).toBe('deny');
    // A command rule without a tool applies to every shell tool of the default table.
    const b = approver({ allow: [{ tool: '', match: '', command: ['ls'] }] });
    for (const t of ['Bash', 'run_shell_command', 'Shell']) expect(b.decide(call('ls', t)).decision).toBe('allow');
    expect(b.decide(call('ls', 'PowerShell')).decision).toBe('deny');
  });

  it('explain names the executed command that decided and its span in the text', () => {
    const a = approver({ allow: [cmd(['ls'])], deny: [cmd(['rm'])] });
    const text = 'ls -la && echo $(rm -rf /tmp/x) ok';
    const e = a.explain(call(text));
    expect(e.decision).toBe('deny');
    expect(e.by).toBe('command');
    expect(e.rule).toMatchObject({ list: 'deny', index: 0 });
    expect(e.shell?.command).toBe('rm -rf /tmp/x');
    expect(e.shell?.span?.text).toBe('rm -rf /tmp/x');
    expect(text.slice(e.shell!.span!.start, e.shell!.span!.end)).toBe('rm -rf /tmp/x');
  });
});

describe('a refusal of the regex side stands', () => {
  it('an input canonical mode refuses is denied, even when the policy’s own reason reads like the refusal and `unknown` asks', () => {
    // The command layer tells the default from a refusal by how the regex side decided, not by its reason.
    const a = approver({ input: 'canonical', unknown: 'ask', reason: CANONICAL_REJECT_REASON, allow: [cmd(['ls'])] });
    const repeated = { toolName: 'Bash', input: '{"command":"ls","command":"rm -rf /"}' };
    for (const r of [a.decide(repeated), a.explain(repeated)]) expect({ decision: r.decision, reason: r.reason, rule: r.rule }).toEqual({ decision: 'deny', reason: CANONICAL_REJECT_REASON, rule: null });
    expect(a.approve(repeated)).toEqual({ decision: 'deny', reason: CANONICAL_REJECT_REASON });
    // The default itself is still combined with the command side.
    expect(a.decide(call('ls')).decision).toBe('allow');
    expect(a.decide(call('curl x')).decision).toBe('deny');
  });
});

describe('command rules that cannot load', () => {
  const issues = (parts: Partial<ApproverIR>, withJudge = true) =>
    compileApprover(ir(parts), withJudge ? { commandJudge: commandJudgeFactory } : {});

  it('without a judge, a policy with command rules has no approver', () => {
    const r = issues({ allow: [cmd(['ls'])] }, false);
    expect(r.approver).toBeUndefined();
    expect(r.issues.map((i) => i.code)).toEqual(['command/no-judge']);
    // Without command rules, no judge is needed.
    expect(issues({ allow: [re('Bash', 'ls')] }, false).approver).toBeDefined();
  });

  it('names the rule and the key', () => {
    expect(issues({ allow: [cmd(['ls'], { match: 'x' })] }).issues).toMatchObject([{ code: 'command/invalid-rule', list: 'allow', index: 0 }]);
    expect(issues({ deny: [re('Read', 'a'), cmd(['ls'], { args: '(' })] }).issues).toMatchObject([{ code: 'regex/invalid', field: 'args', list: 'deny', index: 1 }]);
    expect(issues({ deny: [{ tool: 'Bash', match: '', redirect: '[' }] }).issues).toMatchObject([{ code: 'regex/invalid', field: 'redirect' }]);
    expect(issues({ allow: [{ tool: 'Read', match: '', command: ['ls'] }] }).issues).toMatchObject([{ code: 'command/not-shell-tool', field: 'tool' }]);
    expect(issues({ allow: [cmd([])] }).issues).toMatchObject([{ code: 'command/invalid-rule', field: 'command' }]);
    expect(issues({ allow: [{ tool: 'Bash', match: '', args: 'x' }] }).issues).toMatchObject([{ code: 'command/invalid-rule', field: 'args' }]);
    expect(issues({ unknown: 'allow', allow: [cmd(['ls'])] }).issues).toMatchObject([{ code: 'command/unknown-decision' }]);
    expect(issues({ environment: ['PATH'], allow: [cmd(['ls'])] }).issues).toMatchObject([{ code: 'command/invalid-environment', field: 'environment' }]);
    expect(issues({ environment: ['GIT_DIR'], allow: [cmd(['git'])] }).issues).toMatchObject([{ code: 'command/invalid-environment' }]);
    expect(issues({ shells: ['fish'], allow: [cmd(['ls'])] }).issues).toMatchObject([{ code: 'command/invalid-shells', field: 'shells' }]);
    expect(issues({ shells: [], allow: [cmd(['ls'])] }).issues).toMatchObject([{ code: 'command/invalid-shells' }]);
    // Never loaded, not even in compatibility mode.
    expect(compileApprover(ir({ allow: [cmd(['ls'], { match: 'x' })] }), { compat: true, commandJudge: commandJudgeFactory }).approver).toBeUndefined();
  });
});

describe('environment: the variables a policy calls harmless', () => {
  it('lets a command be run with them, and with no other', () => {
    const a = approver({ environment: ['FOO_LEVEL'], allow: [cmd(['ls'])] });
    expect(a.decide(call('FOO_LEVEL=2 ls')).decision).toBe('allow');
    expect(a.decide(call('BAR=2 ls')).decision).toBe('deny');
    expect(approver({ allow: [cmd(['ls'])] }).decide(call('FOO_LEVEL=2 ls')).decision).toBe('deny');
  });
});

describe('shells: the shells that may run the text', () => {
  it("reads what only an excluded shell reads otherwise, per tool over the approver's list", () => {
    const any = approver({ allow: [cmd(['ls']), cmd(['head'])] });
    const bash = approver({ shells: ['bash'], allow: [cmd(['ls']), cmd(['head'])] });
    for (const text of ['head -1 <<< x', 'ls =x', 'repeat 2 ls']) expect(any.decide(call(text)).decision, text).toBe('deny');
    expect(bash.decide(call('head -1 <<< x')).decision).toBe('allow');
    expect(bash.decide(call('ls =x')).decision).toBe('allow');
    // Under bash, `repeat` is a program's name, which no rule allows.
    expect(bash.decide(call('repeat 2 ls')).decision).toBe('deny');
    expect(bash.explain(call('repeat 2 ls')).shell?.reason).toBe('no allow rule matches `repeat 2 ls`');
    expect(any.explain(call('repeat 2 ls')).shell?.reason).toContain('`repeat` is a keyword or precommand of zsh');
    expect(approver({ shells: ['any'], allow: [cmd(['ls'])] }).decide(call('ls =x')).decision).toBe('deny');
    // A tool's own list wins over the approver's.
    const perTool = approver({ shells: ['bash'], shell: [{ tool: 'Bash', field: 'command', shells: ['zsh'] }], allow: [cmd(['ls'])] });
    expect(perTool.decide(call('ls =x')).decision).toBe('deny');
    expect(perTool.decide(call('[[ a < b ]] && ls')).decision).toBe('allow');
  });
});

