// Gemini CLI: generated policy TOML files and tool calls, decided in-process by the TOML loader and
// PolicyEngine of @google/gemini-cli-core and by Verdict's model (packages/native/src/gemini/decide.ts).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

const SHELL_NAMES = ['run_shell_command', 'run_shell_command', 'run_shell_command', 'run_shell_command', 'ShellTool'];
const OTHER_NAMES = ['read_file', 'write_file', 'replace', '*', 'mcp_*', 'mcp_github_*', 'run_command', 'search_file_content', 'grep_search', 'glob', 'codebase_investigator', 'invoke_agent'];
const PREFIXES = ['git', 'git status', 'git push', 'rm', 'rm -rf', 'env', 'ls', 'go test', 'find', 'echo', 'g', 'git st', '"git"', 'cat', 'npm run', 'ls ', 'bash -c', 'sed', 'FOO=1', '\\rm', 'git\tstatus'];
const REGEXES = ['git (commit|push)', '^git', 'rm .*', '.*', 'ls', 'echo [a-z]+', '(a+)+', '[', 'cat .*\\.env', 'git status$', 'git[^"]*"', '(git|rm) '];
const ARGPATS = ['"command":"git', 'SKILL\\.md', '"file_path":"[^"]*\\.env', '.*', '\\x00"command":"ls', 'rm', '"description":"x', '^\\{', '"dir_path"', 'package\\.json'];
const PRIORITIES = [0, 1, 5, 10, 10, 50, 100, 100, 500, 950, 999];
const SIMPLE = [
  'git status', 'git status -s', 'git push --force origin main', 'git -C . push', 'rm -rf /tmp/x', 'rm x', 'ls -la', 'ls',
  'env rm -rf ~/important', 'echo hi', 'echo hi > out.txt', 'cat x.env', 'cat README.md', 'go test ./...', 'go run ./evil.go',
  'find . -exec rm {} \\;', '"git" status', '\\rm x', 'FOO=1 rm x', 'git\tstatus', 'echo $(rm x)', 'echo `ls`',
  'cat <<EOF\nx\nEOF', 'if true; then rm x; fi', 'echo "unterminated', '(cd x && rm y)', 'ls &', 'git statuses', 'npm run build',
  'sed -n 1p f', 'sort < in.txt', 'ls 2>/dev/null', 'grep -r x . | head', 'gitx', 'g', 'cat <(ls)', 'echo ${x@P}', 'x=1',
  'export A=1', 'test -f x', '[ -f x ]', 'unset A', 'git log --oneline -1', 'cd sub && git push', 'python3 -c "print(1)"',
  // The shapes Gemini CLI's heuristics read (safe readers, paths leaving the workspace, dangerous options).
  'cat ~/.ssh/id_rsa', 'cat /etc/passwd', 'ls ..', 'cd ..', 'cd', 'cd sub', 'git -c core.pager=x log', 'git branch',
  'git branch -D x', 'git log --output=x', 'git -C sub status', 'rg x', '/usr/bin/rg x', 'rg --pre x y', 'ln -s a b',
  'base64 -o x y', 'base64 y', 'sudo rm -rf x', 'head -n 1 $HOME/x', 'wc -l sub/../../x', 'echo `id`', 'tail -f sub/log',
  'bash -c "ls && cat x"', 'zsh -c "pwd"', 'grep -f ../pat x', 'grep --file=pat x', 'stat --format=%s /tmp', 'seq 3',
  'find sub -name x', 'find / -name x', 'sed -n 5p README.md', 'sed -n 1,2p ../x', 'rm -f x', 'rm -fr /', 'TZ=x git status',
  'env git status', 'time git log', 'echo ~', 'ls -- -x', 'which git', 'uname -a', 'cat - < x', 'nl ~user/x',
  // JSON-special and non-ASCII text: quotes, backslashes, tabs, newlines, accents.
  'git "status"', 'git\\ status', 'echo "a\\"b"', 'echo é && rm x', 'cat "fi le"', "echo 'it''s'", 'git\x0bstatus',
];
const JOIN = [' && ', ' || ', '; ', ' | ', '\n', ' & '];

function genRule(r) {
  const lines = [];
  const shell = r.chance(0.7);
  let toolName = shell ? r.pick(SHELL_NAMES) : r.pick(OTHER_NAMES);
  if (r.chance(0.08)) toolName = [toolName, r.pick(OTHER_NAMES)];
  lines.push(`toolName = ${toml(toolName)}`);
  if (!shell && r.chance(0.15)) {
    lines[0] = `toolName = ${toml(r.pick(['create_issue', '*', 'mcp_github_create_issue', 'list_repos']))}`;
    lines.push(`mcpName = ${toml(r.pick(['github', '*', 'gitlab']))}`);
  }
  if (r.chance(0.05)) lines.push(`subagent = ${toml(r.pick(['codebase_investigator', 'other']))}`);
  if (shell) {
    const kind = r.chance(0.06) ? r.pick(['emptyPrefix', 'typo']) : r.pick(['prefix', 'prefix', 'prefix', 'prefix', 'prefix', 'prefixes', 'prefixes', 'regex', 'regex', 'args', 'none']);
    if (kind === 'prefix') lines.push(`commandPrefix = ${toml(r.pick(PREFIXES))}`);
    if (kind === 'prefixes') lines.push(`commandPrefix = ${toml(r.chance(0.1) ? [] : r.some(PREFIXES, 3))}`);
    if (kind === 'regex') lines.push(`commandRegex = ${toml(r.pick(REGEXES))}`);
    if (kind === 'args') lines.push(`argsPattern = ${r.chance(0.3) ? `'${r.pick(ARGPATS).replace(/'/g, '')}'` : toml(r.pick(ARGPATS))}`);
    if (kind === 'emptyPrefix') lines.push(`commandPrefix = ""`);
    if (kind === 'typo') lines.push(`command_prefix = ${toml(r.pick(PREFIXES))}`);
  } else if (r.chance(0.5)) lines.push(`argsPattern = ${toml(r.pick(ARGPATS))}`);
  lines.push(`decision = ${toml(r.chance(0.01) ? 'prompt' : r.pick(shell ? ['allow', 'allow', 'deny', 'ask_user'] : ['allow', 'deny', 'ask_user']))}`);
  const pr = r.chance(0.02) ? r.pick([1000, -1, 1000000]) : r.pick(PRIORITIES);
  lines.push(`priority = ${r.chance(0.02) ? '2.5' : pr}`);
  if (r.chance(0.15)) lines.push(`modes = ${toml(r.chance(0.05) ? ['auto'] : r.pick([['default'], ['yolo', 'autoEdit'], ['plan'], ['autoEdit']]))}`);
  if (r.chance(0.15)) lines.push(`interactive = ${r.pick(['true', 'false'])}`);
  if (r.chance(0.15)) lines.push(`allowRedirection = true`);
  if (r.chance(0.05)) lines.push(`allow_redirection = true`);
  if (r.chance(0.05)) lines.push(`denyMessage = "no"`);
  if (r.chance(0.05)) lines.push(`name = "unknown key"`);
  return `[[rule]]\n${lines.join('\n')}\n`;
}

function toml(v) {
  if (Array.isArray(v)) return `[${v.map(toml).join(', ')}]`;
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function genCommand(r) {
  const n = r.chance(0.6) ? 1 : 2 + r.int(2);
  let text = Array.from({ length: n }, () => r.pick(SIMPLE)).reduce((a, b) => `${a}${r.pick(JOIN)}${b}`);
  if (r.chance(0.15)) text = r.pick([`bash -c '${text.replace(/'/g, '')}'`, `sh -c "${text.replace(/"/g, '')}"`, `/bin/zsh -c '${text.replace(/'/g, '')}'`, `bash -lc '${text.replace(/'/g, '')}'`]);
  if (r.chance(0.05)) text = ` ${text} `;
  return text;
}

function genCall(r) {
  const call = genCall1(r);
  if (r.chance(0.1)) call.subagent = r.pick(['codebase_investigator', 'other']);
  return call;
}

function genCall1(r) {
  if (r.chance(0.7)) {
    const args = { command: genCommand(r) };
    if (r.chance(0.2)) args.description = r.pick(['x', 'runs it', 'a "quoted" word']);
    if (r.chance(0.08)) args.dir_path = r.pick(['sub', '.', '..', '/tmp', 'sub/..']);
    return { name: r.chance(0.9) ? 'run_shell_command' : 'ShellTool', args };
  }
  const name = r.pick(['read_file', 'write_file', 'replace', 'search_file_content', 'grep_search', 'glob', 'mcp_github_create_issue', 'mcp_gitlab_list_repos', 'mcp_github_list_repos', 'invoke_agent', 'web_fetch']);
  const path = r.pick(['.env', 'SKILL.md/../.env', 'src/a.ts', 'package.json', 'x/Dockerfile.dev', 'a/package%2Ejson', 'build.mk', 'Makefile ', 'sub/../go.mod']);
  const args = {
    read_file: { file_path: path },
    write_file: { file_path: path, content: 'x' },
    replace: { file_path: path, old_string: 'a', new_string: 'b' },
    search_file_content: { pattern: 'x' },
    grep_search: { pattern: 'rm' },
    glob: { pattern: '**/*.env' },
    mcp_github_create_issue: { title: 'x' },
    mcp_gitlab_list_repos: { owner: 'x' },
    mcp_github_list_repos: { owner: 'x' },
    invoke_agent: { agent_name: 'codebase_investigator', prompt: 'x' },
    web_fetch: { prompt: 'x' },
  }[name];
  return { name, args };
}

const MODES = ['default', 'default', 'autoEdit', 'plan', 'yolo'];
const TIERS = [4, 4, 4, 5, 3, 2, 1];

export async function geminiDiff({ r, pairs, models, onDisagreement }) {
  const N = models.native;
  const core = await import(require.resolve('@google/gemini-cli-core'));
  const defaultsDir = join(dirname(require.resolve('@google/gemini-cli-core')), 'src', 'policy', 'policies');
  const defaults = readdirSync(defaultsDir).filter((f) => f.endsWith('.toml')).sort().map((f) => join(defaultsDir, f));
  const root = mkdtempSync(join(tmpdir(), 'native-diff-gemini-'));
  // The engine's workspace is the process's working directory: an empty folder of our own, so that no
  // symlink and no file named like an option is there (the model's stated assumptions).
  const workspace = join(root, 'workspace');
  mkdirSync(join(workspace, 'sub'), { recursive: true });
  const before = process.cwd();
  process.chdir(workspace);
  const facts = { workspace: realpathSync(workspace), home: homedir(), trustedFolder: true };
  const quiet = { log: console.log, debug: console.debug, error: console.error, warn: console.warn, info: console.info };
  const hush = () => Object.assign(console, { log() {}, debug() {}, error() {}, warn() {}, info() {} });
  const speak = () => Object.assign(console, quiet);
  let done = 0;
  let agree = 0;
  let disagree = 0;
  let exact = 0;
  let bounded = 0;
  let files = 0;
  let loadChecks = 0;
  let droppedFiles = 0;
  const decisions = { allow: 0, deny: 0, ask_user: 0 };
  while (done < pairs) {
    // One scenario: one or two generated files at tiers, sometimes the bundled default policies.
    const paths = [];
    const tiers = new Map();
    if (r.chance(0.3)) for (const d of defaults) (paths.push(d), tiers.set(d, 1));
    const nFiles = 1 + (r.chance(0.3) ? 1 : 0);
    for (let i = 0; i < nFiles; i++) {
      let text = Array.from({ length: 1 + r.int(6) }, () => genRule(r)).join('\n');
      // Often a catch-all with a pattern below the rest, so that the agent's heuristics stay out of the way.
      if (r.chance(0.5)) text += `\n[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = ".*"\ndecision = ${toml(r.pick(['allow', 'deny', 'ask_user']))}\npriority = ${r.pick([0, 1, 5])}\n`;
      const file = join(root, `p${files++}.toml`);
      writeFileSync(file, text);
      paths.push(file);
      tiers.set(file, r.pick(TIERS));
    }
    const mode = r.pick(MODES);
    const nonInteractive = r.chance(0.3);
    hush();
    let loaded;
    try {
      loaded = await core.loadPoliciesFromToml(paths, (p) => tiers.get(p));
    } finally {
      speak();
    }
    const inputs = paths.map((p) => N.geminiPolicyFileInput(N.readGeminiPolicy(p, readFileSync(p, 'utf8')), tiers.get(p)));
    const model = N.loadGeminiPolicies(inputs);
    // The loader: the same rules, in the same order, at the same priorities, with the same patterns.
    loadChecks++;
    const shape = (rs) => rs.map((x) => `${x.toolName}|${x.decision}|${x.priority}|${x.argsPattern?.source ?? x.argsPattern ?? ''}|${x.allowRedirection ?? ''}|${(x.modes ?? []).join(',')}|${x.interactive ?? ''}`);
    const engineShape = shape(loaded.rules);
    const modelShape = shape(model.rules);
    if (JSON.stringify(engineShape) !== JSON.stringify(modelShape)) {
      disagree++;
      done++;
      onDisagreement({ agent: 'gemini', load: true, files: paths.filter((p) => !defaults.includes(p)).map((p) => readFileSync(p, 'utf8')), engine: engineShape, model: modelShape, engineErrors: loaded.errors.map((e) => e.details) });
      continue;
    }
    droppedFiles += model.issues.filter((i) => i.kind === 'file-dropped').length;
    const trusted = r.chance(0.8);
    const engine = new core.PolicyEngine({ rules: loaded.rules, checkers: [], nonInteractive, approvalMode: mode, isTrustedFolder: () => trusted });
    // Mostly with the run's facts (the heuristics decided exactly), sometimes without (their decisions bounded).
    const policy = N.geminiPolicy(model.rules, models.bash, { mode, nonInteractive, ...(r.chance(0.9) ? { facts: { ...facts, trustedFolder: trusted } } : {}) });
    const calls = 6 + r.int(8);
    for (let c = 0; c < calls && done < pairs; c++, done++) {
      const call = genCall(r);
      hush();
      let got;
      try {
        got = (await engine.check({ name: call.name, args: call.args }, undefined, undefined, call.subagent)).decision;
      } finally {
        speak();
      }
      const want = policy.decide({ name: call.name, args: call.args }, call.subagent ? { subagent: call.subagent } : {});
      decisions[got] = (decisions[got] ?? 0) + 1;
      if (want.decisions.length === 1) exact++;
      else bounded++;
      if (want.decisions.includes(got) && (want.decisions.length === 1 || want.notModelled.length > 0)) agree++;
      else {
        disagree++;
        onDisagreement({ agent: 'gemini', mode, nonInteractive, files: paths.filter((p) => !defaults.includes(p)).map((p) => `tier ${tiers.get(p)}:\n${readFileSync(p, 'utf8')}`), defaults: paths.some((p) => defaults.includes(p)), call, engine: got, model: want.decisions, rule: want.rule?.source });
      }
    }
  }
  process.chdir(before);
  return { pairs: done, agree, disagree, files, detail: { exact, boundedByHeuristics: bounded, loadChecks, droppedFiles, engineDecisions: decisions } };
}
