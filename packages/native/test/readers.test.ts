import { describe, expect, it } from 'vitest';
import {
  nativeFormatOf,
  parseClaudeRule,
  readClaudeSettings,
  readCodexRequirements,
  readCodexRules,
  readCursorCli,
  readGeminiPolicy,
  readGeminiSettings,
  shlexSplit,
} from '../src/index.ts';

const at = (s: { start: { line: number; column: number } } | undefined): string => (s === undefined ? '-' : `${s.start.line}:${s.start.column}`);

describe('Codex .rules', () => {
  it('reads literal prefix rules with the place of each token and the default decision', () => {
    const text = [
      '# comment',
      'prefix_rule(["git", "-C"])',
      'prefix_rule(',
      '    pattern = ["git", ["push", "fetch"]],',
      '    decision = "forbidden",',
      "    justification = 'no pushes',",
      '    match = ["git push origin", ["git", "fetch"]],',
      '    not_match = ["git status"],',
      ')',
      'host_executable(name = "git", paths = ["/usr/bin/git"])',
      'network_rule(host = "api.github.com", protocol = "https", decision = "allow")',
    ].join('\n');
    const r = readCodexRules('d.rules', text);
    expect(r.diagnostics).toEqual([]);
    expect(r.loadErrors).toEqual([]);
    expect(r.complete).toBe(true);
    expect(r.prefixRules.map((x) => [x.pattern.map((t) => t.alternatives.join('|')), x.decision, at(x.decisionSpan)])).toEqual([
      [['git', '-C'], 'allow', '-'],
      [['git', 'push|fetch'], 'forbidden', '5:16'],
    ]);
    expect(r.prefixRules[1]?.pattern.map((t) => at(t.span))).toEqual(['4:16', '4:23']);
    expect(r.prefixRules[1]?.justification?.value).toBe('no pushes');
    expect(r.prefixRules[1]?.match.map((m) => m.argv)).toEqual([['git', 'push', 'origin'], ['git', 'fetch']]);
    expect(r.hostExecutables[0]?.paths.map((p) => p.value)).toEqual(['/usr/bin/git']);
    expect(r.networkRules[0]?.host.value).toBe('api.github.com');
  });

  it('reports what needs evaluation where it is written, and reads no rule from it', () => {
    const text = ['GIT = "git"', 'prefix_rule(pattern = [GIT, "push"], decision = "forbidden")', 'for p in ["a"]:', '    prefix_rule([p])', 'prefix_rule(["ls"] + ["-la"])', 'prefix_rule(pattern=["rm"], decision=f"{x}")', 'prefix_rule(["cat"])'].join('\n');
    const r = readCodexRules('d.rules', text);
    expect(r.complete).toBe(false);
    expect(r.prefixRules.map((x) => x.pattern.map((t) => t.alternatives[0]))).toEqual([['cat']]);
    expect(r.diagnostics.map((d) => [d.code, at(d.span), d.message])).toEqual([
      ['native/not-static', '1:1', 'cannot read statically: an assignment to `GIT`'],
      ['native/not-static', '2:24', 'cannot read statically: `GIT` in `prefix_rule(...)`; the rule is not read'],
      ['native/not-static', '3:1', 'cannot read statically: a `for` statement'],
      ['native/not-static', '5:13', 'cannot read statically: an expression in `prefix_rule(...)`; the rule is not read'],
      ['native/not-static', '6:38', 'cannot read statically: an f-string with fields in `prefix_rule(...)`; the rule is not read'],
    ]);
  });

  it('keeps what the loader refuses, located', () => {
    const text = ['prefix_rule(pattern=["git"], decision="deny")', 'prefix_rule(pattern=[])', 'prefix_rule(pattern=["git", "push"], match=["git status"])', 'prefix_rule(pattern=["ls"], colour="x")'].join('\n');
    const r = readCodexRules('d.rules', text);
    expect(r.loadErrors.map((e) => [at(e.span), e.message])).toEqual([
      ['1:39', '`decision` must be `allow`, `prompt` or `forbidden`, not `deny`'],
      ['2:21', '`pattern` must be a non-empty list'],
      ['3:45', "the `match` example `git status` does not match the rule's pattern"],
      ['4:29', '`prefix_rule` has no parameter `colour`'],
    ]);
  });

  it('refuses a syntax error with its place', () => {
    const r = readCodexRules('d.rules', 'prefix_rule(["git",\n  "push"\n');
    expect(r.diagnostics.map((d) => [d.code, d.severity])).toEqual([['native/syntax', 'error']]);
    expect(r.prefixRules).toEqual([]);
    const s = readCodexRules('d.rules', 'prefix_rule(["git\\q"])');
    expect(s.diagnostics[0]?.message).toBe('Starlark syntax: invalid escape `\\q`');
  });

  it('splits example strings as shlex does', () => {
    expect(shlexSplit(`git commit -m "a b" 'c d' e\\ f`)).toEqual(['git', 'commit', '-m', 'a b', 'c d', 'e f']);
    expect(shlexSplit('echo "unclosed')).toBeUndefined();
  });
});

describe('Codex requirements.toml', () => {
  it('reads prefix rules and refuses allow', () => {
    const text = ['[rules]', 'prefix_rules = [', '  { pattern = [{ token = "git" }, { any_of = ["push", "pull"] }], decision = "prompt", justification = "x" },', '  { pattern = [{ token = "ls" }], decision = "allow" },', ']'].join('\n');
    const r = readCodexRequirements('requirements.toml', text);
    expect(r.prefixRules.map((x) => [x.pattern.map((t) => t.alternatives.join('|')), x.decision, at(x.span)])).toEqual([[['git', 'push|pull'], 'prompt', '3:3']]);
    expect(r.loadErrors.map((e) => [at(e.span), e.message])).toEqual([['4:46', '`allow` is not accepted in requirements.toml (only `prompt` and `forbidden`)']]);
  });
});

describe('Gemini CLI policy TOML', () => {
  it('reads each rule, its keys with their places, unknown keys included', () => {
    const text = [
      '[[rule]]',
      'toolName = "run_shell_command"',
      'commandPrefix = ["go", "test"]',
      'decision = "allow"',
      'priority = 100',
      '',
      '[[rule]]',
      "toolName = 'run_shell_command'",
      'command_prefix = "git"  # misspelt',
      'decision = "allow"',
      'priority = 1000000',
      'modes = ["default", "autoEdit"]',
    ].join('\n');
    const r = readGeminiPolicy('p.toml', text);
    expect(r.diagnostics).toEqual([]);
    expect(r.rules.map((x) => at(x.span))).toEqual(['1:1', '7:1']);
    expect(r.rules[0]?.commandPrefix?.value).toEqual(['go', 'test']);
    expect(r.rules[0]?.commandPrefixItems?.map((i) => at(i.span))).toEqual(['3:18', '3:24']);
    expect(r.rules[1]?.keys.map((k) => `${k.key}@${at(k.keySpan)}`)).toEqual(['toolName@8:1', 'command_prefix@9:1', 'decision@10:1', 'priority@11:1', 'modes@12:1']);
    expect(r.rules[1]?.commandPrefix).toBeUndefined();
    expect([r.rules[1]?.priority?.value, at(r.rules[1]?.priority?.span)]).toEqual([1000000, '11:12']);
  });

  it('refuses a file that is not TOML, at its place', () => {
    const r = readGeminiPolicy('p.toml', '[[rule]]\ntoolName = "x"\ndecision = allow\n');
    expect(r.diagnostics.map((d) => [d.code, at(d.span)])).toEqual([['native/syntax', '3:12']]);
    expect(r.complete).toBe(false);
  });

  it('reads the tool settings of settings.json (with comments)', () => {
    const text = '{\n  // mine\n  "tools": { "allowed": ["run_shell_command(git status)"], "exclude": ["run_shell_command(rm)"] },\n  "coreTools": ["read_file"],\n}';
    const r = readGeminiSettings('.gemini/settings.json', text);
    expect(r.diagnostics).toEqual([]);
    expect(r.entries.map((e) => [e.setting, e.tool, e.argument, at(e.span)])).toEqual([
      ['tools.allowed', 'run_shell_command', 'git status', '3:26'],
      ['tools.exclude', 'run_shell_command', 'rm', '3:72'],
      ['coreTools', 'read_file', undefined, '4:17'],
    ]);
  });
});

describe('Claude Code settings', () => {
  it('reads each rule with its list, place and parts, and the keys as written', () => {
    const text = '{\n  "permissions": {\n    "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],\n    "deny": ["Bash(rm -rf *)", "WebFetch(domain:example.com)", "mcp__github__create_issue"],\n    "defaultMode": "acceptEdits",\n    "additionalDirectories": ["../docs"]\n  },\n  "defaultMode": "plan"\n}\n';
    const r = readClaudeSettings('.claude/settings.json', text);
    expect(r.scope).toBe('project');
    expect(r.rules.map((x) => [x.list, x.tool, x.specifier, at(x.span)])).toEqual([
      ['allow', 'Bash', 'npm run test:*', '3:15'],
      ['allow', 'Read', '~/.zshrc', '3:39'],
      ['deny', 'Bash', 'rm -rf *', '4:14'],
      ['deny', 'WebFetch', 'domain:example.com', '4:32'],
      ['deny', 'mcp__github__create_issue', undefined, '4:64'],
    ]);
    expect(r.defaultMode?.value).toBe('acceptEdits');
    expect(r.additionalDirectories.map((d) => d.value)).toEqual(['../docs']);
    expect(r.topLevelKeys.map((k) => `${k.key}@${at(k.keySpan)}`)).toEqual(['permissions@2:3', 'defaultMode@8:3']);
    expect(readClaudeSettings('.claude/settings.local.json', '{}').scope).toBe('local');
  });

  it('splits rules and names what is malformed', () => {
    expect(parseClaudeRule('Bash(git log:*)')).toEqual({ tool: 'Bash', specifier: 'git log:*' });
    expect(parseClaudeRule('Bash(echo (x))')).toEqual({ tool: 'Bash', specifier: 'echo (x)' });
    expect(parseClaudeRule('Bash(ls').malformed).toBe('the `(` is not closed by a final `)`');
  });

  it('refuses JSON that does not parse', () => {
    const r = readClaudeSettings('.claude/settings.json', '{"permissions": {"allow": ["Bash",]}}');
    expect(r.diagnostics.map((d) => [d.code, d.severity, at(d.span)])).toEqual([['native/syntax', 'error', '1:35']]);
  });
});

describe('Cursor cli.json', () => {
  it('reads allow and deny rules', () => {
    const r = readCursorCli('.cursor/cli.json', '{"permissions": {"allow": ["Shell(git)", "Read(src/**)"], "deny": ["Write(.env)"]}, "version": 1}');
    expect(r.rules.map((x) => [x.list, x.type, x.argument])).toEqual([
      ['allow', 'Shell', 'git'],
      ['allow', 'Read', 'src/**'],
      ['deny', 'Write', '.env'],
    ]);
  });
});

describe('formats by name', () => {
  it('knows the names the agents load', () => {
    const cases: [string, string | undefined][] = [
      ['repo/.claude/settings.json', 'claude-settings'],
      ['.claude/settings.local.json', 'claude-settings'],
      ['/etc/claude-code/managed-settings.json', 'claude-settings'],
      ['home/.codex/rules/default.rules', 'codex-rules'],
      ['.codex/requirements.toml', 'codex-requirements'],
      ['.gemini/policies/auto-saved.toml', 'gemini-policy'],
      ['.gemini/settings.json', 'gemini-settings'],
      ['.cursor/cli.json', 'cursor-cli'],
      ['src/settings.json', undefined],
      ['rules/x.rules', undefined],
      ['pyproject.toml', undefined],
    ];
    for (const [p, f] of cases) expect(nativeFormatOf(p), p).toBe(f);
    expect(nativeFormatOf('rules/x.rules', { explicit: true })).toBe('codex-rules');
  });
});
