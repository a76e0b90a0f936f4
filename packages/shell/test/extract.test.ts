import { describe, expect, it } from 'vitest';
import { extract } from '../src/index.ts';
import { unclosedBrace } from '../src/extract.ts';
import { readings, rules } from './corpora.ts';
import { judge } from '../src/index.ts';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Each executed command as `wrapper>wrapper>program arg …` (`…` for a word with an expansion). */
function found(text: string): string[] {
  return extract(text).commands.map((c) => [...c.wrappers.map((w) => `${w.program}>`), [c.program, ...c.args.map((a) => a ?? '…')].join(' ')].join(''));
}
function unknowns(text: string): string[] {
  return extract(text).unknowns.map((u) => u.reason);
}

describe('every simple command that would execute, in the order it runs', () => {
  it.each([
    ['git status && curl x | grep y', ['git status', 'curl x', 'grep y']],
    ["bash <<'EOF'\nrm -rf /\nEOF", ['bash>rm -rf /']],
    ['bash script.sh', ['bash script.sh']],
    ['a; b & c || d', ['a', 'b', 'c', 'd']],
    ['(a; (b)) && { c; }', ['a', 'b', 'c']],
    ['echo $(rm -rf /) `rm b`', ['rm -rf /', 'rm b', 'echo … …']],
    ['diff <(rm a) >(rm b)', ['rm a', 'rm b', 'diff … …']],
    ['if a; then b; elif c; then d; else e; fi', ['a', 'b', 'c', 'd', 'e']],
    ['for f in $(rm x); do g; done', ['rm x', 'g']],
    ['while a; do b; done; until c; do d; done', ['a', 'b', 'c', 'd']],
    ['case $(rm x) in a) b;; *) c;; esac', ['rm x', 'b', 'c']],
    ['f() { rm a; }', ['rm a']],
    ['x=$(rm y)', ['rm y']],
    ['echo ${x:-$(rm y)}', ['rm y', 'echo …']],
    ['cat <<EOF\n$(rm a) `rm b`\nEOF', ['rm a', 'rm b', 'cat']],
    ['cat > "$(rm a)"', ['rm a', 'cat']],
    ['[[ -n $(rm x) ]]', ['rm x']],
    ["bash -c 'rm -rf /'", ['bash>rm -rf /']],
    ["sh -lc 'git status && touch x'", ['sh>git status', 'sh>touch x']],
    ['bash -o pipefail -c "a | b"', ['bash>a', 'bash>b']],
    ["bash -c \"sh -c 'rm x'\"", ['bash>sh>rm x']],
    ['eval "rm x"', ['eval>rm x']],
    ["eval 'a;' b", ['eval>a', 'eval>b']],
    ['alias ls=rm', ['alias ls=rm', 'alias>rm']],
    ["trap 'rm x' EXIT", ['trap rm x EXIT', 'trap>rm x']],
    ['watch -n 1 "rm x"', ['watch>rm x']],
  ])('%j', (text, want) => {
    expect(found(text)).toEqual(want);
    expect(unknowns(text)).toEqual([]);
  });
});

describe('wrappers are seen through', () => {
  it.each([
    ['timeout 5 rm -rf /', ['timeout>rm -rf /']],
    ['timeout -s KILL --foreground 5 rm', ['timeout>rm']],
    ['env LANG=C -u B rm', ['env>rm']],
    ['env', ['env']],
    // As env(1) reads them: `-` is `-i`; `-u NAME` and `-C DIR` take a value; the signal options take
    // one only attached (`--default-signal ls` runs `ls`); `-S` splits its value into more arguments.
    ['env - rm x', ['env>rm x']],
    ['env -i rm x', ['env>rm x']],
    ['env -u X rm x', ['env>rm x']],
    ['env -uX -C /tmp rm x', ['env>rm x']],
    ['env -- rm x', ['env>rm x']],
    ['env --default-signal rm x', ['env>rm x']],
    ['env --ignore-signal=INT rm x', ['env>rm x']],
    ["env -S 'rm -rf  /tmp/x' y", ['env>rm -rf /tmp/x y']],
    ["env -S'rm -f' y", ['env>rm -f y']],
    ["env -iS 'LANG=C rm x'", ['env>rm x']],
    ["env --split-string='-i rm x'", ['env>rm x']],
    ['LC_ALL=C rm', ['rm']],
    ['command rm x', ['command>rm x']],
    ['command -v rm', ['command -v rm']],
    ['builtin exec nohup nice -n 5 ionice -c 3 rm', ['builtin>exec>nohup>nice>ionice>rm']],
    ['nice -10 rm', ['nice>rm']],
    ['/usr/bin/time -v rm', ['/usr/bin/time>rm']],
    ['time rm', ['rm']],
    ['stdbuf -oL rm', ['stdbuf>rm']],
    ['setsid -f rm', ['setsid>rm']],
    ['sudo -u root -E rm -rf /', ['sudo>rm -rf /']],
    ['sudo -iu root rm', ['sudo>rm']],
    ['doas -u root rm', ['doas>rm']],
    // What xargs reads from its input are words known only at run time (`…`).
    ['ls | xargs rm', ['ls', 'xargs>rm …']],
    ['ls | xargs -0 -n 1 -I X rm -- X.bak', ['ls', 'xargs>rm -- … …']],
    ['xargs', ['xargs>echo …']],
    // GNU xargs' `-e`, `-i`, `-l` (`--eof`, `--replace`, `--max-lines`) take a value only attached: the next word is the command.
    ['ls | xargs -l rm x', ['ls', 'xargs>rm x …']],
    ['xargs -e rm x', ['xargs>rm x …']],
    ['xargs -i rm x {}', ['xargs>rm x … …']],
    ['xargs --replace rm x', ['xargs>rm x …']],
    ['xargs -l5 -eEOF --max-lines=2 rm x', ['xargs>rm x …']],
    // `{}` is a file name known only at run time, alone or inside a word.
    ['find . -name x -exec rm {} \\;', ['find . -name x -exec rm {} ;', 'find>rm …']],
    ['find . -execdir rm {} + -ok mv {} y \\;', ['find . -execdir rm {} + -ok mv {} y ;', 'find>rm …', 'find>mv … y']],
    ['find . -exec cp {} {}.bak \\;', ['find . -exec cp {} {}.bak ;', 'find>cp … …']],
    ['fd -e ts -x wc -l', ['fd -e ts -x wc -l', 'fd>wc -l …']],
    ['fd . -X rm {} \\;', ['fd . -X rm {} ;', 'fd>rm …']],
    ['busybox rm x', ['busybox>rm x']],
    ['exec rm', ['exec>rm']],
  ])('%j', (text, want) => {
    expect(found(text)).toEqual(want);
    expect(unknowns(text)).toEqual([]);
  });

  it('refuses a wrapper option it does not know (it may take a value)', () => {
    expect(unknowns('timeout --frobnicate 5 rm')).toEqual(['`timeout` option `--frobnicate` is not in the wrapper table']);
    expect(unknowns('sudo -e /etc/passwd')).toEqual(['`sudo` option `-e` is not modelled']);
    // `flock FILE -c CMD` runs CMD through a shell; `watch -x` runs an argv, not a script.
    expect(unknowns("flock /tmp/l -c 'rm -rf x'")).toEqual(['`flock` option `-c` is not modelled']);
    expect(unknowns("watch -x rm 'a b'")).toEqual(['`watch` option `-x` is not modelled']);
    // zsh's `typeset -T` ties a scalar (here the exported PATH) to an array with a harmless-looking name.
    expect(unknowns('typeset -T PATH p; p=(/tmp/x); ls')).toHaveLength(1);
    expect(unknowns('typeset -gT PATH p')).toHaveLength(1);
  });

  it('reads `env -S` only when its value is static and split exactly', () => {
    // GNU and BSD env read quotes, `\\`, `$VAR`/`${VAR}` and `#` in the value: not modelled.
    for (const text of ["env -S 'rm $HOME'", "env -S \"rm 'a b'\"", "env -S 'rm a\\_b'", "env -S 'ls #x'", "env -S 'ls\tx'", 'env -S "$x"']) {
      expect(unknowns(text), text).toHaveLength(1);
      expect(found(text), text).toEqual([]);
    }
    expect(unknowns('env -S')).toEqual(['`env` option `-S` has no value']);
    // The split words are env's arguments again: an assignment among them is judged as one.
    expect(unknowns("env -S 'GIT_DIR=/x git status'")[0]).toContain('`GIT_DIR`');
  });

  it('takes wrappers from the options too', () => {
    expect(extract('mywrap --fast rm', { wrappers: { mywrap: { flags: ['--fast'] } } }).commands.map((c) => c.program)).toEqual(['rm']);
  });
});

describe('quote removal', () => {
  it.each([["'r''m' x"], ['r\\m x'], ['"rm" x'], ['\\rm x'], ["$'r\\x6d' x"], ['r""m x']])('%j is rm', (text) => {
    expect(found(text)).toEqual(['rm x']);
  });
});

describe('write redirections', () => {
  const writes = (text: string) => extract(text).commands.flatMap((c) => c.redirects.map((r) => `${r.operator}${r.target ?? '…'}`));
  it('records write targets, not /dev/null, fd duplications, reads or heredocs', () => {
    expect(writes('a > x >> y >| z &> w &>> v <> u 2>&1 >&2 >/dev/null 2>/dev/null < in <<< s')).toEqual(['>x', '>>y', '>|z', '&>w', '&>>v', '<>u']);
    expect(writes('a >& file')).toEqual(['>&file']);
    expect(writes('a > "$f"')).toEqual(['>…']);
  });
  it('gives a compound command’s writes to what runs inside it, and keeps them when nothing does', () => {
    expect(writes('{ a; } > x')).toEqual(['>x']);
    expect(extract('> x').writes.map((w) => w.redirect.target)).toEqual(['x']);
  });
});

describe('unknown: what cannot be modelled is named', () => {
  it.each([
    ['git status && curl x | sh', '`sh` runs a script from its standard input, which is not analysed'],
    ['cat <<EOF | bash\nrm x\nEOF', '`bash` runs a script from its standard input, which is not analysed'],
    ['bash -s < script.sh', '`bash` runs a script from its standard input, which is not analysed'],
    ['$x a', 'a program name that is not static (a variable, substitution, glob or brace expansion) cannot be judged'],
    ['$(echo rm) x', 'a program name that is not static (a variable, substitution, glob or brace expansion) cannot be judged'],
    ['/bin/r? x', 'a program name that is not static (a variable, substitution, glob or brace expansion) cannot be judged'],
    ['{rm,-rf,/}', 'a program name that is not static (a variable, substitution, glob or brace expansion) cannot be judged'],
    ['eval "$x"', '`eval` of a string that is not static cannot be judged'],
    ['bash -c "$x"', '`bash` runs a script that is not static'],
    // A run-time word pasted into a script: the script is not known.
    ['ls | xargs -I{} sh -c "rm {}"', '`sh` runs a script that is not static'],
    ["find . -exec sh -c 'echo {}' \\;", '`sh` runs a script that is not static'],
    ['fd -Hx rm', '`fd` option cluster `-Hx` may hold `-x`, which is not modelled'],
    ['ls | parallel rm', '`parallel` builds the commands it runs from its input at run time'],
    ['set -a; x=1; ls', '`set` with `allexport` or `keyword` puts later assignments in the environment, which is not modelled'],
    ['BASH_CMDS[ls]=/bin/sh; ls', 'the text assigns `BASH_CMDS[ls]`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in `environment`'],
    ['functions[ls]=x; ls', 'the text assigns `functions[ls]`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in `environment`'],
    ['HOME=/tmp/x; git log', 'the text assigns `HOME`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in `environment`'],
    ['declare -x FOO=1; ls', '`declare` assigns `FOO`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in `environment`'],
    ['declare -n r=PATH; r=/tmp', '`declare -n` makes a name refer to another variable, which is not modelled'],
    ["env 'BASH_FUNC_ls%%=() { id; }' ls", '`env` runs its command with `BASH_FUNC_ls%%`, which is not known to be harmless (it can change what a command runs)'],
    ['a && && b', 'an empty command (two operators in a row, or an operator at the end)'],
    ['rm x &&', 'an empty command (two operators in a row, or an operator at the end)'],
    ['rm x )', "syntax error: syntax error near unexpected token `)'"],
    ['coproc rm x', '`coproc` is not modelled'],
    ['select x in a; do rm $x; done', '`select` is not modelled'],
    ["echo 'open", "syntax error: line 1: unexpected EOF while looking for matching `''"],
    ['PATH=/tmp ls', 'the command is run with `PATH`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in `environment`'],
    ['export PATH=.; ls', '`export` assigns `PATH`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in `environment`'],
    // An expanded value leaves the name static: it is still judged.
    ['export GIT_DIR=$(pwd); git status', '`export` assigns `GIT_DIR`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in `environment`'],
    ['declare -x PAGER="$x"; git log', '`declare` assigns `PAGER`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in `environment`'],
    ['GIT_SSH_COMMAND="rm -rf /" git fetch', 'the command is run with `GIT_SSH_COMMAND`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in `environment`'],
    ['env LD_PRELOAD=x.so ls', '`env` runs its command with `LD_PRELOAD`, which is not known to be harmless (it can change what a command runs)'],
    ['hash -p /bin/rm ls; ls', '`hash` can change which program a name runs'],
    ["x='a[$(rm -rf /)]'; echo $((x))", 'arithmetic (`$((…))`, `((…))`, `$[…]`) is not analysed: the parser can run past its end and never stop'],
    ['[[ $x -eq 1 ]]', '`[[ … -eq … ]]` evaluates its operands as arithmetic, where a variable can hold a command substitution'],
    ['echo ${a[$i]}', 'the array subscript in `${a[$i]}` is evaluated as arithmetic, where a variable can hold a command substitution'],
    ['let x', '`let` evaluates arithmetic, where a variable can hold a command substitution'],
    ['find . $x', '`find` has an argument that is not static (it could be `-exec`)'],
    ['find . -exec rm {}', '`find` `-exec` has no `;` or `{} +` end'],
  ])('%j', (text, reason) => {
    expect(unknowns(text)).toContain(reason);
  });

  it('keeps the known commands around an unknown one', () => {
    expect(found('git status; $x; rm y')).toEqual(['git status', 'rm y']);
  });
});

describe('spans', () => {
  it('gives each command its statement’s text and line', () => {
    const text = 'git status\nls -la && rm -rf /tmp/x';
    const spans = extract(text).commands.map((c) => [text.slice(c.span.start, c.span.end), c.span.line]);
    expect(spans).toEqual([
      ['git status', 1],
      ['ls -la && rm -rf /tmp/x', 2],
      ['ls -la && rm -rf /tmp/x', 2],
    ]);
  });
  it('narrows to a substitution’s own statement', () => {
    const text = 'echo $(rm -rf /) ok';
    const rm = extract(text).commands.find((c) => c.program === 'rm')!;
    expect(text.slice(rm.span.start, rm.span.end)).toBe('rm -rf /');
  });
  it('finds a `bash -c` script in the text when it is written verbatim', () => {
    const text = "ls; bash -c 'rm -rf /'";
    const rm = extract(text).commands.find((c) => c.program === 'rm')!;
    expect(text.slice(rm.span.start, rm.span.end)).toBe('rm -rf /');
  });
});

describe('totality and bounds', () => {
  it('handles a 10,000-long && chain', () => {
    const r = extract(Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(' && '));
    expect(r.commands).toHaveLength(10_000);
    expect(r.unknowns).toEqual([]);
  });
  it.each([
    ['$( x 10,000 deep', `${'$('.repeat(10_000)}a${')'.repeat(10_000)}`],
    ['( x 10,000 deep', `${'('.repeat(10_000)}a${')'.repeat(10_000)}`],
    ['{ x 10,000 deep', `${'{ '.repeat(10_000)}a${'; }'.repeat(10_000)}`],
    ['1 MB + 1', `echo ${'x'.repeat(1_000_000)}`],
    ['bash -c 20 deep', `${"bash -c '".repeat(1)}${'eval '.repeat(40)}rm'`],
  ])('refuses %s as unknown without throwing', (_, text) => {
    const r = extract(text);
    expect(r.unknowns.length).toBeGreaterThan(0);
  });
  it('parses a 1 MB script of ordinary commands or refuses it, never throws', () => {
    const text = 'ls -la; '.repeat(125_000);
    const r = extract(text);
    // Refused as a whole (today: over just-bash's token bound), or every one of its commands found.
    if (r.unknowns.length > 0) expect(r.unknowns.map((u) => u.reason)).toEqual([expect.stringMatching(/bounds|too large/)]);
    else expect(r.commands.map((c) => [c.program, ...c.args].join(' '))).toEqual(Array(125_000).fill('ls -la'));
  });
});

describe('assignments by another name', () => {
  it.each([
    ['printf -v PATH /tmp; ls', '`printf` assigns `PATH`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in `environment`'],
    ['read -r PATH <<< /tmp; ls', '`read` assigns `PATH`, which is not known to be harmless (it can change what a command runs); a policy names harmless variables in `environment`'],
    ['mapfile -C "rm -rf /" -c 1 x <<< a', '`mapfile -C` runs a callback that is not analysed'],
  ])('%j', (text, reason) => {
    expect(unknowns(text)).toContain(reason);
  });
  it('leaves ordinary variables alone', () => {
    expect(unknowns('printf -v out %s x; read -r line')).toEqual([]);
  });
});

describe('just-bash faults are refused', () => {
  it('a line continuation between `$` and `(` in an unquoted heredoc (bash expands it)', () => {
    expect(unknowns('cat <<EOF\n$\\\n(touch /tmp/pwned)\nEOF')).toEqual(['a line continuation after `$` in an unquoted heredoc is not modelled']);
    expect(unknowns("cat <<'EOF'\n$\\\n(touch /tmp/pwned)\nEOF")).toEqual([]);
    expect(unknowns('cat <<EOF\n\\$(x) $HOME\nEOF')).toEqual([]);
  });
  it('lookalike separators are words to bash, and to the extraction', () => {
    expect(found('ls \u037e rm -rf /')).toEqual(['ls \u037e rm -rf /']);
    expect(found('ls \uff06\uff06 rm -rf /')).toEqual(['ls \uff06\uff06 rm -rf /']);
  });
});

describe('a lone `[` is a word, not a glob', () => {
  it.each([
    ['[ -f x ] && echo y', ['[ -f x ]', 'echo y']],
    ['ls a[1', ['ls a[1']],
    ['ls [ab]', ['ls …']],
  ])('%j', (text, want) => {
    expect(found(text)).toEqual(want);
  });
});

describe('case-insensitive file systems and option ends', () => {
  it.each([
    ['TIMEOUT 5 rm x', ['TIMEOUT>rm x']],
    ['BASH -c "rm x"', ['BASH>rm x']],
    ['/usr/bin/COMMAND rm x', ['/usr/bin/COMMAND>rm x']],
    ['env -- LANG=C TZ=UTC rm x', ['env>rm x']],
    ['timeout -- 5 rm x', ['timeout>rm x']],
  ])('%j', (text, want) => {
    expect(found(text)).toEqual(want);
    expect(unknowns(text)).toEqual([]);
  });
  it('takes a policy wrapper whatever its case', () => {
    expect(extract('MyWrap rm', { wrappers: { MyWrap: {} } }).commands.map((c) => c.program)).toEqual(['rm']);
  });
});

describe('texts that stall just-bash are never parsed', () => {
  // just-bash 3.4.2 allocates until the process runs out of memory on these (found by the noise
  // property below, `rm|$(( &&$((${>`): each must come back unknown, at once.
  it.each(['echo ${a; rm -rf /', "bash -c 'echo ${'"])('%s is unknown', (text) => {
    const r = extract(text);
    expect(r.unknowns.map((u) => u.reason)).toContain('a `${` that is never closed is not parsed (it stalls the parser)');
  });

  it.each(['echo $((${', 'rm|$(( &&$((${>', '$(( $((${>', '$[$]', '$((ls$[$', '\n$(("ls$))', "bash -c 'echo $((1))'", 'for ((i=0;i<3;i++)); do rm x; done', 'echo $(( $(rm x) + 1 ))'])('%s (arithmetic) is unknown', (text) => {
    const r = extract(text);
    expect(r.unknowns.map((u) => u.reason)).toContain('arithmetic (`$((…))`, `((…))`, `$[…]`) is not analysed: the parser can run past its end and never stop');
  });

  it('tells a closed `${` from one never closed, counting braces as the parser does', () => {
    expect(unclosedBrace('echo ${HOME} ${x:-{a}}')).toBe(false);
    expect(unclosedBrace('f() { echo ${x}; }')).toBe(false);
    expect(unclosedBrace('}}} ${x}')).toBe(false);
    expect(unclosedBrace('echo ${x')).toBe(true);
    expect(unclosedBrace('echo ${x {a}')).toBe(true);
    expect(unclosedBrace('{ ${ }')).toBe(false);
    expect(unclosedBrace('${a} ${')).toBe(true);
  });
});

describe('readings that differ are unknown (fixtures/shell/readings.jsonl)', () => {
  // Each text is read by bash, zsh or sh unlike the parser, or by one shell unlike another: never
  // fully known, so never allowed, whatever the policy allows.
  it.each(readings.map((r) => [r.class, r.command]))('%s: %j', (_, text) => {
    expect(unknowns(text).length).toBeGreaterThan(0);
    expect(judge(rules('read-only.json'), text).decision).not.toBe('allow');
  });

  it('a shell started on a script that runs nothing is itself the command (the shell oracle: `sh <<-E` with an empty body ran `sh`)', () => {
    expect(found('sh <<-E\n\tE')).toEqual(['sh']);
    expect(found("bash -c ''")).toEqual(['bash -c ']);
    expect(found('watch ""')).toEqual(['watch ']);
    expect(found('watch x=1')).toEqual(['watch x=1']);
    expect(found('ionice -c 3 eval')).toEqual(['ionice>eval']);
    expect(found("eval 'ls'")).toEqual(['eval>ls']);
    expect(found("sh -c 'a=1'")).toEqual(['sh -c a=1']);
    expect(found('bash <<E\nx=1\nE')).toEqual(['bash']);
    // A script wrapper's own redirections are writes (the shell oracle: `watch f > o` wrote `o`).
    expect(extract('watch ls > o').writes.map((w) => w.redirect.target)).toEqual(['o']);
    expect(found("bash -c 'ls'")).toEqual(['bash>ls']);
  });

  it('keeps the plain forms of the classes the shell oracle found (time, eval, printf, braces, redirections)', () => {
    for (const text of ['ls &> /dev/null', 'ls &>> o; pwd', 'ls &>o && pwd', 'time ls', 'time git status', '! time ls', '/usr/bin/time -v ls', "eval 'ls'", 'printf %s $x', 'printf -v out %s x', '{ ls; }', 'ls {a,b}', ': > f', 'ls > f', 'ls >| f', 'x=1 > f']) {
      expect(unknowns(text), text).toEqual([]);
    }
  });

  it('still finds a denied command beside such a construct', () => {
    expect(found("ls ${X@P}; rm -rf /")).toContain('rm -rf /');
    expect(found('noglob rm -rf /')).toContain('noglob>rm -rf /');
    expect(found("git log $'--outp\\0'ut=x; rm x")).toContain('rm x');
  });

  it('refuses every `$\'` once the text holds a `\\\'` (sh ends the string there, bash does not)', () => {
    expect(unknowns("grep 'a$' f; echo \\'")).toContain("`$'…'` quoting is read differently by sh (dash reads `$` and a single-quoted string)");
    expect(unknowns("grep 'a$' f")).toEqual([]);
  });

  // Every set of shells a policy can name: a row is unknown exactly when one of its shells is in the set.
  const SETS = [['bash'], ['zsh'], ['sh'], ['bash', 'zsh'], ['bash', 'sh'], ['zsh', 'sh'], ['any']] as const;
  it.each(readings.map((r) => [r.class, r.command, r.shells ?? ['bash', 'zsh', 'sh']] as const))('%s: %j is unknown exactly under the shells it depends on', (_, text, shells) => {
    for (const set of SETS) {
      const named = set.includes('any' as never) ? ['bash', 'zsh', 'sh'] : (set as readonly string[]);
      const want = named.some((s) => (shells as readonly string[]).includes(s));
      expect(extract(text, { shells: set }).unknowns.length > 0, `${set.join(',')}: ${text}`).toBe(want);
    }
  });

  it('reads a construct for the shells that read it alike, and the commands are theirs', () => {
    const under = (shells: string[], text: string) => extract(text, { shells }).commands.map((c) => [c.program, ...c.args].join(' '));
    expect(under(['bash'], 'repeat 1 rm x')).toEqual(['repeat 1 rm x']);
    expect(under(['bash', 'sh'], '=rm x')).toEqual(['=rm x']);
    expect(under(['bash', 'zsh'], "git log $'--output=/tmp/x'")).toEqual(['git log --output=/tmp/x']);
    expect(under(['bash', 'zsh'], "jq . <<< '{}'")).toEqual(['jq .']);
    // A `$'…'` value holding a blank or operator stays unknown: the parser's word cannot be told from a swallowed one.
    expect(extract("tr , $'\\n'", { shells: ['bash'] }).unknowns.length).toBeGreaterThan(0);
    // An escape bash's versions or zsh decode otherwise stays unknown without sh too.
    for (const esc of ['\\x41', '\\101', '\\cA', '\\u00e9', '\\q', '\\?', '\\"']) {
      expect(extract(`printf %s $'a${esc}b'`, { shells: ['bash', 'zsh'] }).unknowns.length, esc).toBeGreaterThan(0);
    }
    // A `$'` before a blank is most often a string's end (`grep 'a$' f`), but its escapes are checked all the same.
    expect(extract("printf %s $' \\q'", { shells: ['bash', 'zsh'] }).unknowns.length).toBeGreaterThan(0);
    expect(extract("grep 'a$' f", { shells: ['bash', 'zsh'] }).unknowns).toEqual([]);
    expect(() => extract('ls', { shells: ['fish'] })).not.toThrow();
  });

  it('reads a script given to a named shell as that shell reads it, whatever the policy names', () => {
    const bash = (text: string) => extract(text, { shells: ['bash'] }).unknowns.length;
    // The policy says bash; the script runs in zsh or sh all the same.
    expect(bash("zsh -c 'ls =rm'")).toBeGreaterThan(0);
    expect(bash("zsh <<'E'\nls =rm\nE")).toBeGreaterThan(0);
    expect(bash("xargs zsh -c 'repeat 1 ls'")).toBeGreaterThan(0);
    expect(bash("sh -c 'cat <<< x'")).toBeGreaterThan(0);
    expect(bash("dash -c '[[ a && b ]]'")).toBeGreaterThan(0);
    expect(bash("watch 'cat <<< x'")).toBeGreaterThan(0); // watch runs `sh -c`
    expect(bash("ksh -c 'ls =rm'")).toBeGreaterThan(0); // another shell: read as all three would
    expect(bash("bash -c 'cat <<< x; ls =rm'")).toBe(0);
    expect(bash("eval 'ls =rm'")).toBe(0); // eval runs in the shell the policy names
  });

  it('the texts read for a shell left out of their row run nothing in the other shells', () => {
    // Run in the shells themselves (bash, zsh, dash), in a throwaway folder: where a row is read, its
    // payload (`touch m`, a write under .git/hooks) must not happen.
    const shellOf = { bash: 'bash', zsh: 'zsh', sh: 'dash' } as const;
    let ran = 0;
    for (const r of readings) {
      for (const [name, program] of Object.entries(shellOf)) {
        if ((r.shells ?? ['bash', 'zsh', 'sh']).includes(name as 'bash')) continue;
        const dir = mkdtempSync(join(tmpdir(), 'verdict-reading-'));
        mkdirSync(join(dir, '.git', 'hooks'), { recursive: true });
        spawnSync(program, ['-c', r.command], { cwd: dir, env: { PATH: '/usr/bin:/bin', HOME: dir }, timeout: 10_000 });
        // A file named `!…` is bash's and sh's reading of zsh's `>!` (zsh's reading writes the next word).
        expect(readdirSync(dir).filter((f) => f !== '.git' && !f.startsWith('!')), `${program}: ${r.command}`).toEqual([]);
        expect(readdirSync(join(dir, '.git', 'hooks')), `${program}: ${r.command}`).toEqual([]);
        rmSync(dir, { recursive: true, force: true });
        ran++;
      }
    }
    expect(ran).toBeGreaterThanOrEqual(30);
  });

  it("decodes the `$'…'` escapes it reads without sh as bash and zsh do", () => {
    // Run in the real shells: every escape the screen lets through, and `\'` that does not end the string.
    const words = "$'a\\nb' $'a\\tb' $'a\\rb' $'a\\\\b' $'a\\'b' $'a\\ab' $'a\\bb' $'a\\eb' $'a\\Eb' $'a\\fb' $'a\\vb' $'x\\'y' 'z'";
    const text = `printf '%s\\0' ${words}`;
    const read = extract(text, { shells: ['bash', 'zsh'] });
    expect(read.unknowns.filter((u) => !u.reason.startsWith('the parser read'))).toEqual([]);
    const parsed = read.commands[0]!.args.slice(1);
    for (const shell of ['bash', 'zsh']) {
      const ran = execFileSync(shell, ['-c', text]).toString('utf8').split('\0').slice(0, -1);
      expect(ran, shell).toEqual(parsed);
    }
  });

  it('leaves the plain forms alone', () => {
    for (const text of ['ls x[1]', 'echo "a # b" $(pwd)', 'cat <<EOF\na b; c\nEOF', "cat <<'E'\n$(x)\nE", 'echo ${HOME:-/tmp} ${#x}', '[[ -f x ]]', 'export LC_ALL=$(pwd) TZ=1', 'printf -v out %s x', 'printf Hello', 'printf "%s\\n" Done', '[ -v name ]', 'echo ~ ~/x ~root', "grep -E '^a$' f", 'grep "x$" f', 'wc -l $(git ls-files \'*.ts\'); echo "# x"']) {
      expect(unknowns(text), text).toEqual([]);
    }
  });
});
