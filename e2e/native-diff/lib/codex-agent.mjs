// Codex, the agent itself: `codex execpolicy check` does not split `bash -lc` scripts, the agent does. One
// headless `codex exec` run (the same native binary) against the real-agent suite's fake Responses server plays
// every script as an `exec_command` call (the agent runs it as `[$SHELL, -lc, script]`); each script would
// create its own marker file through a program the rules forbid or prompt for (prompt is refused under
// `--dangerously-bypass-approvals-and-sandbox`, whose approval policy is `never`). The marker exists iff the
// agent let the script run; the model predicts that from its split and the same rules.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codexServer } from '../../agents/lib/servers.mjs';
import { codexConfig } from '../../agents/lib/agents.mjs';
import { codexBinary } from './codex.mjs';

const RULES = [
  'prefix_rule(pattern=["touch"], decision="forbidden")',
  'prefix_rule(pattern=["mkdir", "-p"], decision="prompt")',
  'prefix_rule(pattern=["cp", "/dev/null"], decision="allow")',
].join('\n');

// Shapes around one command `C M` (C a program the rules name, M the marker): plain chains the agent splits,
// and the constructs that keep it from splitting.
const SHAPES = [
  (c) => c, (c) => `true && ${c}`, (c) => `echo a; ${c}`, (c) => `echo a | ${c}`, (c) => `false || ${c}`, (c) => `${c};`,
  (c) => `  ${c}  `, (c) => `echo a\n${c}`, (c) => `${c} > /dev/null`, (c) => `${c} 2>&1`, (c) => `FOO=1 ${c}`,
  (c) => `${c} && echo $HOME`, (c) => `(${c})`, (c) => `${c} # note`, (c) => `if true; then ${c}; fi`,
  (c) => `echo "$(${c})"`, (c) => `${c} <<EOF\nx\nEOF`, (c) => `cat <<EOF > /dev/null\nx\nEOF\n${c}`, (c) => `env ${c}`,
  (c) => `echo "a b" && ${c}`, (c) => `echo 'a' && ${c}`, (c) => `{ ${c}; }`, (c) => `${c} & wait`, (c) => `echo \`true\` && ${c}`,
];
// Commands that create the marker, and (`del`) commands that delete a marker made beforehand: forced `rm`s are
// refused by Codex's dangerous-command check when no rule matches (approval `never`).
const COMMANDS = [
  (m) => `touch ${m}`, (m) => `"touch" ${m}`, (m) => `'touch' ${m}`, (m) => `to"uch" ${m}`, (m) => `\\touch ${m}`,
  (m) => `/usr/bin/touch ${m}`, (m) => `touch "${m}"`, (m) => `mkdir -p ${m}`, (m) => `mkdir ${m}`, (m) => `cp /dev/null ${m}`,
  (m) => `env touch ${m}`, (m) => `nice touch ${m}`,
  ...[
    (m) => `sudo rm -f ${m}`, (m) => `nice rm -f ${m}`, (m) => `timeout 5 rm -f ${m}`, (m) => `xargs rm -f ${m} < /dev/null`,
    (m) => `rm -f ${m}`, (m) => `rm -rf ${m}`, (m) => `rm -r -f ${m}`, (m) => `rm ${m} -f`, (m) => `rm --force ${m}`,
    (m) => `rm ${m}`, (m) => `rm -v ${m}`, (m) => `/bin/rm -f ${m}`, (m) => `rm -- ${m}`, (m) => `rm -fv ${m}`, (m) => `"rm" -f ${m}`,
    (m) => `rm '-f' ${m}`, (m) => `rm -i -f ${m}`, (m) => `rm --verbose ${m}`, (m) => `r"m" -f ${m}`,
  ].map((f) => Object.assign(f, { del: true })),
];

export async function codexAgentDiff({ r, cases, models, onDisagreement, only }) {
  const N = models.native;
  const root = mkdtempSync(join(tmpdir(), 'native-diff-codex-agent-'));
  const home = join(root, 'home');
  const codexHome = join(home, '.codex');
  const proj = join(root, 'project');
  mkdirSync(join(codexHome, 'rules'), { recursive: true });
  mkdirSync(proj, { recursive: true });
  writeFileSync(join(codexHome, 'rules', 'default.rules'), `${RULES}\n`);
  const read = N.codexRulesInput([N.readCodexRules('default.rules', RULES)]);
  const { policy } = N.compileCodexRules(read.input);
  const scripts = [];
  for (let i = 0; i < (only ? only.length : cases); i++) {
    const marker = `m${i}`;
    const command = only ? only[i] : r.pick(COMMANDS);
    scripts.push({ marker, script: only ? only[i](marker) : r.pick(SHAPES)(command(marker)), del: command.del === true });
    if (command.del) writeFileSync(join(proj, marker), 'x');
  }
  const server = await codexServer(scripts.map((s) => ({ tool: 'exec_command', input: { cmd: s.script, workdir: proj } })), { lifeMs: 600_000 });
  writeFileSync(join(codexHome, 'config.toml'), `${codexConfig(server.port)}\n[projects.${JSON.stringify(proj)}]\ntrust_level = "trusted"\n`);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: codexHome, LANG: 'C.UTF-8', SHELL: '/bin/bash', USER: process.env.USER ?? 'root', TERM: 'dumb', FAKE_API_KEY: 'x' };
  const code = await new Promise((done) => {
    const child = spawn(codexBinary(), ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', 'go'], { cwd: proj, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let err = '';
    child.stderr.on('data', (d) => (err = (err + d).slice(-4000)));
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 300_000);
    child.on('close', (c) => {
      clearTimeout(timer);
      done({ c, err });
    });
  });
  server.close();
  const answered = server.record.results.length;
  let agree = 0;
  let disagree = 0;
  let refusedByAgent = 0;
  let split = 0;
  let undecided = 0;
  scripts.forEach((s, i) => {
    const ran = existsSync(join(proj, s.marker)) !== s.del;
    if (!ran) refusedByAgent++;
    const argv = ['/bin/bash', '-lc', s.script];
    const m = N.decideCodexExec(policy, models.bash, argv, { resolveHostExecutables: true, cwd: proj });
    const never = N.decideCodexExecNever(policy, models.bash, argv, { resolveHostExecutables: true, cwd: proj });
    if (never === undefined) undecided++;
    const refused = never === undefined ? !ran : never === 'forbidden';
    if (m.view.kind !== 'argv') split++;
    if (i < answered && ran === !refused) agree++;
    else {
      disagree++;
      onDisagreement({ agent: 'codex-agent', script: s.script, ran, answered: i < answered, model: { view: m.view, decision: m.decision, atLeast: m.atLeast }, exit: code.c, stderr: i >= answered ? code.err.slice(-600) : undefined });
    }
  });
  return { pairs: scripts.length, agree, disagree, files: 1, detail: { toolResults: answered, refusedByAgent, splitByModel: split, undecidedByModel: undecided } };
}
