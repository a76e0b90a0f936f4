import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileCommandRules, judge, type CommandRules } from '@verdict/shell';
import { lintWithRule, runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-command-never-matches.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;

runRuleTests(rule, {
  valid: [
    y('mode: pattern', 'allow:', '  - {tool: Bash, command: [ls]}', '  - {tool: Bash, command: [git, [status, diff]], args: "(--[a-z]+ ?)*"}'),
    { name: 'a wrapper with no command yet runs as itself', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [env]}', '  - {tool: Bash, command: [timeout, "5"]}', '  - {tool: Bash, command: [command, [-v, -V]]}') },
    { name: '`find` runs as itself beside its `-exec` command', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [find, ., -exec, ls]}') },
    { name: 'a shell given a script file runs as itself', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [bash, ./build.sh]}') },
    { name: 'one alternative that runs as itself keeps the rule alive', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [[timeout, ls], "5", ls]}') },
    { name: 'an option whose value is not in the prefix yet', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [timeout, -s]}') },
    { name: 'a deny with `args` does not override every call', code: y('mode: pattern', 'deny:', '  - {tool: Bash, command: [git], args: "push.*"}', 'allow:', '  - {tool: Bash, command: [git, status]}') },
    { name: 'a deny of one alternative only', code: y('mode: pattern', 'deny:', '  - {tool: Bash, command: [git, push]}', 'allow:', '  - {tool: Bash, command: [git, [push, status]]}') },
    { name: 'a deny whose program is one alternative only', code: y('mode: pattern', 'deny:', '  - {tool: Bash, command: [npm]}', 'allow:', '  - {tool: Bash, command: [[npm, pnpm], test]}') },
    { name: 'a deny of another tool', code: y('mode: pattern', 'deny:', '  - {tool: Shell, command: [git]}', 'allow:', '  - {tool: Bash, command: [git, status]}') },
    { name: 'a deny for one tool leaves an allow for every shell tool', code: y('mode: pattern', 'deny:', '  - {tool: Bash, command: [git]}', 'allow:', '  - {command: [git, status]}') },
    { name: 'deny words out of order', code: y('mode: pattern', 'deny:', '  - {tool: Bash, command: [git, push, origin]}', 'allow:', '  - {tool: Bash, command: [git, origin, push]}') },
    { name: 'an `args` pattern that matches only the empty text', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [env], args: ""}') },
    { name: '`\\B` between two letters matches `ab`', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [ls], args: "a\\\\Bb"}') },
    { name: 'the privileged are rules/command-allows-anything\'s', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [sudo, ls]}') },
    { name: 'an invalid `args` is the compiler\'s', code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [ls], args: "(a"}') },
    { name: 'more combinations than the bound: nothing is said', code: y('mode: pattern', 'allow:', `  - {tool: Bash, command: [[${Array.from({ length: 17 }, (_, i) => `timeout${i}`).join(', ')}], [${Array.from({ length: 16 }, (_, i) => `${i + 1}`).join(', ')}], ls]}`, 'wrappers:', ...Array.from({ length: 17 }, (_, i) => `  timeout${i}: {positionals: 1}`)) },
  ],
  invalid: [
    {
      name: 'an empty `args` language in an allow rule',
      code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [npm, test], args: "x\\\\bx"}'),
      errors: [{ messageId: 'emptyArgs', line: 3, column: 46, message: 'this allow rule never applies: its `args` pattern `x\\bx` matches no text, not even the empty one' }],
    },
    {
      name: 'an empty `args` language in a deny rule: only expansions match',
      code: y('mode: pattern', 'deny:', '  - {tool: Bash, command: [rm], args: "$a"}'),
      errors: [{ messageId: 'emptyArgsLoose', line: 3, column: 39, message: 'the `args` pattern `$a` of this deny rule matches no text: the rule applies only when a word after `rm` is not static (`$x`, a glob), never to plain words' }],
    },
    {
      name: 'an empty `redirect` language',
      code: y('mode: pattern', 'allow:', '  - {tool: Bash, redirect: "a^"}', '  - {tool: Bash, command: [ls], redirect: "a^"}', 'ask:', '  - {tool: Bash, redirect: "a^"}'),
      errors: [
        { messageId: 'emptyRedirect', line: 3, column: 28, message: 'this allow rule never applies: its `redirect` pattern `a^` matches no path' },
        { messageId: 'emptyRedirectWithCommand', line: 4, column: 43, message: 'the `redirect` pattern `a^` of this allow rule matches no path: the rule never allows a write, only `ls` writing nowhere' },
        { messageId: 'emptyRedirectLoose', line: 6, column: 28, message: 'the `redirect` pattern `a^` of this ask rule matches no path: the rule applies only to a write whose target is not static (`> $f`)' },
      ],
    },
    {
      name: 'a wrapper given its command',
      code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [timeout, "5", ls]}', '  - {tool: Bash, command: [env, LANG=C, make]}', '  - {tool: Bash, command: [nohup, make]}'),
      errors: [
        {
          messageId: 'wrapped',
          line: 3,
          column: 27,
          message: 'this allow rule never applies: `timeout 5 ls` runs `ls`, and command rules judge the command a wrapper runs, not `timeout` itself',
          help: 'write the rule for the command itself, e.g. `command: [ls]`: the judge looks through `timeout`, so that rule allows it run under `timeout` too',
        },
        { messageId: 'wrapped', line: 4, column: 27, message: 'this allow rule never applies: `env LANG=C make` runs `make`, and command rules judge the command a wrapper runs, not `env` itself' },
        { messageId: 'wrapped', line: 5, column: 27 },
      ],
    },
    {
      name: 'every alternative, options and a path; `bash -c`; `xargs` alone runs `echo`',
      code: y('mode: pattern', 'allow:', '  - {tool: Bash, command: [[timeout, /usr/bin/timeout], [-k, --kill-after], "9", "5", [ls, pwd], -l]}', '  - {tool: Bash, command: [bash, -c, "git status"]}', '  - {tool: Bash, command: [xargs]}'),
      errors: [
        { messageId: 'wrapped', line: 3, column: 27, message: 'this allow rule never applies: `timeout -k 9 5 ls -l` runs `ls -l`, and command rules judge the command a wrapper runs, not `timeout` itself' },
        { messageId: 'wrapped', line: 4, column: 27, message: 'this allow rule never applies: `bash -c \'git status\'` runs `git status`, and command rules judge the command a wrapper runs, not `bash` itself', help: 'write the rule for the command itself, e.g. `command: [git, status]`: the judge looks through `bash`, so that rule allows it run under `bash` too' },
        { messageId: 'wrapped', line: 5, column: 27, message: 'this allow rule never applies: `xargs` runs `echo …`, and command rules judge the command a wrapper runs, not `xargs` itself' },
      ],
    },
    {
      name: 'a wrapper of the policy\'s own table',
      code: y('mode: pattern', 'wrappers:', '  retry: {options: [-n]}', 'allow:', '  - {tool: Bash, command: [retry, -n, "3", make]}', '  - {tool: Bash, command: [retry, -n]}'),
      errors: [{ messageId: 'wrapped', line: 5, column: 27, message: 'this allow rule never applies: `retry -n 3 make` runs `make`, and command rules judge the command a wrapper runs, not `retry` itself' }],
    },
    {
      name: 'a deny that overrides an allow',
      code: y('mode: pattern', 'deny:', '  - {tool: Bash, command: [git, push]}', 'allow:', '  - {tool: Bash, command: [/usr/bin/GIT, push, --force], args: ".*"}'),
      errors: [
        {
          messageId: 'overridden',
          line: 5,
          column: 27,
          message: 'this allow rule never applies: every command it matches is also matched by deny rule deny[0] `[git push]`, and deny wins over allow',
          help: 'narrow the deny rule (with further words or `args`), or delete this allow rule',
        },
      ],
    },
    {
      name: 'an ask for every tool, words as a subsequence, alternatives included',
      code: y('mode: pattern', 'ask:', '  - {command: [[npm, pnpm], [run, exec], [deploy, publish]]}', 'allow:', '  - {tool: Bash, command: [pnpm, --silent, run, [deploy, publish]]}'),
      errors: [{ messageId: 'overridden', line: 5, column: 27, message: 'this allow rule never applies: every command it matches is also matched by ask rule ask[0] `[(npm|pnpm) (run|exec) (deploy|publish)]`, and ask wins over allow' }],
    },
  ],
});

describe('rules/command-never-matches: where a user sees it', () => {
  it("names the overriding rule as a related location (message 'overriddenBy')", () => {
    const code = y('mode: pattern', 'deny:', '  - {tool: Bash, command: [rm]}', 'allow:', '  - {tool: Bash, command: [rm, -rf, dist]}');
    const [m, ...rest] = lintWithRule(rule, { code }).messages.filter((x) => x.ruleId === rule.id);
    expect(rest).toEqual([]);
    expect(m?.related?.map((r) => [r.message, r.span?.start.line, r.span?.start.column])).toEqual([['deny rule that overrides it', 3, 5]]);
  });

  it('says what the judge does: a flagged allow rule allows no call that starts with its words', () => {
    const cases: { rules: CommandRules; texts: string[] }[] = [
      { rules: { allow: [{ command: ['timeout', '5', 'ls'] }] }, texts: ['timeout 5 ls', 'timeout 5 ls -l', "'timeout' 5 ls"] },
      { rules: { allow: [{ command: ['env', 'LANG=C', 'make'] }] }, texts: ['env LANG=C make', 'env LANG=C make all'] },
      { rules: { allow: [{ command: ['bash', '-c', 'git status'] }] }, texts: ["bash -c 'git status'", "bash -c 'git status' x"] },
      { rules: { allow: [{ command: ['xargs'] }] }, texts: ['xargs', 'ls | xargs', 'xargs ls'] },
      { rules: { deny: [{ command: ['git', 'push'] }], allow: [{ command: ['/usr/bin/GIT', 'push', '--force'], args: '.*' }] }, texts: ['/usr/bin/GIT push --force', '/usr/bin/GIT push --force origin'] },
    ];
    for (const c of cases) {
      const compiled = compileCommandRules(c.rules);
      if (!compiled.ok) throw new Error('the rules compile');
      for (const text of c.texts) expect(judge(compiled.rules, text).decision, text).not.toBe('allow');
    }
    // And the same words without the wrapper's command are allowed by the inner rule, as the help says.
    const inner = compileCommandRules({ allow: [{ command: ['ls'] }] });
    if (!inner.ok) throw new Error('the rules compile');
    expect(judge(inner.rules, 'timeout 5 ls').decision).toBe('allow');
  });

  it('finds nothing in the starter policies of fixtures/shell', () => {
    const dir = join(__dirname, '../../../../fixtures/shell');
    const files = readdirSync(dir).filter((f) => /\.policy\.yaml$/.test(f) && !/\.test\./.test(f));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      const found = lintWithRule(rule, { code: readFileSync(join(dir, f), 'utf8'), filename: f }).messages.filter((x) => x.ruleId === rule.id || x.ruleId === 'lint/internal-error');
      expect(found.map((x) => `${f}:${x.span?.start.line} ${x.message}`)).toEqual([]);
    }
  });
});
