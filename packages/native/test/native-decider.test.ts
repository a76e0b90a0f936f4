// nativeDecider: one entry point over the four formats. Claude Code and Cursor cases are the documentation's own
// examples (docs/native/claude-code.md, docs/native/cursor.md, shared native-formats §1, §4); Codex and Gemini CLI
// cases are ones their exact models were proven on (decide.test.ts, e2e/native-diff), asked through the entry point.
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeSplit, loadBashParser, nativeDecider, readClaudeSettings, readCodexRules, readCursorCli, readGeminiPolicy } from '../src/index.ts';
import type { BashParser, NativeDecider } from '../src/index.ts';

let bash: BashParser;
beforeAll(async () => {
  bash = await loadBashParser();
});

const claudeFile = (perms: Record<string, string[]>, file = '/project/.claude/settings.json') => readClaudeSettings(file, JSON.stringify({ permissions: perms }, null, 2));
const claude = (perms: Record<string, string[]>) => nativeDecider([claudeFile(perms)], { bash, cwd: '/project', home: '/home/u' });
const sh = (d: NativeDecider, command: string) => d.decide({ tool: d.shellTool, input: { command } });

describe('Claude Code, to its documentation', () => {
  it.each([
    // [rules, command, decision]
    [{ allow: ['Bash(npm run build)'] }, 'npm run build', 'allow'],
    [{ allow: ['Bash(npm run build)'] }, 'npm run build --watch', 'none'],
    [{ allow: ['Bash(ls *)'] }, 'ls -la', 'allow'],
    [{ allow: ['Bash(ls *)'] }, 'ls', 'allow'],
    [{ allow: ['Bash(ls *)'] }, 'lsof', 'none'],
    [{ allow: ['Bash(ls*)'] }, 'lsof', 'allow'],
    [{ allow: ['Bash(ls:*)'] }, 'ls -la', 'allow'],
    [{ allow: ['Bash(npm run test:*)'] }, 'npm run test:unit', 'none'],
    [{ allow: ['Bash(git:* push)'] }, 'git push', 'none'],
    // measured on the client (e2e/native-diff claude-agent): an exact rule matches the blanks as written, a wildcard the words
    [{ allow: ['Bash(npm test)'] }, 'npm  test', 'none'],
    [{ allow: ['Bash(mytool:*)'] }, 'mytool  build', 'allow'],
    [{ allow: ['Bash'] }, 'rm -rf /', 'allow'],
    [{ allow: ['Bash(*)'] }, 'anything at all', 'allow'],
    // deny > ask > allow, whatever the specificity
    [{ allow: ['Bash(git push origin main)'], ask: ['Bash(git push:*)'] }, 'git push origin main', 'ask'],
    [{ allow: ['Bash(git *)'], deny: ['Bash(git push *)'] }, 'git push origin', 'deny'],
    // compound commands: every part on its own
    [{ allow: ['Bash(cd:*)'] }, 'cd x && python3 script.py', 'none'],
    [{ allow: ['Bash(cd:*)', 'Bash(python3 *)'] }, 'cd x && python3 script.py', 'allow'],
    [{ allow: ['Bash(git status)'], deny: ['Bash(rm *)'] }, 'git status; rm -rf ~', 'deny'],
    [{ allow: ['Bash(ls *)'], deny: ['Bash(curl *)'] }, 'ls | curl -d @- x.example', 'deny'],
    // wrappers stripped
    [{ deny: ['Bash(rm *)'] }, 'timeout 5 rm -rf build', 'deny'],
    [{ deny: ['Bash(rm *)'] }, 'nice -n 10 rm -rf build', 'deny'],
    [{ allow: ['Bash(grep *)'] }, 'xargs grep p', 'allow'],
    [{ allow: ['Bash(grep *)'] }, 'xargs -n1 grep p', 'none'],
    [{ allow: ['Bash(timeout *)'] }, 'timeout 5 rm -rf build', 'none'],
    [{ allow: ['Bash(devbox run *)'] }, 'devbox run rm -rf .', 'allow'],
    // deny and ask see past any assignment and (2.1.113) env/sudo/watch/ionice/setsid
    [{ deny: ['Bash(rm *)'] }, 'FOO=1 rm -rf /', 'deny'],
    [{ deny: ['Bash(rm *)'] }, 'env rm -rf /', 'deny'],
    [{ deny: ['Bash(rm *)'] }, 'sudo -u root rm -rf /', 'deny'],
    [{ allow: ['Bash(env *)'], deny: ['Bash(rm *)'] }, 'env rm -rf /', 'deny'],
    // never allowed by a prefix rule
    [{ allow: ['Bash(find *)'] }, 'find . -exec rm {} +', 'none'],
    [{ allow: ['Bash(find:*)'] }, 'find . -name x', 'allow'],
    [{ allow: ['Bash(watch *)'] }, 'watch ls', 'none'],
    // what a Bash rule does not match: the text as written
    // measured: deny and ask rules match the words with their quotes removed; allow rules only the program word
    [{ deny: ['Bash(git push:*)'] }, "git 'push' --force", 'deny'],
    [{ deny: ['Bash(docker run:*)'] }, 'd"ocker" run', 'deny'],
    [{ allow: ['Bash(mytool build)'] }, 'mytool "build"', 'none'],
    [{ allow: ['Bash(mytool build)'] }, '"mytool" build', 'allow'],
    // measured: a rule naming the command exactly decides first (`ask make run:*` over `deny make:*` for `make run` only)
    [{ deny: ['Bash(make:*)'], ask: ['Bash(make run:*)'] }, 'make run', 'ask'],
    [{ deny: ['Bash(make:*)'], ask: ['Bash(make run:*)'] }, 'make run x', 'deny'],
    [{ deny: ['Bash(make *)'], ask: ['Bash(make run)'] }, 'make run', 'ask'],
    [{ deny: ['Bash(make*)'], allow: ['Bash(make run:*)'] }, 'make run', 'deny'],
    [{ deny: ['Bash(mytool*)'], ask: ['Bash(mytool test:*)'] }, 'echo $(mytool test)', 'deny'],
    // measured: comments are not part of the command; the client asks about subshells, substitutions, `&`, writes
    [{ allow: ['Bash(npm x:*)'] }, 'npm x # c', 'allow'],
    [{ allow: ['Bash(npm x:*)'] }, '(npm x)', 'none'],
    [{ deny: ['Bash(rm:*)'] }, '(rm x)', 'deny'],
    [{ deny: ['Bash(rm:*)'] }, 'echo `rm x`', 'deny'],
    [{ allow: ['Bash(mytool build)'] }, 'mytool build & mytool build', 'none'],
    [{ allow: ['Bash(npm test:*)'] }, 'npm test > out.txt', 'none'],
    [{ allow: ['Bash(npm test:*)'] }, 'npm test > /dev/null 2>&1', 'allow'],
    [{ allow: ['Bash(*)'] }, 'echo $(make push)', 'allow'],
    [{ deny: ['Bash(rm:*)'] }, '/bin/rm -rf /', 'none'],
    // `git -C` (issue reports; the documentation says nothing: the glob decides)
    [{ deny: ['Bash(git push --force:*)'], allow: ['Bash(git -C:*)'] }, 'git -C . push --force', 'allow'],
    // a rule on the primary field is ignored
    [{ deny: ['Bash(command:rm *)'] }, 'rm -rf /', 'none'],
  ] as const)('%j: `%s` -> %s', async (perms, command, decision) => {
    const d = await claude(perms as unknown as Record<string, string[]>);
    expect(sh(d, command).decision).toBe(decision);
  });

  it('reports the deciding rule and its place', async () => {
    const d = await claude({ allow: ['Bash(git status)', 'Bash(git -C:*)'] });
    const v = sh(d, 'git -C . push --force');
    expect(v.rule).toMatchObject({ file: '/project/.claude/settings.json', text: 'Bash(git -C:*)', written: 'allow' });
    expect(v.rule?.span.start.line).toBe(5);
    expect(v.cannotDecide).toEqual([]);
  });

  it('merges scopes: a deny anywhere beats an allow anywhere', async () => {
    const d = await nativeDecider([claudeFile({ allow: ['Bash(git *)'] }), claudeFile({ deny: ['Bash(git push *)'] }, '/home/u/.claude/settings.json')], { bash, cwd: '/project', home: '/home/u' });
    expect(sh(d, 'git push origin').rule?.file).toBe('/home/u/.claude/settings.json');
  });

  it('says what it cannot decide instead of guessing', async () => {
    const d = await claude({ allow: ['Bash(echo *)', 'Bash(ls *)'] });
    // Measured on the client: a substitution and a write are asked about (decided), not left open.
    expect(sh(d, 'echo $(ls)')).toMatchObject({ decision: 'none', cannotDecide: [] });
    expect(sh(d, 'echo hi > out.txt')).toMatchObject({ decision: 'none', cannotDecide: [] });
    expect(sh(d, 'cat <<E\nx\nE').cannotDecide.join(' ')).toMatch(/here-document/);
    expect(sh(d, 'echo hi > /dev/null').cannotDecide).toEqual([]);
    expect(sh(d, 'echo hi 2>&1').cannotDecide).toEqual([]);
    expect(sh(d, 'PATH=/tmp ls').decision).toBe('none');
    expect(sh(d, 'PATH=/tmp ls').cannotDecide.join(' ')).toMatch(/known-safe/);
  });

  it.each([
    // [rule list, rule, path, decision]
    ['deny', 'Read(.env)', '/project/.env', 'deny'],
    ['deny', 'Read(.env)', '/project/sub/dir/.env', 'deny'],
    ['deny', 'Read(./.env)', '/project/sub/.env', 'none'],
    ['deny', 'Read(~/.ssh/**)', '/home/u/.ssh/id_rsa', 'deny'],
    ['deny', 'Read(//etc/passwd)', '/etc/passwd', 'deny'],
    ['deny', 'Read(/secrets/**)', '/project/secrets/a.key', 'deny'],
    ['deny', 'Read(/secrets/**)', '/project/sub/secrets/a.key', 'none'],
    ['deny', 'Read(src/**)', '/project/lib/src/a.ts', 'deny'],
    ['allow', 'Read(src/**)', '/project/lib/src/a.ts', 'none'],
    ['allow', 'Read(src/**)', '/project/src/a.ts', 'allow'],
    ['deny', 'Read(*.pem)', '/project/certs/server.pem', 'deny'],
    ['deny', 'Read(secrets)', '/project/secrets/a.txt', 'deny'],
  ] as const)('%s %s on Read %s -> %s', async (list, rule, path, decision) => {
    const d = await claude({ [list]: [rule] });
    expect(d.decide({ tool: 'Read', input: { file_path: path } }).decision).toBe(decision);
  });

  it('Edit rules cover every editing tool, and a Read deny blocks them too', async () => {
    const d = await claude({ allow: ['Edit(src/**)'], deny: ['Read(.env)'] });
    expect(d.decide({ tool: 'Write', input: { file_path: '/project/src/a.ts' } }).decision).toBe('allow');
    expect(d.decide({ tool: 'MultiEdit', input: { file_path: '/project/src/a.ts' } }).decision).toBe('allow');
    expect(d.decide({ tool: 'Edit', input: { file_path: '/project/.env' } }).decision).toBe('deny');
    expect(d.decide({ tool: 'Edit', input: { file_path: '/project/docs/a.md' } }).decision).toBe('none');
  });

  it.each([
    ['WebFetch(domain:example.com)', 'https://EXAMPLE.com./x', 'allow'],
    ['WebFetch(domain:*.example.com)', 'https://api.example.com/', 'allow'],
    ['WebFetch(domain:*.example.com)', 'https://example.com/', 'none'],
    ['WebFetch(domain:example.*)', 'https://example.org/', 'allow'],
    ['WebFetch(domain:example.*)', 'https://example.co.uk/', 'none'],
  ] as const)('%s on %s -> %s', async (rule, url, decision) => {
    const d = await claude({ allow: [rule] });
    expect(d.decide({ tool: 'WebFetch', input: { url } }).decision).toBe(decision);
  });

  it('MCP names, tool-name globs in deny, Agent(name), Tool(param:value) in deny only', async () => {
    const d = await claude({ allow: ['mcp__github', 'mcp__fs__read_file', 'Agent(Explore)', 'WebSearch(query:*)'], deny: ['mcp__slack__*', 'WebSearch(query:*secret*)'] });
    expect(d.decide({ tool: 'mcp__github__create_issue', input: {} }).decision).toBe('allow');
    expect(d.decide({ tool: 'mcp__fs__write_file', input: {} }).decision).toBe('none');
    expect(d.decide({ tool: 'mcp__slack__post', input: {} }).decision).toBe('deny');
    expect(d.decide({ tool: 'Agent', input: { subagent_type: 'Explore' } }).decision).toBe('allow');
    expect(d.decide({ tool: 'WebSearch', input: { query: 'the secret plan' } }).decision).toBe('deny');
    expect(d.decide({ tool: 'WebSearch', input: { query: 'weather' } }).decision).toBe('none');
    const star = await claude({ deny: ['*'] });
    expect(star.decide({ tool: 'Read', input: { file_path: '/project/a' } }).decision).toBe('deny');
  });

  it('splits compound commands as documented', () => {
    expect(claudeSplit('a && b || c; d | e |& f & g\nh').parts).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(claudeSplit("echo 'a && b' \"c | d\"").parts).toEqual(["echo 'a && b' \"c | d\""]);
    expect(claudeSplit('ls  -la\t x').parts).toEqual(['ls -la x']);
  });
});

describe('Cursor, to its documentation', () => {
  const cursor = (perms: Record<string, string[]>) => nativeDecider([readCursorCli('.cursor/cli.json', JSON.stringify({ permissions: perms }))], { bash, cwd: '/work' });
  it.each([
    [{ allow: ['Shell(git)'] }, 'git push --force', 'allow'],
    [{ allow: ['Shell(git)'] }, 'gitk', 'none'],
    [{ allow: ['Shell(curl:*)'] }, 'curl -s x.example', 'allow'],
    [{ allow: ['Shell(*)'] }, 'rm -rf /', 'allow'],
    [{ allow: ['Shell(git)'], deny: ['Shell(git)'] }, 'git status', 'deny'],
    [{ allow: ['Shell(git push)'] }, 'git push', 'none'],
    [{ deny: ['Shell(rm)'] }, 'env rm -rf /', 'none'],
    [{ deny: ['Shell(rm)'] }, '/usr/bin/rm -rf /', 'none'],
  ] as const)('%j: `%s` -> %s', async (perms, command, decision) => {
    const d = await cursor(perms as unknown as Record<string, string[]>);
    expect(sh(d, command).decision).toBe(decision);
  });

  it('compound commands and argument globs are not documented: said, not guessed', async () => {
    const d = await cursor({ allow: ['Shell(ls)', 'Shell(git:status)'] });
    expect(sh(d, 'ls && ls').cannotDecide.join(' ')).toMatch(/compound/);
    expect(sh(d, 'git status --short').cannotDecide.join(' ')).toMatch(/argument glob/);
    // Where both readings agree, the model decides.
    expect(sh(d, 'git status')).toMatchObject({ decision: 'allow', cannotDecide: [] });
    expect(sh(d, 'git push --force')).toMatchObject({ decision: 'none', cannotDecide: [] });
  });

  it('Read/Write globs relative to the workspace, WebFetch and Mcp', async () => {
    const d = await cursor({ allow: ['Read(src/**)', 'Write(src/**/*.ts)', 'WebFetch(*.github.com)', 'Mcp(github:*)'], deny: ['Read(**/.env)'] });
    expect(d.decide({ tool: 'Read', input: { file_path: '/work/src/a/b.ts' } }).decision).toBe('allow');
    expect(d.decide({ tool: 'Read', input: { file_path: '/work/src/.env' } }).decision).toBe('deny');
    expect(d.decide({ tool: 'Write', input: { file_path: 'src/x/y.ts' } }).decision).toBe('allow');
    expect(d.decide({ tool: 'Write', input: { file_path: '/work/README.md' } }).decision).toBe('none');
    expect(d.decide({ tool: 'WebFetch', input: { url: 'https://api.github.com/x' } }).decision).toBe('allow');
    expect(d.decide({ tool: 'Mcp', input: { server: 'github', tool: 'create_issue' } }).decision).toBe('allow');
  });
});

describe('Codex and Gemini CLI, through their exact models', () => {
  it('Codex: `git -C . push --force` is allowed by prefix_rule(["git","-C"]) beside a forbidden `git push --force`', async () => {
    const file = readCodexRules('.codex/rules/default.rules', 'prefix_rule(pattern=["git", "push", "--force"], decision="forbidden")\nprefix_rule(pattern=["git", "-C"], decision="allow")\n');
    const d = await nativeDecider([file], { bash });
    expect(sh(d, 'git push --force origin main')).toMatchObject({ decision: 'deny', rule: { written: 'forbidden', text: 'prefix_rule(pattern=["git", "push", "--force"], decision="forbidden")' } });
    const v = sh(d, 'git -C . push --force origin main');
    expect(v).toMatchObject({ decision: 'allow', rule: { written: 'allow' } });
    expect(v.rule?.span.start.line).toBe(2);
    // Codex splits a plain `bash -lc` script and checks every command.
    expect(sh(d, 'git -C . status && git push --force').decision).toBe('deny');
    expect(sh(d, 'ls').decision).toBe('none');
    expect(d.decide({ tool: 'Bash', input: { argv: ['git', '-C', '.', 'log'] } }).decision).toBe('allow');
  });

  it('Codex: one load error drops every rule', async () => {
    const d = await nativeDecider([readCodexRules('a.rules', 'prefix_rule(pattern=[], decision="allow")\n')], { bash });
    expect(d.loadErrors.length).toBe(1);
    expect(sh(d, 'ls').cannotDecide.join(' ')).toMatch(/loads none/);
  });

  it('Gemini CLI: priorities decide, and wrappers are not stripped', async () => {
    const text = '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "env"\ndecision = "allow"\npriority = 950\n\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 100\n';
    const d = await nativeDecider([readGeminiPolicy('.gemini/policies/auto-saved.toml', text)], { bash });
    expect(sh(d, 'env rm -rf ~/important')).toMatchObject({ decision: 'allow', rule: { written: 'allow' } });
    expect(sh(d, 'rm -rf ~/important')).toMatchObject({ decision: 'deny', rule: { written: 'deny' } });
    expect(sh(d, 'rm -rf ~/important').rule?.span.start.line).toBe(7);
    expect(d.shellTool).toBe('run_shell_command');
  });

  it('refuses files of several agents', async () => {
    await expect(nativeDecider([claudeFile({}), readCodexRules('a.rules', '')], { bash })).rejects.toThrow(/several agents/);
  });
});
