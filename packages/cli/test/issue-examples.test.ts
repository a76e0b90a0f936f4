/**
 * Issue 24's "Why" list, one entry per example, each in spellings of its own (quoting, wrappers,
 * `\` escapes, paths, `command`/`builtin`, joins by `;`, `&&` and newlines): none is allowed under
 * any starter policy (the agents', YAML and `.verdict`, and the shell starter) or under
 * fixtures/shell/read-only.policy.yaml, through the real approver, on every default shell tool.
 * Every text here runs a program the policy does not allow (`./m`, `rm`, `touch` at a path), writes
 * a file, or runs code through a value.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileFile } from '@verdict/compiler';
import type { CompiledApprover } from '@verdict/engine';
import { DECIDING } from '../src/command-rules.ts';
import { repoRoot } from './harness.ts';

const POLICIES = [
  'fixtures/policies/claude-code.yaml',
  'fixtures/policies/claude-code.verdict',
  'fixtures/policies/codex.yaml',
  'fixtures/policies/codex.verdict',
  'fixtures/policies/gemini-cli.yaml',
  'fixtures/policies/gemini-cli.verdict',
  'fixtures/policies/cursor.yaml',
  'fixtures/policies/cursor.verdict',
  'fixtures/shell/starter.policy.yaml',
  'fixtures/shell/read-only.policy.yaml',
];
const TOOLS = ['Bash', 'run_shell_command', 'Shell'];

/** The examples of issue 24's "Why", each with its spellings. */
const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  // The parser reads text unlike bash.
  'a `name[` swallows the rest of the line': ['ls x[ ; ./m x', 'ls x[ && ./m x', '\\ls x[ ; ./m x', 'command ls a[b ; ./m x', "ls 'y' x[ || /usr/bin/touch m"],
  "a heredoc delimiter `$'E'` or `$\"E\"`": ["cat <<$'E'\nx\nE\n./m x", 'cat <<$"E"\nx\nE\n./m x', "/bin/cat <<-$'E'\nx\n\tE\n./m x", "command cat <<$'E'\nx\nE\n.\\/m x"],
  'a `)` in a comment inside `$( )`': ['echo $(ls # )\n./m x)', 'ls "$(pwd # )\n./m x)"', 'echo $(echo x # ) ; ./m x\n)', '\\echo $(ls #)\n/usr/bin/touch m)'],
  'a mid-word `#` inside `$( )`': ['echo $(ls x#) ; ./m x)', 'ls $(pwd a#)&& ./m x)', 'echo "$(echo a#b)" ; echo $(ls c#)\n./m x)'],
  'a `#` right after `<( )`': ['cat <(ls)#x ; ./m x', 'cat <(ls)#x && ./m x', 'diff <(ls)#x <(pwd) ; ./m x', 'command cat <(ls)#x\n./m x'],
  'a `{` inside `${…}`': ['echo ${x:-{}; ./m x}', 'ls ${x:-{a}; ./m x}', 'ls "${x:-{}"; ./m x}', 'echo ${x:-{} && ./m x}'],
  'an unterminated heredoc': ['cat <<E\nx\n./m x', "cat <<'E'\n./m x", 'git status <<-E\n\t./m x', 'ls && cat <<"E"\n./m x'],
  // Expansions that run code from static text.
  '`${X@P}` prompt expansion': ["X='$(./m x)'; ls ${X@P}", 'ls "${X@P}"', "X='$(./m x)'\necho ${X@P}", "X='`./m x`' && cat ${X@P}"],
  '`${!x}` whose value holds a subscript': ["x='a[$(./m x)]'; ls ${!x}", "x='a[$(./m x)]' && ls \"${!x}\"", "x='a[$(./m x)]'\necho ${!x:-y}"],
  "`[ -v 'a[$(…)]' ]`": ["[ -v 'a[$(./m x)]' ]", '[ -v "a[\\$(./m x)]" ]', "ls; [ -v 'a[$(./m x)]' ]", "command [ -v 'a[$(./m x)]' ] && ls"],
  '`test -v`': ["test -v 'a[$(./m x)]'", "builtin test -v 'a[$(./m x)]'", 'test -v a\\[\\$\\(./m\\ x\\)\\]', "ls\ntest -v 'a[`./m x`]'"],
  '`[[ -v ]]`': ["[[ -v 'a[$(./m x)]' ]]", '[[ -v "a[\\$(./m x)]" ]] && ls', "if [[ -v 'a[$(./m x)]' ]]; then ls; fi"],
  '`printf -v`': ["printf -v 'a[$(./m x)]' %s x", 'printf -v"a[\\$(./m x)]" x', "builtin printf -v 'a[$(./m x)]' x", "ls; command printf -v 'a[$(./m x)]' %s x"],
  'array values in `export a=( $(…) )`': ['export a=( $(./m x) )', 'declare -a a=( $(./m x) )', 'readonly a=( `./m x` )', 'typeset a=( $(./m x) ) && ls'],
  // Words that exist only at run time.
  '`echo -delete | xargs find .`': ['echo -delete | xargs find .', "printf '%s\\n' -delete | xargs -n1 find .", 'echo -delete | \\xargs find .', 'echo -delete|xargs /usr/bin/find .', 'echo -delete | xargs -r find . -name x', 'echo -delete | xargs -l find .'],
  '`… | xargs git log` with `--output=FILE`': ['echo --output=/tmp/x | xargs git log', 'printf -- --output=x | xargs git log -1', 'echo --output=x | xargs -r git log', "echo '--output=x' | command xargs git log"],
  // xargs' options whose value is only attached: the next word is the command, not their value.
  '`xargs -l rm ls` (`-l`, `-e`, `-i` take no next word)': ['echo x | xargs -l rm ls', 'echo x | xargs -e rm ls', 'echo x | xargs -i rm ls', 'echo x | xargs --max-lines rm ls'],
  '`… | xargs rg` with `--pre`': ['echo --pre=./x | xargs rg foo', "printf '%s\\n' --pre ./x | xargs rg foo", 'echo --pre=./x | xargs -r \\rg foo .'],
  "`find -exec sh -c 'echo {}'`": ["find . -exec sh -c 'echo {}' \\;", 'find . -name "*.ts" -exec bash -c "cat {}" \\;', "find . -execdir sh -c 'ls {}' ';'", "ls; find . -type f -exec /bin/sh -c 'wc -l {}' \\;"],
  // The environment.
  '`BASH_CMDS[ls]=/bin/sh; ls -c …`': ["BASH_CMDS[ls]=/bin/sh; ls -c './m x'", "BASH_CMDS=([ls]=/bin/sh); ls -c './m x'", "declare BASH_CMDS[ls]=/bin/sh && ls -c './m x'", "BASH_CMDS['ls']=/bin/sh\nls -c './m x'"],
  '`GIT_TEST_FSMONITOR=…`': ['GIT_TEST_FSMONITOR=./x git status', 'env GIT_TEST_FSMONITOR=./x git status', 'export GIT_TEST_FSMONITOR=./x; git status', 'GIT_TEST_FSMONITOR=./x command git status'],
  '`GIT_TRACE=FILE`': ['GIT_TRACE=/tmp/x git status', 'env GIT_TRACE=/tmp/x git log', "export GIT_TRACE='/tmp/x' && git status", 'declare -x GIT_TRACE=/tmp/x\ngit status'],
  '`GIT_COMMON_DIR=…`': ['GIT_COMMON_DIR=/tmp/x git status', 'env -i GIT_COMMON_DIR=/tmp/x git log', 'export GIT_COMMON_DIR=/tmp/x; git log', "env -S 'GIT_COMMON_DIR=/tmp/x git status'"],
  '`RIPGREP_CONFIG_PATH=…`': ['RIPGREP_CONFIG_PATH=./rc rg foo', 'env RIPGREP_CONFIG_PATH=./rc rg foo', 'export RIPGREP_CONFIG_PATH=./rc && rg foo', 'RIPGREP_CONFIG_PATH="./rc" \\rg foo'],
  // Bytes the shell drops.
  "a NUL inside `$'…'`": ["git log $'--outp\\0'ut=/tmp/x", "git log $'--outp\\x00'ut=/tmp/x", "git diff $'--outp\\c@'ut=/tmp/x", "ls && git log $'--outp\\000'ut=/tmp/x", 'git log --outp\u0000ut=/tmp/x'],
  // The shell is not always bash.
  'zsh glob qualifiers `*(e:…:)`': ['ls *(e:./m x:)', "ls *(e:'./m x':N)", 'cat ./*(e:./m\\ x:)', '\\ls *(+touch)'],
  '`functions[ls]=…`': ["functions[ls]='./m x'; ls", 'functions[ls]="./m x" && ls', 'functions[ls]=./m\\ x\nls'],
  '`commands[cat]=…`': ['commands[cat]=/usr/bin/touch; cat m', "commands[cat]='/usr/bin/touch' && cat m", 'commands[ls]=/usr/bin/touch\nls m'],
  '`${(e)…}`': ["x='$(./m x)'; echo ${(e)x}", 'echo ${x:-${(e):-\\$(./m x)}}', "x='$(./m x)' && ls \"${(e)x}\""],
  // Programs whose options run programs or write files.
  '`tree -o FILE`': ['tree -Io /tmp/x', 'tree -o /tmp/x', 'tree -I node_modules -o /tmp/x', 'command tree -Io /tmp/x'],
  '`rg --hostname-bin`': ['rg --hostname-bin=./x foo', 'rg --hostname-bin ./x foo', '\\rg --hostname-bin=./x foo', "rg '--hostname-bin=./x' foo"],
  '`history -w FILE`': ['history -w /tmp/x', 'history -w x', 'builtin history -w x', 'history -a x'],
  '`npm exec`': ['npm exec -- ./m x', 'npm exec ./m x', 'npm x ./m x', 'npx ./m x'],
  '`git branch` with any arguments': ['git branch -D main', 'git branch newb', 'git branch -m a b', 'git branch -f x HEAD'],
  '`sudo cat …`': ['sudo cat /etc/shadow', 'sudo -u root cat x', '\\sudo cat x', 'env sudo cat x'],
  '`time -- rm`': ['time -- rm -rf /tmp/x', 'time rm x', 'time -p -- rm x', '/usr/bin/time -- rm x'],
  "`eval -- 'rm …'`": ["eval -- 'rm -rf /tmp/x'", 'eval -- "rm x"', "eval 'rm x'", "builtin eval -- 'rm x'"],
  '`! time ! rm`': ['! time ! rm x', '! rm x', 'time ! rm x', 'ls && ! time ! rm x'],
};

/** Each spelling, and the same joined after and before an allowed command. */
function spellings(texts: readonly string[]): string[] {
  return texts.flatMap((t) => [t, `pwd; ${t}`, `${t}\npwd`]);
}

function load(file: string): CompiledApprover {
  const r = compileFile(join(repoRoot, file), DECIDING);
  if (r.approver === undefined) throw new Error(`${file} does not load`);
  return r.approver;
}

describe("issue 24's examples are never allowed", () => {
  it('has every example in three spellings or more', () => {
    expect(Object.keys(EXAMPLES).length).toBeGreaterThanOrEqual(37);
    for (const [name, texts] of Object.entries(EXAMPLES)) expect(texts.length, name).toBeGreaterThanOrEqual(3);
  });

  for (const file of POLICIES) {
    it(`under ${file}`, () => {
      const approver = load(file);
      const allowed: string[] = [];
      for (const [name, texts] of Object.entries(EXAMPLES)) {
        for (const command of spellings(texts)) {
          for (const toolName of TOOLS) {
            if (approver.decide({ toolName, input: JSON.stringify({ command }) }).decision === 'allow') allowed.push(`${name}: ${toolName}: ${JSON.stringify(command)}`);
          }
        }
      }
      expect(allowed).toEqual([]);
    });
  }

  it('the joins alone are allowed (the test can fail)', () => {
    for (const file of POLICIES) {
      const approver = load(file);
      for (const command of ['pwd; ls', 'ls\npwd', 'pwd; git status']) {
        const allowedOn = TOOLS.filter((toolName) => approver.decide({ toolName, input: JSON.stringify({ command }) }).decision === 'allow');
        expect(allowedOn.length, `${file}: ${command}`).toBeGreaterThan(0);
      }
    }
  });
});
