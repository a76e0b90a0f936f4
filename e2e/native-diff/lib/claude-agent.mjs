// Claude Code, the agent itself: its matcher is closed source, so the differential runs the real client
// (`claude -p`, no hook, no `--dangerously-skip-permissions`) against the real-agent suite's fake Messages
// server. Each session gets a generated `permissions` block in the user settings and plays generated `Bash`
// commands, one per model turn. Every program a command names is a stub on PATH that prints `STUB-RAN`, so
// nothing real runs; the tool result the client sends back to the model says which way it decided:
//   the stub's output                                      -> allow (the command ran)
//   "Permission to use Bash with command … has been denied" -> deny
//   "Claude requested permissions to use Bash …"            -> ask (an ask rule matched; -p cannot ask)
//   "This command requires approval" / "… part(s) require(s) approval" -> none (no rule decided; -p cannot ask)
//   "Exit code 127 … command not found", "(Bash completed with no output)" (its output went to a file)
//                                                           -> allow (the shell ran it)
//   "Output redirection to … needs approval", "A nested command … can't be checked before it runs"
//                                                           -> none (the client's own checks ask)
// Verdict's model of Claude Code's rules (packages/native, nativeDecider) predicts the answer: allow and deny
// exactly; a model's ask agrees with the client's ask or its own prompt (a compound command's message names the
// parts that need approval, not which of them an ask rule matched), a model's none only with a prompt.
// The programs are ones Claude Code does not treat as read-only (those run with no rule at all).
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeServer } from '../../agents/lib/servers.mjs';

const here = new URL('..', import.meta.url).pathname;
export const claudeBinary = () => join(here, '..', 'agents', 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');

const PROGRAMS = ['npm', 'mytool', 'docker', 'make', 'kubectl'];
// `docker ps` and the like are read-only to the client (run with no rule): the words stay off them.
const SUBS = ['test', 'run', 'build', 'push', 'deploy'];
const FLAGS = ['--force', '-v', '--all'];

/** A rule's specifier for program p, in every form Claude Code's documentation gives. */
const RULE_FORMS = [
  (p) => `Bash(${p})`,
  (p) => `Bash(${p}:*)`,
  (p) => `Bash(${p} *)`,
  (p, s) => `Bash(${p} ${s})`,
  (p, s) => `Bash(${p} ${s}:*)`,
  (p, s) => `Bash(${p} ${s} *)`,
  (p, s) => `Bash(${p} ${s}*)`,
  (p, s) => `Bash(${p}*)`,
  (p, s, f) => `Bash(${p} ${s} ${f}:*)`,
  (p, s, f) => `Bash(${p} * ${f})`,
  (p, s) => `Bash(* ${s})`,
  (p, s, f) => `Bash(${p} ${s} ${f})`,
];
const RARE_RULES = ['Bash', 'Bash(*)'];

/** Commands around program p: the rule's own text, extra words, respellings, compounds, wrappers. */
const COMMAND_FORMS = [
  (p) => p,
  (p, s) => `${p} ${s}`,
  (p, s) => `${p} ${s} x`,
  (p, s, f) => `${p} ${s} ${f}`,
  (p, s, f) => `${p} ${f} ${s}`,
  (p, s) => `${p}  ${s}`,
  (p, s) => `${p} ${s}x`,
  (p, s) => `${p}${s}`,
  (p, s) => `"${p}" ${s}`,
  (p, s) => `${p} "${s}"`,
  (p, s) => `${p} '${s}'`,
  (p, s, f, q) => `${p} ${s} && ${q} ${s}`,
  (p, s, f, q) => `${p} ${s}; ${q}`,
  (p, s, f, q) => `${p} ${s} | ${q}`,
  (p, s, f, q) => `${p} ${s} || ${q} ${f}`,
  (p, s) => `env ${p} ${s}`,
  (p, s) => `timeout 5 ${p} ${s}`,
  (p, s) => `nice ${p} ${s}`,
  (p, s) => `FOO=1 ${p} ${s}`,
  (p, s) => `${p} ${s} > out.txt`,
  (p, s) => `${p} ${s} 2>&1`,
  (p, s) => `${p} ${s} # note`,
  (p, s) => `bash -c '${p} ${s}'`,
  (p, s) => `(${p} ${s})`,
  (p, s) => `echo $(${p} ${s})`,
  (p, s, f) => `${p} ${s} ${f} x y`,
];

const LISTS = ['allow', 'ask', 'deny'];

function generate(r, sessions, perSession) {
  const out = [];
  for (let i = 0; i < sessions; i++) {
    const permissions = { allow: [], ask: [], deny: [] };
    const n = 1 + r.int(5);
    // A session's rules and commands share a few programs, so that rules meet the commands they are about.
    const progs = [r.pick(PROGRAMS), r.pick(PROGRAMS)];
    for (let k = 0; k < n; k++) {
      const rule = r.chance(0.03) ? r.pick(RARE_RULES) : r.pick(RULE_FORMS)(r.pick(progs), r.pick(SUBS), r.pick(FLAGS));
      permissions[r.pick(LISTS)].push(rule);
    }
    const commands = [];
    for (let k = 0; k < perSession; k++) commands.push(r.pick(COMMAND_FORMS)(r.pick(progs), r.pick(SUBS), r.pick(FLAGS), r.pick(PROGRAMS)));
    out.push({ permissions, commands });
  }
  return out;
}

/** The client's answer, read from the tool result the model was sent. */
export function observed(text) {
  // The shell ran it (a program of no stub's name is "not found": the client let it run all the same).
  if (text.includes('STUB-RAN') || /^Exit code 127\n.*command not found/s.test(text) || text === '(Bash completed with no output)') return 'allow';
  // A bare `Bash` deny takes the tool away: "No such tool available: Bash".
  if (/Permission to use Bash with command .* has been denied/s.test(text) || text.includes('No such tool available: Bash')) return 'deny';
  if (text.includes('requested permissions to use Bash')) return 'ask';
  if (/requires? approval/.test(text)) return 'none';
  // The client's own checks, which ask whatever the rules say: a redirection that writes in the project, a
  // command substitution it cannot check before it runs.
  if (/^Output redirection to .* needs approval/s.test(text) || text.includes("can't be checked before it runs")) return 'none';
  return undefined;
}

function runClaude(session, root, i) {
  const base = join(root, `s${i}`);
  const home = join(base, 'home');
  const proj = join(base, 'proj');
  const stubs = join(base, 'stubs');
  for (const d of [join(home, '.claude'), proj, stubs]) mkdirSync(d, { recursive: true });
  for (const p of PROGRAMS) {
    writeFileSync(join(stubs, p), `#!/bin/sh\necho "STUB-RAN ${p} $*"\n`);
    chmodSync(join(stubs, p), 0o755);
  }
  writeFileSync(join(home, '.claude', 'settings.json'), `${JSON.stringify({ permissions: session.permissions }, null, 2)}\n`);
  return claudeServer(session.commands.map((command) => ({ tool: 'Bash', input: { command } })), { lifeMs: 300_000 }).then(
    (server) =>
      new Promise((done) => {
        const env = {
          PATH: `${stubs}:/usr/bin:/bin`, HOME: home, LANG: 'C.UTF-8', SHELL: '/bin/bash', USER: process.env.USER ?? 'root', TERM: 'dumb',
          ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.port}`, ANTHROPIC_API_KEY: 'dummy', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1', IS_SANDBOX: '1',
        };
        const child = spawn(claudeBinary(), ['-p', 'go', '--output-format', 'json'], { cwd: proj, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
        let err = '';
        child.stderr.on('data', (d) => (err = (err + d).slice(-2000)));
        const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 240_000);
        child.on('close', async (code) => {
          clearTimeout(timer);
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {}
          const results = server.record.results.map((x) => x.text);
          await server.close();
          done({ code, err, results, settings: join(home, '.claude', 'settings.json'), proj, home });
        });
      }),
  );
}

/** Verdict's model of the client for one session's settings: `nativeDecider` over the same file it was given. */
async function claudeDecider(N, file, permissions, proj, home) {
  const text = `${JSON.stringify({ permissions }, null, 2)}\n`;
  const read = N.readClaudeSettings(file, text, { scope: 'user' });
  const decider = await N.nativeDecider([read], { cwd: proj, home });
  return (command) => decider.decide({ tool: 'Bash', input: { command } });
}

/**
 * Verdict's model (`nativeDecider` of packages/native) answers allow | ask | deny | none for each command.
 * Sessions run `jobs` at a time; a command the client answered in a way none of the four texts shows is
 * a disagreement (reported with its text), as is a command the client never answered.
 */
export async function claudeAgentDiff({ r, cases, models, onDisagreement, perSession = 25, jobs = 3 }) {
  if (!existsSync(claudeBinary())) throw new Error(`Claude Code is not installed at ${claudeBinary()}: run \`npm ci\` in e2e/agents`);
  const sessions = generate(r, Math.ceil(cases / perSession), perSession);
  const root = mkdtempSync(join(tmpdir(), 'native-diff-claude-agent-'));
  const runs = new Array(sessions.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (next < sessions.length) {
        const i = next++;
        runs[i] = await runClaude(sessions[i], root, i);
      }
    }),
  );
  let pairs = 0;
  let agree = 0;
  let disagree = 0;
  const byAnswer = { allow: 0, ask: 0, deny: 0, none: 0 };
  const deciders = await Promise.all(sessions.map((s, i) => claudeDecider(models.native, runs[i].settings, s.permissions, runs[i].proj, runs[i].home)));
  sessions.forEach((s, i) => {
    s.commands.forEach((command, k) => {
      pairs++;
      const text = runs[i].results[k];
      const client = text === undefined ? undefined : observed(text);
      const verdict = deciders[i](command);
      const model = verdict.decision;
      if (client) byAnswer[client]++;
      // Under -p an ask and the client's own prompts are one answer (the command does not run), except that
      // the client names a matching ask rule for a single command ("Claude requested permissions").
      if (client !== undefined && (client === model || (client === 'none' && model === 'ask'))) agree++;
      else {
        disagree++;
        onDisagreement({ agent: 'claude-agent', permissions: s.permissions, command, client: client ?? null, model, cannotDecide: verdict.cannotDecide, text: text?.slice(0, 300) ?? null, exit: runs[i].code, stderr: text === undefined ? runs[i].err.slice(-400) : undefined });
      }
    });
  });
  return { pairs, agree, disagree, files: sessions.length, detail: { client: byAnswer } };
}
