// The agents' own decisions on hand-written cases: the ones the agents' formats (docs/native/codex.md, docs/native/gemini-cli.md)
// report as measured with `codex execpolicy check` and Gemini CLI's PolicyEngine, and the corner cases of
// Codex's own tests (bash.rs). e2e/native-diff checks the same models against the engines on generated pairs.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkCodexCommand,
  codexCommandsFor,
  codexNotExpressible,
  codexRulesInput,
  commandPrefixPattern,
  compileCodexRules,
  decideCodexExec,
  decideCodexExecNever,
  GEMINI_TIERS,
  geminiArgsJson,
  geminiNotExpressible,
  geminiPolicy,
  geminiPolicyFileInput,
  loadBashParser,
  geminiLookup,
  loadGeminiPolicies,
  readCodexRules,
  readGeminiPolicy,
} from '../src/index.ts';
import type { BashParser, GeminiContext, GeminiMode } from '../src/index.ts';

let bash: BashParser;
beforeAll(async () => {
  bash = await loadBashParser();
});

function codex(text: string) {
  const read = codexRulesInput([readCodexRules('default.rules', text)]);
  const { policy, errors } = compileCodexRules(read.input);
  return { policy, errors: [...read.errors, ...errors] };
}

const words = (s: string) => s.split(' ');

describe('Codex: prefix rules as `codex execpolicy check` decides them', () => {
  // Daiki48's default.rules (native-formats.md §6.3): a forbidden push and an allow of `git -C`.
  const daiki = codex(
    [
      'prefix_rule(pattern=["git", "push", "--force"], decision="forbidden")',
      'prefix_rule(pattern=["git", "-C"], decision="allow")',
      'prefix_rule(pattern=["git", "push"], decision="prompt")',
    ].join('\n'),
  );

  it('matches exact leading tokens, and the strictest of every match wins', () => {
    expect(daiki.errors).toEqual([]);
    const forced = checkCodexCommand(daiki.policy, words('git push --force origin main'));
    expect(forced.decision).toBe('forbidden');
    expect(forced.matchedRules.map((m) => m.matchedPrefix.join(' '))).toEqual(['git push --force', 'git push']);
    // Options after the sub-command: only the shorter prefix matches.
    expect(checkCodexCommand(daiki.policy, words('git push origin main --force')).decision).toBe('prompt');
  });

  it('lets `git -C . push --force` through the forbidden push: the allow of `git -C` matches instead', () => {
    const r = checkCodexCommand(daiki.policy, words('git -C . push --force origin main'));
    expect(r.decision).toBe('allow');
    expect(r.matchedRules.map((m) => m.matchedPrefix)).toEqual([['git', '-C']]);
  });

  it('has no globs, no case folding and no token-boundary prefixes', () => {
    const p = codex('prefix_rule(["cat", [".pem", ".key"]], decision="forbidden")\nprefix_rule(["cat", ".env"], decision="forbidden")').policy;
    expect(checkCodexCommand(p, words('cat .env')).decision).toBe('forbidden');
    expect(checkCodexCommand(p, words('cat ./.env')).decision).toBeUndefined();
    expect(checkCodexCommand(p, words('cat server.pem')).decision).toBeUndefined();
    expect(checkCodexCommand(p, words('cat .pem')).decision).toBe('forbidden');
    expect(checkCodexCommand(p, words('Cat .env')).decision).toBeUndefined();
    expect(checkCodexCommand(p, ['cat', '.env2']).decision).toBeUndefined();
  });

  it('expands alternatives in the first position into rules of their own, later ones as a set', () => {
    const p = codex('prefix_rule([["git", "hg"], ["push", "pull"], "x"], decision="forbidden")').policy;
    expect(checkCodexCommand(p, words('hg pull x y')).matchedRules[0]!.matchedPrefix).toEqual(['hg', 'pull', 'x']);
    expect(checkCodexCommand(p, words('git pull y')).decision).toBeUndefined();
  });

  it('resolves a path argv[0] to its basename rules, gated by host_executable', () => {
    const p = codex(
      [
        'prefix_rule(["git", "push"], decision="forbidden")',
        'prefix_rule(["ls"])',
        'host_executable(name="ls", paths=["/bin/ls"])',
        'host_executable(name="ls", paths=["/opt/ls"])',
      ].join('\n'),
    ).policy;
    const resolve = { resolveHostExecutables: true, cwd: '/work/project' };
    // Off (execpolicy check's default): a path is a different program.
    expect(checkCodexCommand(p, words('/usr/bin/git push')).decision).toBeUndefined();
    const viaPath = checkCodexCommand(p, words('/usr/bin/git push'), resolve);
    expect(viaPath.decision).toBe('forbidden');
    expect(viaPath.matchedRules[0]!.resolvedProgram).toBe('/usr/bin/git');
    // Relative paths are made absolute against the working directory and normalised lexically.
    expect(checkCodexCommand(p, words('sub/../git push'), resolve).matchedRules[0]!.resolvedProgram).toBe('/work/project/git');
    // The last host_executable for a name replaces the earlier ones.
    expect(checkCodexCommand(p, ['/bin/ls'], resolve).decision).toBeUndefined();
    expect(checkCodexCommand(p, ['/opt/ls'], resolve).decision).toBe('allow');
  });

  it('refuses, at their place, what Codex refuses to load', () => {
    const host = codex('host_executable(name="git", paths=["/usr/bin/git2"])');
    expect(host.errors.map((e) => [e.message, e.at?.start.line])).toEqual([
      ['invalid rule: host_executable path `/usr/bin/git2` must have basename `git`', 1],
    ]);
    expect(codex('prefix_rule(["ls"], decision="deny")').errors.length).toBeGreaterThan(0);
    expect(codex('prefix_rule([])').errors.length).toBeGreaterThan(0);
    expect(codex('host_executable(name="git", paths=["usr/bin/git"])').errors[0]!.message).toContain('must be absolute');
  });
});

describe("Codex: the agent's split of bash -lc scripts (bash.rs)", () => {
  const view = (script: string, shell = 'bash', flag = '-lc') => codexCommandsFor(bash, [shell, flag, script]);

  it('splits plain words joined by && || ; |', () => {
    expect(view("ls && pwd; echo 'hi there' | wc -l")).toEqual({
      kind: 'split',
      commands: [['ls'], ['pwd'], ['echo', 'hi there'], ['wc', '-l']],
    });
    expect(view('rg -n "foo" -g"*.py"').commands).toEqual([['rg', '-n', 'foo', '-g*.py']]);
    expect(view(`echo "/usr"'/'"local"/bin`).commands).toEqual([['echo', '/usr/local/bin']]);
    expect(view('ls', '/bin/zsh', '-c').kind).toBe('split');
  });

  it('matches anything else as the three words', () => {
    for (const script of ['ls > out.txt', 'echo hi & echo bye', 'echo $(pwd)', 'echo $HOME', 'FOO=bar ls', '(ls)', 'ls &&', 'ls | | wc']) {
      expect(view(script).kind, script).toBe('argv');
    }
    expect(codexCommandsFor(bash, ['fish', '-c', 'ls']).kind).toBe('argv');
    expect(codexCommandsFor(bash, ['bash', '-lc', 'ls', 'x']).kind).toBe('argv');
  });

  it('matches a heredoc script as the three words (0.169.0, measured with codex exec)', () => {
    expect(view('python3 <<EOF\nprint(1)\nEOF').kind).toBe('argv');
  });

  it('decides the split commands with the strictest result; unmatched parts stay to the heuristics', () => {
    const p = codex('prefix_rule(["git", "-C"])\nprefix_rule(["git", "push", "--force"], decision="forbidden")').policy;
    expect(decideCodexExec(p, bash, ['bash', '-lc', 'git -C . status && git push --force']).decision).toBe('forbidden');
    const partly = decideCodexExec(p, bash, ['bash', '-lc', 'git -C . status && ls']);
    expect(partly.decision).toBeUndefined();
    expect(partly.atLeast).toBeUndefined();
    // The same script with a redirection is not split: no rule sees `git push --force`.
    expect(decideCodexExec(p, bash, ['bash', '-lc', 'git push --force > log']).perCommand[0]!.decision).toBeUndefined();
  });
});

describe('Codex under approval never: rules, then its dangerous-command check (measured with codex exec)', () => {
  const p = codex('prefix_rule(["mkdir"], decision="prompt")').policy;
  const never = (script: string) => decideCodexExecNever(p, bash, ['/bin/bash', '-lc', script]);

  it('refuses a prompt (it cannot ask) and a forced rm no rule matches, wherever it sits', () => {
    expect(never('mkdir x')).toBe('forbidden');
    expect(never('rm -f x')).toBe('forbidden');
    expect(never('rm x -f')).toBe('forbidden');
    expect(never('if true; then rm -rf x; fi')).toBe('forbidden');
    expect(never('r"m" --force x > /dev/null')).toBe('forbidden');
    expect(never('sudo rm -f x')).toBe('forbidden');
  });

  it('runs the rest, and leaves undecided what it reads behind env', () => {
    expect(never('rm x')).toBe('allow');
    expect(never('rm -- -f')).toBe('allow');
    expect(never('nice rm -f x')).toBe('allow');
    expect(never('env rm -f x')).toBeUndefined();
  });
});

function gemini(files: { text: string; tier?: number }[]) {
  const inputs = files.map((f, i) => geminiPolicyFileInput(readGeminiPolicy(`p${i}.toml`, f.text), f.tier ?? GEMINI_TIERS.user));
  return loadGeminiPolicies(inputs);
}

function decide(files: { text: string; tier?: number }[], call: { name: string; args?: Record<string, unknown> }, ctx: { mode?: GeminiMode; nonInteractive?: boolean } = {}, callCtx: GeminiContext = {}) {
  const { rules } = gemini(files);
  return geminiPolicy(rules, bash, ctx).decide(call, callCtx);
}

const sh = (command: string) => ({ name: 'run_shell_command', args: { command } });
const rule = (body: string) => `[[rule]]\ntoolName = "run_shell_command"\n${body}\n`;

describe('Gemini CLI: the TOML loader', () => {
  it('compiles commandPrefix to an unanchored JSON pattern ending at a word boundary', () => {
    expect(commandPrefixPattern('git')).toBe('\\"command\\":\\"git(?:[\\s"]|\\\\")');
    const re = new RegExp(commandPrefixPattern('git'));
    expect(re.test(geminiArgsJson({ command: 'git status' }))).toBe(true);
    expect(re.test(geminiArgsJson({ command: 'gitx' }))).toBe(false);
    expect(geminiArgsJson({ b: 1, a: { d: 2, c: [3] } })).toBe('{\0"a":{"c":[3],"d":2}\0,\0"b":1\0}');
  });

  it('drops a whole file for a priority out of range (rulesync), a rule for an unsafe regex', () => {
    const dropped = gemini([{ text: `${rule('commandPrefix = "git"\ndecision = "allow"\npriority = 10')}${rule('decision = "deny"\npriority = 1000000')}` }]);
    expect(dropped.rules).toEqual([]);
    expect(dropped.issues[0]!.kind).toBe('file-dropped');
    const unsafe = gemini([{ text: `${rule('commandRegex = "rm( -[a-z]+)* /"\ndecision = "deny"\npriority = 10')}${rule('command_prefix = "git"\ndecision = "allow"\npriority = 5')}` }]);
    expect(unsafe.rules.map((r) => [r.decision, r.argsPattern])).toEqual([['allow', undefined]]);
    expect(unsafe.issues.map((i) => i.kind)).toEqual(['rule-dropped']);
  });

  it('reads commandPrefix arrays as alternatives and places rules at tier + priority/1000', () => {
    const { rules } = gemini([{ text: rule('commandPrefix = ["go", "test"]\ndecision = "allow"\npriority = 950'), tier: GEMINI_TIERS.user }]);
    expect(rules.map((r) => r.priority)).toEqual([4.95, 4.95]);
    expect(decide([{ text: rule('commandPrefix = ["go", "test"]\ndecision = "allow"\npriority = 950') }], sh('go run ./evil.go')).decisions).toEqual(['allow']);
  });
});

describe('Gemini CLI: the PolicyEngine decision', () => {
  it('loads no rule from commandPrefix = [], and a prefix ending in a space matches only a doubled space', () => {
    expect(gemini([{ text: rule('commandPrefix = []\ndecision = "allow"\npriority = 10') }]).rules).toEqual([]);
    const spaced = gemini([{ text: rule('commandPrefix = "git "\ndecision = "deny"\npriority = 10') }]).rules;
    const first = (command: string) => geminiLookup(spaced).first(sh(command))?.decision;
    expect(first('git status')).toBeUndefined();
    expect(first('git  status')).toBe('deny');
  });

  it('settles the lookup (geminiLookup) on the rule the whole decision starts from, modes and sessions included', () => {
    const files = [{ text: `${rule('commandPrefix = "git"\ndecision = "allow"\npriority = 100\nmodes = ["autoEdit"]')}${rule('commandPrefix = "git push"\ndecision = "deny"\npriority = 50')}${rule('commandPrefix = "rm"\ndecision = "ask_user"\npriority = 50\ninteractive = false')}` }];
    const { rules } = gemini(files);
    for (const ctx of [{}, { mode: 'autoEdit' as const }, { nonInteractive: true }]) {
      for (const command of ['git push --force', 'git status', 'rm -rf x', 'ls']) {
        expect(geminiLookup(rules, ctx).first(sh(command)), `${command} ${JSON.stringify(ctx)}`).toBe(geminiPolicy(rules, bash, ctx).decide(sh(command)).rule);
      }
    }
    expect(geminiLookup(rules, { mode: 'autoEdit' }).first(sh('git push --force'))?.decision).toBe('allow');
    expect(geminiLookup(rules).first(sh('git push --force'))?.decision).toBe('deny');
  });
  it('lets the first match by priority decide: an allow above a deny wins, across tiers too', () => {
    const files = [{ text: `${rule('commandPrefix = "git"\ndecision = "allow"\npriority = 100')}${rule('commandPrefix = "git push"\ndecision = "deny"\npriority = 50')}` }];
    expect(decide(files, sh('git push --force')).decisions).toEqual(['allow']);
    const admin = { text: rule('commandPrefix = "git push"\ndecision = "deny"\npriority = 0'), tier: GEMINI_TIERS.admin };
    expect(decide([...files, admin], sh('git push --force')).decisions).toEqual(['deny']);
  });

  it('allows what the text prefix matches: wrappers, find -exec and sed e (native-formats.md §6.3)', () => {
    const env = [{ text: rule('commandPrefix = ["env", "cargo"]\ndecision = "allow"\npriority = 950') }];
    expect(decide(env, sh('env rm -rf ~/important')).decisions).toEqual(['allow']);
    const find = [{ text: rule('commandPrefix = "find"\ndecision = "allow"\npriority = 100') }];
    expect(decide(find, sh('find . -exec rm -rf {} +')).decisions).toEqual(['allow']);
    // A deny on rm misses the respellings a text prefix cannot see.
    const rm = [{ text: `${rule('commandPrefix = "rm"\ndecision = "deny"\npriority = 100')}${rule('commandRegex = ".*"\ndecision = "allow"\npriority = 0')}` }];
    for (const c of ['\\rm -rf x', 'FOO=1 rm -rf x', '/bin/rm -rf x', 'timeout 5 rm -rf x']) expect(decide(rm, sh(c)).decisions, c).toEqual(['allow']);
    expect(decide(rm, sh('rm -rf x')).decisions).toEqual(['deny']);
  });

  it('re-checks each sub-command and each sh -c script; a redirection asks', () => {
    const files = [{ text: `${rule('commandPrefix = "git"\ndecision = "allow"\npriority = 100')}${rule('commandPrefix = "rm"\ndecision = "deny"\npriority = 50')}${rule('commandPrefix = "echo"\ndecision = "allow"\npriority = 50')}` }];
    expect(decide(files, sh('git status && rm -rf /')).decisions).toEqual(['deny']);
    expect(decide(files, sh('git log | bash -c "rm x"')).decisions).toEqual(['deny']);
    expect(decide(files, sh('echo x > ~/.bashrc')).decisions).toEqual(['ask_user']);
    expect(decide(files, sh('echo x > ~/.bashrc'), { mode: 'autoEdit' }).decisions).toEqual(['allow']);
  });

  it('checks a `bash -c` script again but not a `bash -lc` one (what native/allow-runs-anything relies on)', () => {
    const files = [{ text: rule('commandPrefix = "bash"\ndecision = "allow"\npriority = 10') }];
    expect(decide(files, sh("bash -c 'rm -rf ~'")).decisions).toEqual(['ask_user']);
    expect(decide(files, sh("bash -lc 'rm -rf ~'")).decisions).toEqual(['allow']);
  });

  it('gives the default decision for text tree-sitter cannot parse, and names the heuristics it does not model', () => {
    const files = [{ text: rule('commandPrefix = "echo"\ndecision = "allow"\npriority = 100') }];
    expect(decide(files, sh('echo "unterminated')).decisions).toEqual(['ask_user']);
    expect(decide(files, sh('echo "unterminated'), { nonInteractive: true }).decisions).toEqual(['deny']);
    expect(decide(files, sh('echo "unterminated'), { mode: 'yolo' }).decisions).toEqual(['deny']);
    const open = decide([{ text: rule('commandPrefix = ""\ndecision = "deny"\npriority = 10') }], sh('rm -rf build/x'));
    expect(open.decisions).toEqual(['deny']);
    const unmatched = decide([], sh('ls'));
    expect(unmatched.decisions).toEqual(['allow', 'ask_user']);
    expect(unmatched.notModelled[0]).toContain('heuristics');
  });

  it("decides Gemini CLI's heuristics exactly given the run's facts (workspace, home, trust)", () => {
    const facts = { workspace: '/work/project', home: '/home/u', trustedFolder: true };
    const run = (command: string, extra: Partial<typeof facts> = {}, files: { text: string }[] = []) =>
      geminiPolicy(gemini(files).rules, bash, { facts: { ...facts, ...extra } }).decide(sh(command)).decisions;
    // No rule: ask_user, turned into allow for a known-safe command whose paths stay in the workspace.
    expect(run('ls -la src')).toEqual(['allow']);
    expect(run('cat ~/.ssh/id_rsa')).toEqual(['ask_user']);
    expect(run('cat ../other/x')).toEqual(['ask_user']);
    expect(run('git status')).toEqual(['allow']);
    expect(run('git status', { trustedFolder: false })).toEqual(['ask_user']);
    expect(run('git -c core.pager=x log')).toEqual(['ask_user']);
    expect(run('sed -n 1p README.md')).toEqual(['allow']);
    expect(run("sed -n '1e id' README.md")).toEqual(['ask_user']);
    // A shell rule without a pattern: a dangerous command asks even under its allow.
    const allowAll = [{ text: rule('decision = "allow"\npriority = 10') }];
    expect(run('rm -rf build', {}, allowAll)).toEqual(['ask_user']);
    expect(run('rm build', {}, allowAll)).toEqual(['allow']);
    // An absolute rg is safe only if the file system says it is a system binary: both answers stay open.
    expect(run('/usr/bin/rg x')).toEqual(['allow', 'ask_user']);
  });

  it('matches other tools by name and JSON pattern, and asks before an edit of a build file', () => {
    const files = [{ text: '[[rule]]\ntoolName = "read_file"\nargsPattern = ".*SKILL\\\\.md.*"\ndecision = "allow"\npriority = 100\n[[rule]]\ntoolName = "*"\ndecision = "allow"\npriority = 1\n' }];
    expect(decide(files, { name: 'read_file', args: { file_path: 'SKILL.md/../.env' } }).rule?.priority).toBe(4.1);
    expect(decide(files, { name: 'write_file', args: { file_path: 'package.json', content: 'x' } }).decisions).toEqual(['ask_user']);
    expect(decide(files, { name: 'write_file', args: { file_path: 'package.json', content: 'x' } }, { nonInteractive: true }).decisions).toEqual(['deny']);
    expect(decide(files, { name: 'write_file', args: { file_path: 'src/a.ts', content: 'x' } }).decisions).toEqual(['allow']);
    // A rule naming a tool that does not exist never matches: the default decides.
    const typo = [{ text: '[[rule]]\ntoolName = "run_command"\ndecision = "allow"\npriority = 100\n' }];
    expect(decide(typo, { name: 'web_fetch', args: { prompt: 'x' } }).decisions).toEqual(['ask_user']);
  });
});

describe('what a Verdict policy cannot say of these files, at its place', () => {
  const placed = (ns: readonly { message: string; at?: { start: { line: number } } | undefined }[]) =>
    ns.map((n) => [n.at?.start.line ?? null, n.message.split(/[:;,(]/)[0]!.trim()]);

  it('Codex: host_executable, the sandbox an allow lifts, shell-script rules', () => {
    const text = ['prefix_rule(["git", "-C"])', 'prefix_rule(["bash", "-lc"], decision="forbidden")', 'host_executable(name="git", paths=["/usr/bin/git"])'].join('\n');
    const read = codexRulesInput([readCodexRules('default.rules', text)]);
    expect(placed(codexNotExpressible(read.input))).toEqual([
      [1, 'a Codex allow also runs the command outside the sandbox'],
      [2, 'Codex consults this shell-script rule only for scripts it does not split'],
      [2, "Verdict's deny of this prefix would also apply at any path of the program"],
      [3, 'host_executable'],
      [null, 'a command no rule matches is decided by Codex\'s heuristics'],
    ]);
  });

  it('Gemini: an allow above a deny, conditions on modes, JSON-wide patterns', () => {
    const text = `${rule('commandPrefix = "git"\ndecision = "allow"\npriority = 100\nmodes = ["yolo"]')}${rule('commandPrefix = "git push"\ndecision = "deny"\npriority = 50')}[[rule]]\ntoolName = "read_file"\nargsPattern = "(?!x)SKILL"\ndecision = "allow"\npriority = 1\n`;
    expect(placed(geminiNotExpressible(gemini([{ text }]).rules))).toEqual([
      [1, 'this allow'],
      [1, 'applies only under modes yolo'],
      [12, 'the pattern uses a lookaround'],
      [12, 'the pattern runs over the stable JSON of all the call\'s arguments'],
      [null, 'a call no rule matches asks'],
    ]);
  });
});
