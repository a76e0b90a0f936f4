import { describe, expect, it } from 'vitest';
import { capabilitiesOf, CONFIG_FILES, sedScriptReadsOnly } from '../src/capabilities.ts';
import { compileCommandRules, judge, type CommandRules } from '../src/judge.ts';

function compiled(rules: CommandRules) {
  const r = compileCommandRules(rules);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.rules;
}
const decide = (text: string, rules: ReturnType<typeof compiled>) => judge(rules, text).decision;

/** Programs that only read, allowed with any arguments (the starters' rule). */
const READ = compiled({
  allow: [
    { command: [['ls', 'cat', 'grep', 'rg', 'find', 'fd', 'tree', 'sort', 'uniq', 'sed', 'awk', 'echo', 'history', 'less', 'xxd', 'tar']] },
    { command: ['git', ['status', 'diff', 'log', 'show', 'branch', 'tag', 'config', 'remote']] },
    { command: ['git', 'stash', 'list'] },
  ],
});

describe('an allow of a program never covers what the capability table marks', () => {
  it.each([
    'git log --output=x',
    'git log --out=x', // a GNU-style abbreviation of --output
    'git diff --ext-diff',
    'git show --textconv HEAD:x',
    'git -c core.pager=sh log',
    'git -C /tmp/other status',
    'git --git-dir=/tmp/x/.git log',
    'git branch -D main',
    'git branch new-branch',
    'git branch --edit-description',
    'git tag v1',
    'git tag -d v1',
    'git config core.fsmonitor "sh -c id"',
    'git remote add evil https://x.example',
    'git stash',
    'git stash drop',
    'rg --pre sh x',
    'rg --pre=sh x',
    'rg --hostname-bin=/tmp/x x',
    'rg -z x',
    'rg -iz x',
    'find . -delete',
    'find . -fprint /tmp/x',
    'find . -exec grep x {} +',
    'fd -x rm',
    'tree -o out.txt',
    'tree -Io x',
    'tree -aIo x',
    'sort -o out x',
    'sort -uo out x',
    'sort --compress-program=sh x',
    'sort --output=x y',
    'sort --outp=x y',
    "sed -i 's/a/b/' f",
    "sed 's/a/b/e' f",
    "sed '1e id' f",
    "sed 's/a/b/w /tmp/x' f",
    "sed -n 'w /tmp/x' f",
    'sed -f script.sed f',
    "awk 'BEGIN{system(\"id\")}'",
    "awk '{print > \"/tmp/x\"}' f",
    "awk '{print | \"sh\"}' f",
    'awk -f prog.awk f',
    "gawk -p '{print}' f", // writes awkprof.out
    "awk -d/tmp/x '{print}' f",
    'history -w /tmp/x',
    'history -a',
    'less -o log.txt f',
    "less '+!id' f",
    'uniq in out',
    'xxd -r in out',
    'tar -xf a.tar',
    'tar xf a.tar',
    'tar --to-command=sh -tf a.tar',
    'tar -tf a.tar -I sh',
    'tar --use-compress=sh -tf a.tar', // an abbreviation of --use-compress-program
    'rg $opt x', // a word that is not static may be any marked option
  ])('%j is not allowed', (text) => {
    expect(decide(text, READ)).not.toBe('allow');
  });

  it.each([
    'git log --oneline -5',
    'git diff --stat HEAD~1',
    'git branch',
    'git branch -a --contains HEAD',
    'git branch --list "feat/*"',
    'git tag -l',
    'git config --get user.name',
    'git config user.name',
    'git config --list',
    'git remote -v',
    'git stash list',
    'rg -n TODO src',
    'rg -tz foo', // -t takes `z` as its value
    'find . -name "*.ts" -type f',
    'fd -e ts',
    'fd -tx', // -t takes `x`: executables, not -x
    'tree -L 2 -I node_modules',
    'sort -t, -k2 -n f',
    'sort -to f', // -t takes `o` as its value
    'uniq -c f',
    "sed -n '1,5p' f",
    "sed 's/a/b/g; /x/d' f",
    "sed -e 's|a|b|' -e '3q' f",
    "awk '{print $1}' f",
    'history',
    'less f',
    'xxd f',
    'tar -tzf a.tgz',
  ])('%j is allowed', (text) => {
    expect(decide(text, READ)).toBe('allow');
  });

  it('says which capability stopped the allow', () => {
    const j = judge(READ, 'tree -Io x');
    expect(j.decision).toBe(null);
    expect(j.reason).toBe('`tree -Io x` can write a file (`-o`: writes its output to a file), which no allow rule that matches it names');
  });
});

describe('a rule names a capability', () => {
  it('by a further word, at the subcommand\'s place, or the argument as written', () => {
    const rules = compiled({ allow: [{ command: ['sort', '-o'] }, { command: ['git', 'remote', 'add'] }, { command: ['git', ['add', 'show']] }, { command: ['tar', '-xzf'] }] });
    expect(decide('sort -o out x', rules)).toBe('allow');
    expect(decide('git remote add o https://x.example', rules)).toBe('allow');
    // `show` at the subcommand's place does not name `git remote show`'s network access, nor `add` a `git stash add`.
    expect(decide('tar -xzf a.tgz', rules)).toBe('allow');
    expect(decide('tar -xf a.tgz', rules)).toBe(null);
  });
  it('by spelling the option in `args`, not by a pattern that merely matches it', () => {
    const named = compiled({ allow: [{ command: ['git', 'diff'], args: '--output=[^ ]+' }] });
    expect(decide('git diff --output=patch.diff', named)).toBe('allow');
    const loose = compiled({ allow: [{ command: ['git', 'diff'], args: '.*' }, { command: ['tree'], args: '((-[a-zA-Z]+|-I ?[^ ]+|[^-][^ ]*)( |$))*' }] });
    expect(decide('git diff --output=patch.diff', loose)).toBe(null);
    expect(decide('tree -Io x', loose)).toBe(null);
    expect(decide('tree -I x', loose)).toBe('allow');
  });
  it('never for a wrapper\'s own capability or a privilege', () => {
    const rules = compiled({ allow: [{ command: ['ls'] }, { command: ['time'] }, { command: ['sudo'] }] });
    expect(decide('time -o /tmp/x ls', rules)).not.toBe('allow');
    expect(decide('sudo ls', rules)).toBe(null);
    expect(decide('env sudo ls', rules)).toBe(null);
  });
});

describe('run-time words (invariant 2)', () => {
  const rules = compiled({
    allow: [{ command: [['echo', 'ls', 'xargs', 'rg', 'grep', 'wc']] }, { command: ['find'], args: '(?s)(.* )?-exec( .*)?' }, { command: ['git', 'log'], args: '(--oneline|-[0-9]+)( (--oneline|-[0-9]+))*' }],
    deny: [{ command: ['find'], args: '(.* )?-delete( .*)?' }, { command: ['git'], args: '(?s)(.* )?--output(=.*| .*)?' }],
  });
  it('a deny of a program matches it behind xargs, whatever it is given', () => {
    expect(decide('echo -delete | xargs find .', rules)).toBe('deny');
    expect(decide('ls | xargs git log', rules)).toBe('deny');
  });
  it('an allow that constrains arguments does not hold behind xargs', () => {
    expect(decide('git log --oneline', rules)).toBe('allow');
    expect(decide('echo x | xargs git log --oneline', rules)).not.toBe('allow');
    expect(decide('ls | xargs rg', rules)).toBe(null); // what it reads may be `--pre`
    expect(decide('ls | xargs grep x', rules)).toBe('allow'); // grep has no such option
  });
  it('`{}` pasted into a script is unknown; a command run by find is judged with `{}` unknown', () => {
    expect(judge(rules, "find . -exec sh -c 'echo {}' \\;").reason).toBe('`sh` runs a script that is not static: the command cannot be judged');
    expect(judge(rules, 'ls | xargs -I{} sh -c "echo {}"').decision).toBe('deny');
    expect(decide('find . -name x -exec wc -l {} +', rules)).toBe('allow');
    expect(decide('find . -exec rg x {} +', rules)).toBe(null);
  });
  it('parallel is unknown', () => {
    expect(decide('ls | parallel echo', rules)).toBe('deny');
  });
});

describe('the environment as an allow list (invariant 3)', () => {
  const rules = compiled({ allow: [{ command: [['ls', 'git', 'rg', 'make', 'export', 'read']] }], unknown: 'deny' });
  it.each(['GIT_TEST_FSMONITOR=./x git status', 'GIT_TRACE=/tmp/x git status', 'GIT_COMMON_DIR=/tmp/x git status', 'RIPGREP_CONFIG_PATH=/tmp/x rg foo', 'BASH_CMDS[ls]=/bin/sh; ls -c x', 'functions[ls]=x; ls', 'commands[ls]=/bin/sh; ls', 'FOO=1 ls', 'export FOO=1; ls', 'typeset -x FOO=1; ls', 'env FOO=1 ls', 'HOME=/tmp/x; git log', 'NODE_OPTIONS=--require=x make', 'set -a; x=1; ls'])(
    '%j is unknown',
    (text) => {
      expect(decide(text, rules)).toBe('deny');
      expect(judge(rules, text).unknown).toBeDefined();
    },
  );
  it.each(['LANG=C ls', 'LC_ALL=C TZ=UTC git log', 'NO_COLOR=1 CI=true ls', 'env TERM=dumb ls', 'export LANG=C; ls', 'x=1; ls', 'ls | while read -r line; do ls; done'])('%j is allowed', (text) => {
    expect(decide(text, rules)).toBe('allow');
  });
  it('the policy names harmless variables, but never a shell\'s or a program\'s own', () => {
    const named = compiled({ allow: [{ command: ['ls'] }], environment: ['FOO'] });
    expect(decide('FOO=1 ls', named)).toBe('allow');
    expect(decide('BAR=1 ls', named)).toBe('deny');
    for (const name of ['PATH', 'GIT_DIR', 'BASH_ENV', 'NODE_OPTIONS', 'RIPGREP_CONFIG_PATH', 'LD_PRELOAD', 'functions']) {
      const r = compileCommandRules({ allow: [{ command: ['ls'] }], environment: [name] });
      expect(r.ok).toBe(false);
    }
  });
});

describe('the table', () => {
  it('reads sed scripts conservatively', () => {
    expect(sedScriptReadsOnly('1,5p')).toBe(true);
    expect(sedScriptReadsOnly('s/a/b/g')).toBe(true);
    expect(sedScriptReadsOnly('s/a/b/w x')).toBe(false);
    expect(sedScriptReadsOnly('s/a/b/e')).toBe(false);
    expect(sedScriptReadsOnly('e id')).toBe(false);
    expect(sedScriptReadsOnly('r /etc/passwd')).toBe(false);
  });
  it('marks git subcommands by their place', () => {
    expect(capabilitiesOf('git', ['push']).map((c) => c.kind)).toEqual(['network', 'writes']);
    expect(capabilitiesOf('/usr/bin/GIT', ['status'])).toEqual([]);
  });
  it('names the configuration files that make programs run code', () => {
    for (const f of ['.git/config', '.gitattributes', '.npmrc', '$RIPGREP_CONFIG_PATH', '.cargo/config.toml']) expect(CONFIG_FILES).toContain(f);
  });
});
