// One case through one real agent: a fresh home and project, the fake model server, `verdict hook
// install` (unless the run is the no-hook baseline), the agent headless with a timeout, and the
// outcome read from disk and from what the model was sent back.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseEnv, REPO } from './agents.mjs';
import { baseProject } from './cases.mjs';

export const VERDICT = join(REPO, 'packages', 'cli', 'bin', 'verdict.mjs');
const AGENT_TIMEOUT_MS = 90_000;

function runAgent(a, ctx, port, extraEnv) {
  const env = { ...baseEnv(ctx.home), ...a.env(port), ...extraEnv };
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(a.bin, a.argv(ctx), { cwd: ctx.proj, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (out.length < 200_000 ? (out += d) : undefined));
    child.stderr.on('data', (d) => (out.length < 200_000 ? (out += d) : undefined));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }, AGENT_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: -1, out: `${out}\nspawn error: ${err.message}`, ms: performance.now() - started, timedOut });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      // The agent may leave a process group behind (a background shell): end it.
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      resolve({ code, out, ms: performance.now() - started, timedOut });
    });
  });
}

function starterPolicy(a, proj) {
  const text = readFileSync(join(REPO, 'fixtures', 'policies', a.starter), 'utf8');
  // The starters name the project /workspace: this run's project is elsewhere.
  return text.replaceAll('/workspace', proj);
}

/** Install the hook into the case's home the way a user would. */
function install(a, ctx, c, homes) {
  const args = [VERDICT, 'hook', 'install', '--agent', a.verdictAgent, '--policy', ctx.policy, '--log', ctx.log];
  if (c.install?.binary) args.push('--binary', c.install.binary);
  // The user's shell holds the agent's home variables (CODEX_HOME, GEMINI_CLI_HOME) when they install, as when they run the agent.
  const r = spawnSync(process.execPath, args, { cwd: ctx.proj, env: { ...baseEnv(ctx.home), ...homes }, encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new Error(`verdict hook install failed (${r.status}): ${r.stderr}`);
  return r.stdout + r.stderr;
}

function hookLog(ctx) {
  if (!existsSync(ctx.log)) return [];
  return readFileSync(ctx.log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return { unparsed: l };
      }
    });
}

/** Run case `c` on agent `a`, hooked or not. */
export async function runCase(a, c, { hooked, root }) {
  const base = realpathSync(mkdtempSync(join(root ?? tmpdir(), `${a.id}-${c.id}-${hooked ? 'h' : 'n'}-`.replace(/[^A-Za-z0-9_/-]/g, '_'))));
  const ctx = { base, home: join(base, 'home'), proj: join(base, 'proj'), outside: join(base, 'outside'), policy: join(base, 'policy.yaml'), log: join(base, 'hook.log'), hooked, untrusted: c.untrusted, trustProject: c.trustProject, mcp: c.mcp };
  mkdirSync(ctx.home, { recursive: true });
  mkdirSync(ctx.proj, { recursive: true });
  ctx.env = baseEnv(ctx.home);
  baseProject(ctx);
  c.setup?.(ctx);
  // A case may add one allow rule to the starter (as a user widening it would).
  if (c.policy === undefined) writeFileSync(ctx.policy, starterPolicy(a, ctx.proj).replace(/^  allow:\n/m, (m) => (c.allowRule ? `${m}    - ${c.allowRule}\n` : m)));
  else if (c.policy !== null) writeFileSync(ctx.policy, c.policy);
  const setupCalls = c.setupCalls ? c.setupCalls(ctx) : [];
  const calls = [...setupCalls, ...(typeof c.calls === 'function' ? c.calls(ctx) : c.calls)];
  // Claude Code's Write refuses to replace a file it has not read: read it first.
  if (a.id.startsWith('claude')) {
    for (let i = 0; i < calls.length; i++) {
      const p = calls[i].tool === 'Write' ? calls[i].input.file_path : undefined;
      if (p && existsSync(p)) {
        calls.splice(i, 0, a.read(p));
        i++;
      }
    }
  }
  const extraEnv = { ...(c.env ?? {}) };
  const result = { agent: a.id, agentName: a.name, version: a.version, case: c.id, hooked, sessions: [] };
  const sessions = [calls, ...(c.session2 ? [c.session2] : [])];
  let installOut = '';
  for (let s = 0; s < sessions.length; s++) {
    const server = await a.server(sessions[s], { lifeMs: AGENT_TIMEOUT_MS + 10_000 });
    try {
      if (c.codexHomeElsewhere) {
        ctx.codexHome = join(ctx.base, 'codex-home');
        extraEnv.CODEX_HOME = ctx.codexHome;
      }
      if (c.geminiHomeElsewhere && s === 0) {
        ctx.geminiHome = join(ctx.base, 'gemini-home');
        mkdirSync(ctx.geminiHome, { recursive: true });
        extraEnv.GEMINI_CLI_HOME = ctx.geminiHome;
        // The CLI's home is $GEMINI_CLI_HOME/.gemini: give it the same auth settings.
        a.prepareHome({ ...ctx, home: ctx.geminiHome });
      }
      a.prepareHome(ctx, server.port);
      if (hooked && s === 0) installOut = install(a, ctx, c, Object.fromEntries(Object.entries(extraEnv).filter(([k]) => k === 'CODEX_HOME' || k === 'GEMINI_CLI_HOME')));
      const run = await runAgent(a, ctx, server.port, extraEnv);
      result.sessions.push({ code: run.code, ms: Math.round(run.ms), timedOut: run.timedOut, results: server.record.results, requests: server.record.requests.length, tools: server.record.tools, serverErrors: server.record.errors, tail: run.out.slice(-1500) });
    } finally {
      await server.close();
    }
  }
  const results = result.sessions.flatMap((s) => s.results);
  result.results = results.map((r) => r.text.slice(0, 600));
  result.effect = Boolean(c.effect(ctx, results));
  if (c.session2) result.effect2 = Boolean(c.effect2(ctx, results));
  result.log = hookLog(ctx).map((l) => ({ event: l.event, tool: l.tool, decision: l.decision, rule: l.rule, error: l.error, ms: l.ms }));
  result.installOut = installOut;
  result.base = base;
  return result;
}
