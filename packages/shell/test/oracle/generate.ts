/**
 * A generator of shell texts for the shell oracles (test/oracle/run.ts): deterministic, text `id`
 * under `seed` is always the same text, made on its own (no state between texts), so a finding is
 * reproduced from its seed and id alone. It reaches the constructs of issue 24's classes:
 * subscripts in every place a name is read, every builtin that assigns or runs, wrappers,
 * heredocs with every delimiter spelling, comments and `#` around substitutions, every parameter
 * expansion form and transformation, `$'…'` with NUL and other control bytes, brace expansion,
 * globs, zsh-only syntax, assignments before commands, redirections, compound commands, and plain
 * everyday commands.
 *
 * Payloads are harmless by construction: every program a text names is one of `STUBS` (the oracle
 * puts a recording stub of each on `PATH`, and only those), or a builtin that neither kills,
 * suspends nor leaves the folder (`kill`, `suspend`, `cd ..`, `command -p`, `enable -f` are never
 * written). No text holds an absolute path other than `/dev/null`; a path to a program is always
 * `~/NAME` (the oracle's `HOME` is the stub folder). Loops always end (`while false`, `until :`,
 * `for` over words), and no function calls a function.
 */

/** Programs a text may run: each is a recording stub on the oracle's `PATH`. */
export const STUBS = [
  'ls', 'cat', 'grep', 'rg', 'git', 'rm', 'touch', 'sed', 'awk', 'head', 'tail', 'wc', 'sort', 'find', 'xargs', 'env', 'timeout', 'nice', 'nohup',
  'time', 'sudo', 'doas', 'stdbuf', 'setsid', 'ionice', 'watch', 'bash', 'sh', 'zsh', 'dash', 'curl', 'node', 'python3', 'make', 'tar', 'jq', 'tree',
  'npm', 'mkdir', 'cp', 'mv', 'chmod', 'echo', 'printf', 'test', '[', 'true', 'false', 'pwd', 'printenv', 'tee', 'diff', 'cut', 'tr', 'sleep', 'yes',
  'parallel', 'fd', 'less', 'man', 'history', 'id', 'date', 'uname', 'which', 'stat', 'file', 'du', 'df', 'seq', 'basename', 'dirname', 'realpath',
] as const;

/** Programs in payloads: stubs that are never builtins, so that a run of them is always recorded. */
const PAYLOAD = ['ls', 'cat', 'grep', 'rg', 'git', 'rm', 'touch', 'sed', 'head', 'wc', 'sort', 'curl', 'node', 'make', 'tar', 'jq', 'tree', 'npm', 'cp', 'mv', 'id', 'date'] as const;

/** A seeded PRNG per text: splitmix32 of (seed, id), then mulberry32. */
class Rng {
  private a: number;
  constructor(seed: number, id: number) {
    let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(id >>> 0, 0x85ebca6b) ^ 0x27d4eb2f) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x21f0aaad) >>> 0;
    h = Math.imul(h ^ (h >>> 15), 0x735a2d97) >>> 0;
    this.a = (h ^ (h >>> 15)) >>> 0;
  }
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** One of the weighted makers, called. */
  weighted(table: readonly [number, () => string][]): string {
    let total = 0;
    for (const [w] of table) total += w;
    let x = this.next() * total;
    for (const [w, f] of table) {
      x -= w;
      if (x < 0) return f();
    }
    return table[table.length - 1]![1]();
  }
}

/** `'…'` quoting that every shell reads back as `s`. */
export function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The classes a text is drawn from, by weight (a text is one class's statement, sometimes joined with others). */
export const CLASSES = [
  'everyday', 'simple', 'wrapper', 'assign', 'declare', 'subscript', 'heredoc', 'hash', 'param', 'dollar-quote', 'brace', 'glob', 'zsh', 'redirect',
  'compound', 'builtin-runs',
] as const;
export type TextClass = (typeof CLASSES)[number];

/** Text `id` under `seed`, and the class it was drawn from. */
export function generate(seed: number, id: number): { text: string; cls: TextClass } {
  const g = new Gen(new Rng(seed, id));
  return g.text();
}

class Gen {
  private cls: TextClass = 'simple';
  constructor(private readonly r: Rng) {}

  text(): { text: string; cls: TextClass } {
    const r = this.r;
    this.cls = r.pick(CLASSES);
    let text = this.ofClass(this.cls, 2);
    // Sometimes a second statement, of any class, joined by a list operator or a newline.
    if (r.chance(0.3)) text = `${text}${r.pick(['; ', '\n', ' && ', ' || ', ' & ', ' | '])}${this.ofClass(r.pick(CLASSES), 1)}`;
    return { text, cls: this.cls };
  }

  private ofClass(cls: TextClass, d: number): string {
    switch (cls) {
      case 'everyday':
        return this.everyday();
      case 'simple':
        return this.simple(d);
      case 'wrapper':
        return this.wrapper(d);
      case 'assign':
        return this.assign(d);
      case 'declare':
        return this.declare(d);
      case 'subscript':
        return this.subscript();
      case 'heredoc':
        return this.heredoc(d);
      case 'hash':
        return this.hash();
      case 'param':
        return this.param();
      case 'dollar-quote':
        return this.dollarQuote();
      case 'brace':
        return this.brace();
      case 'glob':
        return this.glob();
      case 'zsh':
        return this.zsh();
      case 'redirect':
        return `${this.simple(d - 1)}${this.redirect()}`;
      case 'compound':
        return this.compound(d);
      case 'builtin-runs':
        return this.builtinRuns(d);
    }
  }

  private p(): string {
    return this.r.pick(PAYLOAD);
  }

  /** A payload command: a stub program and a plain argument or two. */
  private payload(): string {
    const r = this.r;
    return [this.p(), ...Array.from({ length: r.int(3) }, () => this.plainWord())].join(' ');
  }

  private plainWord(): string {
    return this.r.pick(['a', 'b', 'x.txt', '-l', '-la', '-rf', '.', 'src', '--', '-n', '5', 'm', '--output=o', '--pre=ls', '-exec', '{}', 'HEAD', '-c', '--help', 'f']);
  }

  /** A program name in one of its spellings. */
  private program(name: string): string {
    const r = this.r;
    if (name === '[' || !/^[a-z][a-z0-9]*$/.test(name)) return name;
    return r.weighted([
      [10, () => name],
      [1, () => `'${name}'`],
      [1, () => `"${name}"`],
      [1, () => `\\${name}`],
      [1, () => `${name[0]}\\${name.slice(1)}`],
      [1, () => `${name[0]}''${name.slice(1)}`],
      [1, () => `${name[0]}""${name.slice(1)}`],
      [1, () => `~/${name}`],
      [0.5, () => `$'${name}'`],
      [0.3, () => `${name.toUpperCase()}`],
    ]);
  }

  /** A word of any form, with substitutions `d` deep at most. */
  word(d: number): string {
    const r = this.r;
    const table: [number, () => string][] = [
      [20, () => this.plainWord()],
      [3, () => r.pick(["'a b'", '"a b"', 'a\\ b', "'a;b'", '"a|b"', "'$(ls)'", '"\\$(ls)"', "''", '""', '\\;', '"$x"', "a'b'c", 'a"b"c'])],
      [3, () => r.pick(['$x', '${x}', '$1', '$@', '"$@"', '$*', '$#', '$?', '$$', '$!', '$-', '$0', '${#x}', '$_', '${x:-a}', '~', '~/a', '~+', '~-', '~root'])],
      [1, () => r.pick(['*', '?', '[ab]', 'x[', '[', ']', '*.txt', 'a[1]', 'a[$x]', '{a,b}', '{1..3}', 'a#b', '#c', 'x=1', '=', '==', '=x', '-v', '!', '!x'])],
    ];
    if (d > 0) {
      table.push([2, () => `$(${this.script(d - 1)})`], [1, () => `\`${this.payload()}\``], [1, () => `"$(${this.script(d - 1)})"`], [0.5, () => `<(${this.script(d - 1)})`], [0.3, () => `>(${this.payload()})`]);
    }
    return r.weighted(table);
  }

  /** A short script: one to three statements. */
  script(d: number): string {
    const r = this.r;
    const n = 1 + r.int(2);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(d > 0 && r.chance(0.3) ? this.ofClass(r.pick(CLASSES), d) : r.chance(0.5) ? this.payload() : this.simple(d));
    return parts.join(r.pick(['; ', ' && ', ' || ', ' | ', '\n']));
  }

  simple(d: number): string {
    const r = this.r;
    const name = r.weighted([
      [6, () => r.pick(STUBS)],
      [2, () => r.pick(['echo', 'printf', ':', 'true', 'false', 'test', '[', 'type', 'unset', 'set', 'shopt', 'read', 'hash', 'export', 'local', 'declare', 'readonly', 'typeset', 'alias', 'trap', 'wait', 'return', 'exit', 'umask', 'getopts', 'let', 'exec', 'command', 'builtin', 'eval', 'source', '.'])],
    ]);
    const words = [this.program(name)];
    // `source >(…)` would wait forever for the substitution to write: `.` and `source` read plain words.
    const sources = name === '.' || name === 'source';
    for (let i = r.int(4); i > 0; i--) words.push(sources ? this.plainWord() : this.word(d));
    let text = words.join(' ');
    if (name === '[' || name === 'test') text = `${r.chance(0.5) ? '[' : 'test'} ${this.word(d)} ${r.pick(['-f', '=', '!=', '-eq', '-v', '-n'])} ${this.word(d)}${name === '[' ? ' ]' : ''}`;
    if (r.chance(0.2)) text = `${this.prefix()} ${text}`;
    if (r.chance(0.2)) text += this.redirect();
    return text;
  }

  /** An assignment before a command. */
  private prefix(): string {
    const r = this.r;
    return r.pick(['A=1', 'a=1', 'LANG=C', 'LC_ALL=C', 'TZ=UTC', 'NO_COLOR=1', 'x=$(ls)', 'GIT_DIR=x', 'PATH=.', 'IFS=,', 'BASH_ENV=x', 'HOME=.', 'CI=1 TERM=dumb', 'a[1]=x', 'A="$(date)"', "B='b c'", 'TIME_STYLE=iso', 'FOO=', 'RIPGREP_CONFIG_PATH=r', 'NODE_OPTIONS=--require=./x']);
  }

  everyday(): string {
    const r = this.r;
    return r.pick([
      'git status', 'git status --short', 'git log --oneline -5', 'git diff HEAD~1 -- src', 'ls -la', 'ls src', 'cat package.json', 'grep -rn TODO src',
      'rg -n "foo bar" .', "find . -name '*.ts' -type f", 'find . -maxdepth 2 -type d', 'head -n 20 README.md', 'tail -f log', 'wc -l src/*.ts',
      'npm test', 'npm run build', 'make -j2', 'tree -L 2', "sed -n '1,5p' f", "awk '{print $1}' f", 'sort -u a | head', 'cat a | grep x | wc -l',
      'git add -A && git commit -m "wip"', 'mkdir -p out && touch out/x', 'jq .name package.json', 'diff -u a b', 'echo hello > out.txt',
      'ls | xargs grep x', 'tar -czf a.tgz src', 'curl -s http://localhost:1', 'node -e "1"', 'python3 -c "print(1)"', 'date +%s', 'uname -a',
      'cut -d: -f1 f', "tr a-z A-Z < f", 'cp a b && mv b c', 'du -sh .', 'stat f', 'printenv', 'id -u', 'seq 1 3', 'basename a/b',
      'git branch -a', 'git grep -n foo', 'rg --files | head', 'grep -c x f 2>/dev/null', 'ls -1 | sort | uniq -c',
    ]);
  }

  wrapper(d: number): string {
    const r = this.r;
    const inner = r.chance(0.3) && d > 0 ? this.wrapper(d - 1) : r.chance(0.5) ? this.payload() : this.simple(0);
    return r.weighted([
      [2, () => `timeout ${r.pick(['5', '1s', '-s KILL 5', '--foreground 2', '-k 1 2', '--signal=TERM 3'])} ${inner}`],
      [2, () => `env ${r.pick(['', 'A=1 ', '-i ', 'LANG=C ', '-u A ', 'GIT_DIR=x ', '-- ', '-S "ls -l" ', 'BASH_FUNC_ls%%="() { rm x; }" ', '-C . '])}${inner}`],
      [1, () => `nice ${r.pick(['', '-n 5 ', '-5 ', '--adjustment=3 '])}${inner}`],
      [1, () => `nohup ${inner}`],
      [2, () => `time ${r.pick(['', '-p ', '-- ', '-o t ', '! '])}${inner}`],
      [2, () => `${this.payload()} | xargs ${r.pick(['', '-0 ', '-n 1 ', '-I{} ', '-r ', '-P 2 ', '-d , ', '-a f '])}${inner}`],
      [2, () => `find . ${r.pick(['-exec', '-execdir', '-ok'])} ${inner} ${r.pick(['\\;', "';'", '{} +', '{} \\;', ''])}`],
      [1, () => `find . -name x -exec sh -c ${sq(`${this.p()} {}`)} \\;`],
      [1, () => `sudo ${r.pick(['', '-u x ', '-E ', '-n ', '-e ', '-- '])}${inner}`],
      [0.5, () => `doas ${inner}`],
      [1, () => `stdbuf -oL ${inner}`],
      [0.5, () => `setsid ${inner}`],
      [0.5, () => `ionice -c 3 ${inner}`],
      [0.5, () => `watch ${r.pick(['', '-n 1 '])}${inner}`],
      [1, () => `${r.pick(['bash', 'sh', 'zsh', 'dash', 'bash -e', 'sh -x', 'bash -o pipefail'])} ${r.pick(['-c', '-lc', '-ec'])} ${sq(this.script(Math.max(0, d - 1)))}`],
      [0.5, () => `${r.pick(['bash', 'sh'])} -c ${sq(this.script(0))} ${r.pick(['x', 'a b', '_ $(ls)'])}`],
      [0.5, () => `${this.payload()} | ${r.pick(['bash', 'sh', 'zsh'])}${r.pick(['', ' -s', ' -'])}`],
      [0.5, () => `parallel ${this.p()} ::: a b`],
      [1, () => `command ${r.pick(['', '-v ', '-V ', '-- '])}${inner}`],
      [1, () => `builtin ${r.pick(['echo x', 'printf %s x', 'read x', 'eval ' + sq(this.payload()), 'source f', 'command ' + this.payload(), 'declare x=1', 'export A=1'])}`],
      [1, () => `exec ${r.pick(['', '-a name ', '-c ', '-l ', '-- '])}${inner}`],
      [1, () => `${r.pick(['!', '! !', 'time !', '! time'])} ${inner}`],
      [0.5, () => `fd -x ${this.p()}`],
    ]);
  }

  assign(d: number): string {
    const r = this.r;
    return r.weighted([
      [4, () => `${this.prefix()} ${this.payload()}`],
      [1, () => `${this.prefix()} ${this.prefix()} ${this.simple(0)}`],
      [1, () => `${this.prefix()}; ${this.payload()}`],
      [1, () => `x=${this.word(d)}; ${this.p()} $x`],
      [1, () => `A=1; export A; ${this.payload()}`],
      [1, () => `BASH_CMDS[${this.p()}]=~/${this.p()}; ${this.payload()}`],
      [1, () => `BASH_CMDS=([${this.p()}]=~/${this.p()}); ${this.payload()}`],
      [1, () => `BASH_ALIASES[x]=${this.p()}; x`],
      [1, () => `a=(${this.word(d)} ${this.word(d)}); ${this.p()} "\${a[@]}"`],
      [1, () => `a=([1]=$(${this.p()})); ${this.p()}`],
      [1, () => `x+=1 ${this.payload()}`],
      [1, () => `${r.pick(['GIT_TRACE=t', 'GIT_COMMON_DIR=x', 'GIT_TEST_FSMONITOR=x', 'GIT_EXTERNAL_DIFF=x', 'LESSOPEN=x', 'PAGER=x'])} ${r.pick(['git status', 'git diff', 'less f', 'rg x'])}`],
      [1, () => `set ${r.pick(['-a', '-k', '-o allexport', '-o keyword', '-e', '-u', '-x', '--', '-f'])}; A=1 ${this.payload()}`],
      [1, () => `${this.p()} A=1`],
    ]);
  }

  declare(d: number): string {
    const r = this.r;
    const b = r.pick(['declare', 'typeset', 'local', 'export', 'readonly', 'declare -x', 'declare -g', 'declare -a', 'declare -A', 'declare -i', 'declare -n', 'export -n', 'typeset -x', 'builtin declare', 'command export']);
    return r.weighted([
      [3, () => `${b} ${r.pick(['A=1', 'a=1', 'LANG=C', 'GIT_DIR=x', 'PATH=.', 'A=$(date)', 'a', 'A', 'a=(1 2)', "'a[$(ls)]=1'", 'a[1]=x', '"A=$(ls)"', 'x=$x', '$n=1', 'A+=1', '-p', '-f', '-F', 'x=\'a[$(ls)]\''])}; ${this.payload()}`],
      [1, () => `${b} A=1 ${this.word(d)}; ${this.payload()}`],
      [1, () => `f() { ${b} a=1; ${this.payload()}; }; f`],
      [1, () => `export a=( $(${this.p()}) )`],
      [1, () => `declare -i x='a[$(${this.p()})]'`],
      [1, () => `declare -n r='a[$(${this.p()})]'; echo $r`],
      [1, () => `typeset -f ${this.p()}`],
    ]);
  }

  subscript(): string {
    const r = this.r;
    const sub = r.pick([`$(${this.p()})`, `\`${this.p()}\``, '1', '$x', 'x', `$(${this.p()} x)`]);
    const q = r.pick(["'", '"', '']);
    const name = `a[${sub}]`;
    const quoted = q === '' ? name.replace(/\$\(/g, '\\$(').replace(/`/g, '\\`') : q === '"' ? `"${name.replace(/\$/g, '\\$').replace(/`/g, '\\`')}"` : `'${name}'`;
    return r.weighted([
      [1, () => `${name}=1`],
      [1, () => `declare ${quoted}=1`],
      [1, () => `[ -v ${quoted} ]`],
      [1, () => `test -v ${quoted}`],
      [1, () => `[[ -v ${quoted} ]]`],
      [1, () => `printf -v ${quoted} %s x`],
      [1, () => `printf -v${quoted} x`],
      [1, () => `read ${quoted} <<< x`],
      [1, () => `read -a ${quoted} < /dev/null`],
      [1, () => `mapfile ${quoted} < /dev/null`],
      [1, () => `unset ${quoted}`],
      [1, () => `x=${sq(name)}; echo \${!x}`],
      [1, () => `echo \${a[${sub}]}`],
      [1, () => `echo "\${a[${sub}]}"`],
      [1, () => `echo \${#a[${sub}]}`],
      [1, () => `${this.p()} x[ ; ${this.payload()}`],
      [1, () => `${this.p()} x[ && ${this.payload()}`],
      [1, () => `${this.p()} x[y ( ${this.payload()} )`],
      [1, () => `${this.p()} a[${r.pick([' ', ';', '|', '&', '<', '>'])}${this.payload()}]`],
      [1, () => `getopts ab ${quoted}`],
      [1, () => `wait -p ${quoted}`],
      [1, () => `local ${quoted}=1`],
      [1, () => `(( a[${sub}] ))`],
      [1, () => `echo $(( a[${sub}] ))`],
      [1, () => `[[ a[${sub}] -eq 1 ]]`],
    ]);
  }

  heredoc(d: number): string {
    const r = this.r;
    const [open, close] = r.pick<[string, string]>([
      ['E', 'E'], ["'E'", 'E'], ['"E"', 'E'], ['\\E', 'E'], ["$'E'", 'E'], ['$"E"', 'E'], ["$'E'", '$E'], ['$"E"', '$E'], ["E''", 'E'], ['E""', 'E'],
      ['-E', '-E'], ['E.x', 'E.x'], ["'E F'", 'E F'], ['"$x"', '$x'], ['$x', '$x'], ["'E'\"F\"", 'EF'], ["$'E\\x46'", 'EF'], ['E\\F', 'EF'], ['E', 'E '],
      ['E', ' E'], ['E', ''], ['EOF', 'EOF'], ["'EOF'", 'EOF'],
    ]);
    const dash = r.chance(0.2) ? '-' : '';
    const lines: string[] = [];
    for (let i = r.int(3); i >= 0; i--) {
      lines.push(
        r.pick([
          'a b; c', `$(${this.p()})`, `\`${this.p()}\``, '$x', '${x@P}', 'E', '$E', 'EOF', '\tE', `${this.payload()}`, '\\$(ls)', `a $(${this.p()} #)`, '$\\\n(ls)',
          "'", '"', `)`, `${open}`,
        ]),
      );
    }
    const cmd = r.pick(['cat', 'bash', 'sh', 'grep x', 'wc -l', 'read x', 'eval "$(cat)"', ': ', this.p()]);
    const body = lines.join('\n');
    const tail = close === '' ? '' : `\n${dash && r.chance(0.5) ? '\t' : ''}${close}`;
    const after = r.chance(0.5) ? `\n${this.payload()}` : '';
    return `${cmd} <<${dash}${open}${r.chance(0.2) ? ` ${this.redirect().trim()}` : ''}${r.chance(0.2) ? ` && ${this.payload()}` : ''}\n${body}${tail}${after}${d > 0 && r.chance(0.1) ? `\n${this.heredoc(0)}` : ''}`;
  }

  hash(): string {
    const r = this.r;
    const p = this.p();
    const q = this.p();
    return r.pick([
      `echo $(${p} # ) ${q} x\n)`,
      `echo $(${p} #) ; ${q}\n)`,
      `echo $(echo a#b; ${p})`,
      `echo $(${p} a#b)`,
      `${p} <(${q})#x`,
      `${p} <(${q}) #x`,
      `${p} >(${q})#x; ${q}`,
      `echo x #$(${p})`,
      `echo a#$(${p})`,
      `echo \`${p} # x\``,
      `echo \`${p} # \` ; ${q}\``,
      `echo $( # c\n${p})`,
      `echo $(\n# ) ${q}\n${p})`,
      `echo "$(${p} # )" ${q}\n)"`,
      `echo $(${p} '#' x)`,
      `echo $(case x in x) ${p};; esac # ) ${q}\n)`,
      `x=$(${p} #)\n${q}`,
      `${p} $(#)\n${q})`,
      `${p} # $(${q})`,
      `${p} x#\n${q}`,
      `echo \${x#a} $(${p})`,
      `echo $#$(${p})`,
      `echo $(${p} \\# ) ${q}`,
      `echo $(echo "#" ) ${q}`,
      `: $((1 # 2)) ; ${q}`,
      `echo $({ ${p}; } # ) ${q}\n)`,
    ]);
  }

  param(): string {
    const r = this.r;
    const v = r.pick([`'$(${this.p()})'`, `'\`${this.p()}\`'`, `'a[$(${this.p()})]'`, "'x'", "'\\u\\w'", '(1 2)', '', "'{'"]);
    const x = r.pick(['x', 'a', '1', '@', '*', 'a[1]', 'a[@]', 'HOME', '#', '?']);
    const form = r.pick([
      `\${${x}}`, `\${${x}:-w}`, `\${${x}-w}`, `\${${x}:=w}`, `\${${x}=w}`, `\${${x}:?e}`, `\${${x}:+w}`, `\${${x}+w}`, `\${#${x}}`, `\${${x}:0:1}`, `\${${x}:1}`,
      `\${${x}#a}`, `\${${x}##*}`, `\${${x}%a}`, `\${${x}%%a}`, `\${${x}/a/b}`, `\${${x}//a/b}`, `\${${x}/#a/b}`, `\${${x}/%a/b}`, `\${${x}^}`, `\${${x}^^}`,
      `\${${x},}`, `\${${x},,}`, `\${${x}~}`, `\${${x}@P}`, `\${${x}@Q}`, `\${${x}@E}`, `\${${x}@A}`, `\${${x}@a}`, `\${${x}@U}`, `\${${x}@u}`, `\${${x}@L}`,
      `\${${x}@K}`, `\${${x}@k}`, `\${!${x}}`, `\${!${x}*}`, `\${!${x}@}`, `\${!a[@]}`, `\${${x}:-$(${this.p()})}`, `\${${x}-\`${this.p()}\`}`,
      `\${${x}:-{}}`, `\${${x}/\\{/}`, `\${${x}/{/}`, `\${${x}:-\${y:-{}}}`, `\${${x}:-'}'}`, `\${${x}:-"}"}`, `\${${x}:-\\}}`, `\${x:-a b}`, `"\${x:-a b}"`,
      `\${x:-\${y}}`, `\${x/\${y}/z}`, `\${x:-$((1))}`, `\${x:=$(${this.p()})}`, `\${x?}`, `\${(e)x}`, `\${(P)x}`, `\${~x}`, `\${=x}`, `\${^x}`, `\${+x}`,
    ]);
    return r.chance(0.7) ? `x=${v}; ${this.p()} ${form}` : `${this.p()} ${form}`;
  }

  dollarQuote(): string {
    const r = this.r;
    const inner = r.pick(['a\\0b', '--outp\\0', 'a\\x00b', 'a\\c@b', 'a\\u0000b', 'a\\000b', '\\x6c\\x73', 'a\\tb', 'a\\nb', '\\e', '\\cA', '\\u0041', '\\x41', "it\\'s", 'a\\\\b', '\\"', '\\?', '\\101', 'a b', '\\x', '\\777', '\\U0001F600', '\\x2d\\x2doutput=o']);
    const raw = r.pick(['\x01', '\x7f', '\r', '\t', '\v', '\f', '\x1b', '\x00', '\u00a0', '\u200b', '\x08', '\x1f']);
    return r.weighted([
      [4, () => `${this.p()} $'${inner}'${r.chance(0.3) ? 'ut=o' : ''}`],
      [1, () => `$'${inner}' x`],
      [1, () => `${this.p()} $"${r.pick(['a', 'a b', '$x', '\\$(ls)'])}"`],
      [1, () => `${this.p()} a${raw}b`],
      [1, () => `${this.p()} '${raw}'`],
      [1, () => `${this.p()} "a${raw}b"`],
      [1, () => `${this.p()}${raw} x`],
      [1, () => `${this.p()} x${raw}; ${this.p()}`],
      [1, () => `${this.p()} $'a' '$' "$'b'" \\'`],
      [1, () => `grep 'a$' f; ${this.p()} $'x'`],
      [1, () => `${this.p()} $'\\'' ; ${this.p()} '`],
    ]);
  }

  brace(): string {
    const r = this.r;
    const p = this.p();
    return r.pick([`${p} {a,b}`, `{${p},x}`, `${p} {1..3}`, `${p} a{b,c}d`, `${p} {a,{b,c}}`, `echo {$(${p}),x}`, `${p} {a..c..2}`, `${p} {,-rf}`, `${p} '{a,b}'`, `${p} {a}`, `${p} {}`, `${p} {a,b`, `${p} \\{a,b}`, `{ ${p}; }`, `{${p}}`, `${p} {-l,-a}`, `${p} {$x,y}`]);
  }

  glob(): string {
    const r = this.r;
    const p = this.p();
    const pre = r.chance(0.5) ? ': > a; ' : '';
    return `${pre}${r.pick([`${p} *`, `${p} ?`, `${p} [ab]`, `${p} *.txt`, `${p} **/x`, `${p} @(a|b)`, `shopt -s extglob; ${p} @(a|b)`, `${p} !(x)`, `${p} +(a)`, `${p} [!a]`, `${p} [[:alpha:]]`, `*`, `a*`, `${p} \\*`, `${p} "*"`, `${p} [a-`, `${p} x]`, `set -f; ${p} *`, `shopt -s nullglob; ${p} *.none`, `${p} ~/*`])}`;
  }

  zsh(): string {
    const r = this.r;
    const p = this.p();
    const q = this.p();
    return r.pick([
      `: > a; ${p} *(e:${sq(q)}:)`, `: > a; ${p} *(e:'${q} x':)`, `: > a; ${p} *(+${q})`, `: > a; ${p} *(N)`, `: > a; ${p} *(.)`, `${p} *(e:${q}:)`,
      `=${p} x`, `${p} =${q}`, `repeat 2 ${p}`, `repeat 1 ${q} x`, `noglob ${p} *`, `nocorrect ${p}`, `- ${p}`, `x='$(${q})'; ${p} \${(e)x}`,
      `x='$(${q})'; ${p} \${(e)\${x}}`, `functions[${p}]='${q} x'; ${p}`, `functions+=([${p}]=${q}); ${p}`, `commands[${p}]=~/${q}; ${p}`, `aliases[${p}]=${q}; ${p}`,
      `${p} =(${q})`, `x=(a b); ${p} $x[1]`, `${p} $x:h`, `${p} \${x:e}`, `${p} \${~x}`, `${p} $=x`, `setopt shwordsplit; ${p} $x`, `emulate sh -c ${sq(q)}`,
      `autoload -U ${p}`, `zmodload zsh/files`, `foreach x (a b) ${p}; end`, `${p} <<< x`, `${p} &| ${q}`, `${p} |& ${q}`, `${p} >&! f`, `${p} >! f`,
      `${p} 2>&1 >>| f`, `sched +1 ${p}`, `${p} ^x`, `${p} x~y`, `${p} <1-3>`, `: > a; ${p} (a|b)`, `${p} **/*(.)`,
    ]);
  }

  redirect(): string {
    const r = this.r;
    return ` ${r.pick([
      '> o', '>> o', '2> e', '&> o', '>| o', '<> o', '>& o', '1>&2', '2>&1', '> /dev/null', '2>/dev/null', '< f', '<<< x', '3> o', '{fd}> o', '> "$x"',
      "> 'a b'", '> $x', '> o$x', '> o*', '>o1 >o2', '> "o"', "> $'o\\0p'", '>\\o', '>o;x', "> o'x'", '>&2', '0<&-', '>&-', '&>> o',
      '9> o', '> -', '>> ./o', '> o\\ p',
    ])}`;
  }

  compound(d: number): string {
    const r = this.r;
    const s = () => this.script(Math.max(0, d - 1));
    const fname = r.pick(['f', 'g', 'ls', 'grep']);
    return r.weighted([
      [2, () => `{ ${s()}; }`],
      [2, () => `( ${s()} )`],
      [2, () => `if ${s()}; then ${s()}; ${r.chance(0.5) ? `else ${s()}; ` : ''}fi`],
      [2, () => `for x in ${this.word(0)} ${this.word(0)}; do ${s()}; done`],
      [1, () => `for x; do ${s()}; done`],
      [2, () => `case ${this.word(0)} in a|b) ${s()};; *) ${s()};; esac`],
      [1, () => `case x in (x) ${s()};& y) ${s()};; esac`],
      [1, () => `while false; do ${s()}; done`],
      [1, () => `until :; do ${s()}; done`],
      [2, () => `${fname}() { ${this.payloadExcept(fname)}; }; ${fname}`],
      [1, () => `function ${fname} { ${this.payloadExcept(fname)}; }; ${fname} x`],
      [1, () => `${fname}() ( ${this.payloadExcept(fname)} ); ${fname}`],
      [2, () => `[[ ${this.word(0)} ${r.pick(['==', '!=', '=~', '<', '>', '-eq', '&&', '||'])} ${this.word(0)} ]]`],
      [1, () => `[[ -f ${this.word(0)} ]] && ${this.payload()}`],
      [1, () => `(( ${r.pick(['1 + 2', 'x', 'x = 1', 'a[$(ls)]', '1'])} ))`],
      [1, () => `${this.payload()} | { ${s()}; }`],
      [1, () => `${this.payload()} && { ${s()}; } || ${this.payload()}`],
      [1, () => `select x in a; do ${s()}; done`],
      [1, () => `coproc ${this.payload()}`],
      [1, () => `{ ${s()}; } ${this.redirect().trim()}`],
    ]);
  }

  private payloadExcept(name: string): string {
    let p = this.payload();
    for (let i = 0; i < 5 && p.split(' ')[0] === name; i++) p = this.payload();
    return p.split(' ')[0] === name ? ':' : p;
  }

  builtinRuns(d: number): string {
    const r = this.r;
    const s = this.script(Math.max(0, d - 1));
    return r.weighted([
      [3, () => `eval ${r.pick([sq(s), `"${s.replace(/["\\$`]/g, '\\$&')}"`, '"$x"', sq(this.payload()) + ' ' + sq(this.payload()), `-- ${sq(this.payload())}`, this.payload()])}`],
      [1, () => `x=${sq(this.payload())}; eval "$x"`],
      [1, () => `${r.pick(['source', '.'])} ${r.pick(['f', './f', 'nonexistent', '/dev/null', '<(echo ls)'])}`],
      [1, () => `echo ${sq(this.payload())} > s; ${r.pick(['source', '.'])} ./s`],
      [1, () => `trap ${sq(this.payload())} ${r.pick(['EXIT', 'ERR', 'DEBUG', 'RETURN', '0', 'INT'])}`],
      [1, () => `alias x=${sq(this.payload())}; x`],
      [1, () => `shopt -s expand_aliases; alias x=${sq(this.payload())}\nx`],
      [1, () => `hash -p ~/${this.p()} ${this.p()}; ${this.payload()}`],
      [1, () => `hash ${this.p()}; ${this.payload()}`],
      [1, () => `enable -n ${r.pick(['echo', 'printf', 'test', 'true'])}; ${r.pick(['echo', 'printf', 'test', 'true'])} x`],
      [1, () => `command_not_found_handle() { ${this.payload()}; }; nosuch`],
      [1, () => `set -- ${sq(this.payload())}; eval "$1"`],
      [1, () => `printf -v x %s ${sq(this.payload())}; eval "$x"`],
      [1, () => `read -r x <<< ${sq(this.payload())}; $x`],
      [1, () => `mapfile -C ${this.p()} -c 1 a <<< x`],
      [1, () => `exec ${this.payload()}`],
      [1, () => `command ${this.payload()}`],
      [1, () => `builtin eval ${sq(this.payload())}`],
      [1, () => `type ${this.p()}`],
      [1, () => `let ${r.pick(['x=1', "'a[$(ls)]'", 'x++'])}`],
      [1, () => `fc -l`],
      [1, () => `history -w h`],
      [1, () => `wait; ${this.payload()} & wait`],
    ]);
  }
}
