import { describe, expect, it } from 'vitest';
import { compileCommandRules, judge, type CommandRules, type CompiledCommandRules } from '../src/index.ts';

function compiled(rules: CommandRules): CompiledCommandRules {
  const r = compileCommandRules(rules);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.rules;
}

// The example policy.
const policy = compiled({
  allow: [{ command: ['git', ['status', 'diff', 'log']] }, { command: ['ls'] }, { command: ['npm', 'test'], args: '(--[a-z-]+ ?)*' }, { command: ['echo'] }, { redirect: '/tmp/.*' }],
  ask: [{ command: ['git', 'push'] }],
  deny: [{ command: ['rm'] }, { redirect: '/etc/.*' }],
});
const decide = (text: string, rules = policy) => judge(rules, text).decision;

describe('deny > unknown > ask > allow', () => {
  it.each([
    ['git status', 'allow'],
    ['git status && git diff --stat | ls', 'allow'],
    ['npm test --watch --coverage', 'allow'],
    ['npm test; ls', 'allow'],
    ['git push origin main', 'ask'],
    ['git status && git push', 'ask'],
    ['git status && rm -rf /', 'deny'],
    ['git push && rm x', 'deny'],
    ['git status && curl x | sh', 'deny'],
    ['git status && curl x | grep y', null],
    ['npm test x', null],
    ['npm install', null],
    ['echo hi > /tmp/x', 'allow'],
    ['echo hi > out.txt', null],
    ['echo hi > /etc/passwd', 'deny'],
    ['ls > /dev/null 2>&1', 'allow'],
    ['ls; $x', 'deny'],
    ['rm x; $x', 'deny'],
    ['git push; $x', 'deny'],
    ['', null],
  ])('%j → %s', (text, want) => {
    expect(decide(text)).toBe(want);
  });

  it('gives unknown the policy’s `unknown` decision (ask), still below a deny', () => {
    const askUnknown = compiled({ allow: [{ command: ['ls'] }], deny: [{ command: ['rm'] }], unknown: 'ask' });
    expect(decide('ls; $x', askUnknown)).toBe('ask');
    expect(decide('rm y; $x', askUnknown)).toBe('deny');
  });
});

describe('a shell given its own standard input as the script file', () => {
  // A policy that (unwisely) allows `sh` and `curl`: what the shell runs from its standard input is
  // never seen, so it is never allowed, however the input is named.
  const loose = compiled({ allow: [{ command: ['curl'] }, { command: [['sh', 'bash']] }], ask: [{ command: ['git', 'push'] }] });
  it.each([
    ['curl x | sh', 'deny'],
    ['curl x | sh /dev/stdin', 'deny'],
    ['curl x | bash /dev/fd/0', 'deny'],
    ['curl x | sh /proc/self/fd/0', 'deny'],
    ['sh /dev/fd/3 3< <(curl x)', 'deny'],
    ['sh -- $script', 'deny'],
    ['git push; curl x | sh /dev/stdin', 'deny'],
    ["sh /dev/stdin <<'E'\ngit push\nE", 'ask'],
    // A here-string is a heredoc to sh (dash): unknown, so deny.
    ["sh /dev/stdin <<< 'git push'", 'deny'],
    ['sh ./scripts/test.sh', 'allow'],
  ])('%j → %s', (text, want) => {
    expect(decide(text, loose)).toBe(want);
  });
});

describe('the wrapper, path and quoting invariants', () => {
  it.each([
    '\\rm x',
    "'r''m' x",
    'r\\m x',
    '"rm" x',
    '/bin/rm x',
    './rm x',
    '/bin/RM x',
    'timeout 5 rm -rf /',
    'sudo rm x',
    'env A=1 rm x',
    'FOO=1 rm x',
    'ls | xargs rm',
    'find . -exec rm {} \\;',
    "bash -c 'rm -rf /'",
    "sh -c \"bash -lc 'rm x'\"",
    'eval "rm x"',
    'git status; $(rm -rf /)',
    'echo `rm x`',
    'ls <(rm x)',
    'f() { rm x; }; f',
    'alias ll=rm; ll x',
  ])('denies %j under deny [rm]', (text) => {
    expect(decide(text)).toBe('deny');
  });

  it('allow never widens through a path', () => {
    expect(decide('./ls')).toBe(null);
    expect(decide('/tmp/x/ls')).toBe(null);
    expect(decide('/bin/ls', compiled({ allow: [{ command: ['/bin/ls'] }] }))).toBe('allow');
    expect(decide('ls', compiled({ allow: [{ command: ['/bin/ls'] }] }))).toBe(null);
  });

  it('a deny or ask of a wrapper matches what runs through it', () => {
    const rules = compiled({ allow: [{ command: ['ls'] }], ask: [{ command: ['sudo'] }] });
    expect(decide('sudo ls', rules)).toBe('ask');
    expect(decide('timeout 5 ls', rules)).toBe('allow');
  });

  it('an allow of a wrapper allows only the wrapper alone', () => {
    const rules = compiled({ allow: [{ command: ['timeout'] }, { command: ['env'] }] });
    expect(decide('timeout 5 rm x', rules)).toBe(null);
    expect(decide('env', rules)).toBe('allow');
  });
});

describe('matching words', () => {
  it('deny and ask match further words as a subsequence, so options in between do not hide them', () => {
    expect(decide('git -C /repo push')).toBe('ask');
    expect(decide('git --no-pager push --force')).toBe('ask');
    expect(decide('git $sub')).toBe('ask');
  });
  it('allow matches an exact prefix, and `args` over the static rest, whole', () => {
    expect(decide('git -C /repo status')).toBe(null);
    expect(decide('npm test --watch')).toBe('allow');
    expect(decide('npm test --watch; x')).toBe(null);
    expect(decide('npm test "$x"')).toBe(null);
    expect(decide('npm test --watch=1')).toBe(null);
  });
  it('a deny with `args` matches an expansion as a possible match', () => {
    const rules = compiled({ allow: [{ command: ['git', 'push'] }], deny: [{ command: ['git', 'push'], args: '.*--force.*' }] });
    expect(decide('git push --force', rules)).toBe('deny');
    expect(decide('git push origin', rules)).toBe('allow');
    expect(decide('git push $opts', rules)).toBe('deny');
  });
  it('a redirect rule with a command matches that command writing there', () => {
    const rules = compiled({ allow: [{ command: ['echo'], redirect: 'notes/.*' }] });
    expect(decide('echo x > notes/a.md', rules)).toBe('allow');
    expect(decide('echo x > b.md', rules)).toBe(null);
    expect(decide('echo x', rules)).toBe('allow');
  });
});

describe('explanations name the deciding command and its span', () => {
  it('for a deny', () => {
    const text = 'git status && timeout 5 rm -rf /';
    const j = judge(policy, text);
    expect(j.decision).toBe('deny');
    expect(j.reason).toBe('`rm -rf /` matches deny rule 1 [rm]');
    expect(j.rule).toEqual({ list: 'deny', index: 0 });
    expect(text.slice(j.span!.start, j.span!.end)).toBe(text);
    expect(j.command!.wrappers.map((w) => w.program)).toEqual(['timeout']);
  });
  it('for an unknown', () => {
    const j = judge(policy, 'ls; eval "$x"');
    expect(j.reason).toBe('`eval` of a string that is not static cannot be judged: the command cannot be judged');
    expect(j.span).toEqual({ start: 4, end: 13, line: 1 });
  });
  it('for a command no rule allows', () => {
    const j = judge(policy, 'ls\ncurl x');
    expect(j.decision).toBe(null);
    expect(j.reason).toBe('no allow rule matches `curl x`');
    expect(j.span).toEqual({ start: 3, end: 9, line: 2 });
  });
  it('for a redirect', () => {
    const j = judge(policy, 'echo x > /etc/hosts');
    expect(j.reason).toBe('the write to `/etc/hosts` by `echo x` matches deny rule 2 redirect `/etc/.*`');
    expect(judge(policy, '> /etc/hosts').reason).toBe('the write to `/etc/hosts` matches deny rule 2 redirect `/etc/.*`');
  });
});

describe('compiling', () => {
  it('reports bad regexes and empty rules', () => {
    const r = compileCommandRules({ allow: [{ command: ['ls'], args: '(' }, {}], deny: [{ command: [] }, { args: 'x' }] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => `${e.list}[${e.index}].${e.key}: ${e.message}`)).toEqual([
      'allow[0].args: error parsing regexp: missing closing ): `(`',
      'allow[1].command: a command rule needs `command` or `redirect`',
      'deny[0].command: a command rule needs at least one word, and each list of alternatives at least one',
      'deny[1].command: a command rule needs `command` or `redirect`',
      'deny[1].args: `args` needs `command`',
    ]);
  });
});
