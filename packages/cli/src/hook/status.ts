/**
 * `verdict hook status`: whether the installed guard would hold, agent by agent. It reads every
 * file the agent reads hooks from (with the agent's home variables), and says for each whether the
 * verdict hook is there, which events and tools it covers, and what would keep it from running: a
 * file that does not parse, a switch that turns hooks off, a program that is missing, an entry
 * without the agent's fail-closed setting, a Codex hook not trusted by its hash, a policy that does
 * not load, an agent version whose reading of the deny fails open. Exit 1 when the guard would not
 * hold for an agent checked. Nothing here runs the hook or changes a file; the agent's version is
 * asked with `<agent> --version` when the agent is on PATH.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { AGENT_CATALOGUES, HOOK_AGENTS, hookAgentChoices, hookAgentOf, type HookAgent } from '@verdict/engine';
import { type CommandIo, type Parsed, UsageError } from '../args.ts';
import { AGENT_CONFIGS, type AgentHomes, agentHomes, CLEARED_BEFORE_SHELL, CLEARED_ENV, type FoundHandler, HOOK_TIMEOUT_S, ourHandlers } from './install.ts';
import { codexHookHash, codexHookKey, readCodexState } from './codex-trust.ts';

interface LevelReport {
  name: string;
  file: string;
  /** What the file says, in a few words. */
  state: string;
  handlers: FoundHandler[];
}

interface AgentReport {
  agent: HookAgent;
  title: string;
  holds: boolean;
  levels: LevelReport[];
  lines: string[];
  /** Why the guard would not hold. */
  problems: string[];
  /** Fail-open windows left (the guard holds, but these remain). */
  windows: string[];
}

/** The words of a simple POSIX shell command text (quotes and backslashes; no expansions). */
function shellWords(text: string): string[] {
  const words: string[] = [];
  let cur: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      cur = (cur ?? '') + text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
    } else if (c === '"') {
      let j = i + 1;
      let s = '';
      for (; j < text.length && text[j] !== '"'; j++) s += text[j] === '\\' && j + 1 < text.length ? text[++j] : text[j];
      cur = (cur ?? '') + s;
      i = j;
    } else if (c === '\\' && i + 1 < text.length) cur = (cur ?? '') + text[++i];
    else if (c === ' ' || c === '\t' || c === '\n') {
      if (cur !== undefined) words.push(cur);
      cur = undefined;
    } else cur = (cur ?? '') + c;
  }
  if (cur !== undefined) words.push(cur);
  return words;
}

interface ParsedCommand {
  wrapped: boolean;
  program: string[];
  policy?: string;
  log?: string;
  config?: string;
}

/** The program and options of a command `hook install` wrote (any of its forms, older ones included). */
export function parseOurCommand(command: string): ParsedCommand {
  let inner = command;
  const open = command.indexOf('o=$(');
  const close = command.indexOf('); s=$?');
  const wrapped = open >= 0 && close > open;
  if (wrapped) inner = command.slice(open + 4, close);
  const words = shellWords(inner);
  const at = words.findIndex((w, i) => w === 'hook' && words[i + 1] === '--agent');
  let program = at >= 0 ? words.slice(0, at) : words;
  if (program[0] === '/usr/bin/env') {
    program = program.slice(1);
    while (program[0] === '-u') program = program.slice(2);
  }
  const out: ParsedCommand = { wrapped, program };
  for (let i = at + 3; at >= 0 && i < words.length; i++) {
    const w = words[i];
    const next = words[i + 1];
    if (next === undefined) break;
    if (w === '--policy') out.policy = next;
    else if (w === '--log') out.log = next;
    else if (w === '--config') out.config = next;
    else continue;
    i++;
  }
  return out;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `2.1.328` from a version line, as numbers. */
function versionOf(text: string): number[] | undefined {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function older(v: number[], than: [number, number, number]): boolean {
  for (let i = 0; i < 3; i++) if (v[i] !== than[i]) return (v[i] ?? 0) < than[i]!;
  return false;
}

function agentVersion(agent: HookAgent, env: NodeJS.ProcessEnv): { text: string; version?: number[] } {
  const name = AGENT_CATALOGUES[agent].client;
  if (name === undefined) return { text: 'not asked (no command-line client to ask)' };
  if (!env['PATH']) return { text: `unknown (\`${name}\` is not on PATH)` };
  const r = spawnSync(name, ['--version'], { env, encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return { text: `unknown (\`${name}\` is not on PATH)` };
  if (r.error || r.status !== 0) return { text: `unknown (\`${name} --version\` did not answer)` };
  const version = versionOf(r.stdout);
  return version ? { text: `${version.join('.')} (\`${name} --version\`)`, version } : { text: `unknown (\`${name} --version\` printed no version)` };
}

function readJsonFile(file: string): { value: Record<string, unknown>; text: string } | { error: string } | undefined {
  if (!existsSync(file)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { error: `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})` };
  }
  if (text.trim() === '') return { value: {}, text: '{}' };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'is not a JSON object' };
    return { value: value as Record<string, unknown>, text };
  } catch {
    return { error: 'does not parse as JSON' };
  }
}

const everyTool = (m: string | undefined): boolean => m === undefined || m === '' || m === '*';

async function policyLoads(file: string): Promise<string | undefined> {
  const { loadPolicy } = await import('./run.ts');
  try {
    await loadPolicy(file, []);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message.replace(/^verdict: /, '') : String(err);
  }
}

async function checkAgent(agent: HookAgent, cwd: string, homes: AgentHomes, env: NodeJS.ProcessEnv): Promise<AgentReport> {
  const config = AGENT_CONFIGS[agent];
  const report: AgentReport = { agent, title: config.title, holds: false, levels: [], lines: [], problems: [], windows: [] };
  const covered = new Set<string>();
  const handlers: { level: LevelReport; h: FoundHandler }[] = [];
  for (const level of config.levels(cwd, homes)) {
    const lr: LevelReport = { name: level.name, file: level.file, state: '', handlers: [] };
    report.levels.push(lr);
    const read = readJsonFile(level.file);
    if (read === undefined) {
      lr.state = 'no file';
      continue;
    }
    if ('error' in read) {
      lr.state = `the file ${read.error}`;
      report.problems.push(`${level.file} ${read.error}: ${config.title} skips what it cannot read, and what it says cannot be checked`);
      continue;
    }
    lr.handlers = ourHandlers(read.text);
    for (const h of lr.handlers) handlers.push({ level: lr, h });
    const events = [...new Set(lr.handlers.map((h) => h.event))];
    const tools = lr.handlers.every((h) => everyTool(h.matcher)) ? 'every tool' : `tools matching ${[...new Set(lr.handlers.map((h) => h.matcher))].join(', ')}`;
    lr.state = lr.handlers.length === 0 ? 'no verdict hook' : `the verdict hook on ${events.join(', ')} (${tools})`;
    for (const h of lr.handlers) if (everyTool(h.matcher) && config.events.includes(h.event)) covered.add(h.event);
    // Switches that turn hooks off.
    const v = read.value;
    if (agent === 'claude' && v['disableAllHooks'] === true) report.problems.push(`${level.file} sets \`disableAllHooks: true\`: Claude Code runs no hook`);
    if (agent === 'claude' && v['allowManagedHooksOnly'] === true) report.problems.push(`${level.file} sets \`allowManagedHooksOnly: true\`: Claude Code runs only managed hooks`);
    if (agent === 'gemini') {
      const hc = v['hooksConfig'];
      const o = typeof hc === 'object' && hc !== null ? (hc as Record<string, unknown>) : {};
      if (o['enabled'] === false) report.problems.push(`${level.file} sets \`hooksConfig.enabled: false\`: Gemini CLI runs no hook`);
      if (Array.isArray(o['disabled']) && o['disabled'].includes('verdict')) report.problems.push(`${level.file} lists \`verdict\` in \`hooksConfig.disabled\`: Gemini CLI skips it`);
    }
  }
  // A home variable that moves the user level: an install at the default place is not read.
  const { settings } = AGENT_CATALOGUES[agent];
  const variable = settings.homeVariable?.name;
  const moved = variable !== undefined && env[variable] ? join(homes.home, settings.folder, settings.hookFile) : undefined;
  if (variable !== undefined && moved !== undefined && resolve(moved) !== resolve(config.levels(cwd, homes)[0]!.file)) {
    const read = readJsonFile(moved);
    if (read !== undefined && !('error' in read) && ourHandlers(read.text).length > 0) {
      report.lines.push(`ignored  ${moved}: holds the verdict hook, but ${config.title} does not read it while ${variable} is ${env[variable]}`);
      report.problems.push(`the hook in ${moved} is not read: ${variable} points ${config.title} at ${config.levels(cwd, homes)[0]!.file} (run \`verdict hook install\` with the same ${variable})`);
    }
  }
  const missing = config.events.filter((e) => !covered.has(e));
  if (handlers.length === 0) report.problems.push(`the verdict hook is installed in no file ${config.title} reads`);
  else if (missing.length > 0) report.problems.push(`no verdict hook on every tool for ${missing.join(', ')}`);

  // The command, each entry's fail-closed settings, the policy.
  const programs = new Set<string>();
  const absent = new Set<string>();
  const policies = new Set<string>();
  for (const { level, h } of handlers) {
    const c = parseOurCommand(h.command);
    // The program (executable), and the script it runs when it is Node and the CLI script.
    c.program.slice(0, 2).forEach((p, i) => {
      programs.add(p);
      if (i === 0 ? !executable(p) : !existsSync(p)) absent.add(p);
    });
    if (c.config !== undefined) {
      const { readHookConfig } = await import('./hook-config.ts');
      const read = readHookConfig(c.config, cwd);
      if ('problem' in read) report.problems.push(read.problem);
      else policies.add(read.policy);
    } else if (c.policy !== undefined) policies.add(c.policy);
    else report.problems.push(`${level.file}: the ${h.event} command names no policy`);
    const where = `${level.file} (${h.event})`;
    if (agent !== 'cursor' && !c.wrapped) report.problems.push(`${where}: the command has no failure wrapper: if Verdict cannot start or crashes, ${config.title} runs the tool (install again)`);
    for (const [key, value] of Object.entries(config.failClosed ?? {})) {
      if (h.value[key] !== value) report.problems.push(`${where}: no \`${key}: ${JSON.stringify(value)}\` (install again)`);
    }
    if (agent === 'gemini') {
      const e = h.value['env'];
      const cleared = typeof e === 'object' && e !== null ? (e as Record<string, unknown>) : {};
      const left = [...CLEARED_ENV, ...CLEARED_BEFORE_SHELL].filter((k) => cleared[k] !== '');
      if (left.length > 0) report.problems.push(`${where}: the entry's \`env\` does not clear ${left.join(', ')}: a trusted project's .env reaches the hook (install again)`);
    }
    if (typeof h.value['timeout'] === 'number' && h.value['timeout'] < (agent === 'gemini' ? HOOK_TIMEOUT_S * 1000 : HOOK_TIMEOUT_S) / 3) {
      report.problems.push(`${where}: the timeout ${h.value['timeout']} is shorter than Verdict's own deadline: the agent's timeout would answer first, and it lets the tool run`);
    }
  }
  if (programs.size > 0) {
    const list = [...programs].join(', ');
    const gone = [...absent].join(', ');
    report.lines.push(`program  ${list}: ${absent.size === 0 ? 'found' : `missing ${gone}`}`);
    if (absent.size > 0) report.problems.push(`the hook's program is missing (${gone}): every call is denied by the failure wrapper; install again from where Verdict is now`);
  }
  for (const policy of policies) {
    const why = await policyLoads(policy);
    report.lines.push(`policy   ${policy}: ${why === undefined ? 'loads' : 'does not load'}`);
    if (why !== undefined) report.problems.push(`${why}: every call is denied`);
  }

  // Codex: the hooks feature, and trust by hash.
  if (agent === 'codex' && handlers.length > 0) {
    const state = readCodexState([join(homes.user.codex, 'config.toml'), join(cwd, '.codex', 'config.toml')]);
    if (!state.ok) report.problems.push(`${state.file} does not parse (${state.error}): Codex's trust in the hook cannot be checked`);
    else {
      if (state.hooksFeature === false) report.problems.push('a Codex config.toml sets `[features] hooks = false`: Codex runs no hook');
      const untrusted: string[] = [];
      for (const { level, h } of handlers) {
        const key = codexHookKey(level.file, h.event, h.group, h.handler);
        const s = state.states.get(key);
        if (s?.enabled === false) report.problems.push(`${key} is disabled in Codex's config.toml`);
        const hash = codexHookHash(h.event, h.matcher, h);
        if (s?.trustedHash === undefined) untrusted.push(`${h.event} (${level.name}): not trusted`);
        else if (s.trustedHash !== hash) untrusted.push(`${h.event} (${level.name}): changed since it was trusted`);
      }
      if (handlers.some(({ level }) => level.name === 'project')) {
        const trusted = state.trustedProjects.some((p) => cwd === p || cwd.startsWith(p.endsWith('/') ? p : `${p}/`));
        if (!trusted) report.problems.push(`Codex loads a project's .codex/ only in a trusted project, and no \`[projects."…"] trust_level = "trusted"\` in ${join(homes.user.codex, 'config.toml')} names ${cwd} or a folder above it`);
      }
      report.lines.push(`trust    ${untrusted.length === 0 ? 'Codex trusts every verdict hook entry (hash matches)' : untrusted.join('; ')}`);
      if (untrusted.length > 0) report.problems.push('Codex skips an untrusted or changed hook silently: open `/hooks` in Codex and trust the verdict hook');
    }
  }

  // The agent's version, and what stays open in it.
  const v = agentVersion(agent, env);
  report.lines.push(`version  ${v.text}`);
  switch (agent) {
    case 'claude':
      if (v.version && older(v.version, [2, 1, 90])) report.problems.push(`Claude Code ${v.version.join('.')} does not block on a deny with JSON beside exit 2 (fixed in 2.1.90): upgrade`);
      else if (!v.version) report.windows.push('before 2.1.90, Claude Code lets a deny with JSON beside exit 2 through: check the version');
      if (!v.version || older(v.version, [2, 1, 295])) report.windows.push("before 2.1.295 (2.1.240 measured), `onFailure` is ignored: the agent's own timeout lets the call run (Verdict answers within 10 s)");
      break;
    case 'codex':
      report.windows.push("Codex has no fail-closed switch: its own timeout lets the call run (Verdict answers within 10 s); a changed command must be trusted again in /hooks");
      break;
    case 'gemini':
      report.windows.push("Gemini CLI's own timeout lets the call run (Verdict answers within 10 s)");
      break;
    case 'cursor':
      report.windows.push("Cursor is not measured through its client (it is not on the npm registry): tested against a model of its hook reader");
      break;
  }
  report.holds = report.problems.length === 0;
  return report;
}

function render(r: AgentReport): string {
  const out = [`${r.title}: ${r.holds ? 'the guard holds' : 'the guard would NOT hold'}`];
  for (const l of r.levels) out.push(`  ${l.name.padEnd(8)} ${l.file}: ${l.state}`);
  for (const l of r.lines) out.push(`  ${l}`);
  for (const w of r.windows) out.push(`  open     ${w}`);
  for (const p of r.problems) out.push(`  problem: ${p}`);
  return `${out.join('\n')}\n`;
}

export async function runStatus(args: Parsed<Record<string, { type: 'string' | 'boolean' }>>, io: CommandIo): Promise<number> {
  const v = args.values as Record<string, string | boolean | undefined>;
  if (v['help']) {
    const { hookCommand } = await import('../commands/hook.ts');
    io.stdout.write(`${hookCommand.usage}\n`);
    return 0;
  }
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument \`${args.positionals[0]}\` for \`verdict hook status\``);
  let chosen: HookAgent[] = [...HOOK_AGENTS];
  if (v['agent'] !== undefined) {
    const a = hookAgentOf(v['agent']);
    if (!a) throw new UsageError(`unknown agent \`${String(v['agent'])}\` (want ${hookAgentChoices()})`);
    chosen = [a];
  }
  const env = io.env ?? process.env;
  const cwd = typeof v['project'] === 'string' ? resolve(io.cwd, v['project']) : io.cwd;
  const homes = agentHomes(env, io.cwd);
  const reports: AgentReport[] = [];
  for (const agent of chosen) reports.push(await checkAgent(agent, cwd, homes, env));
  // Without --agent, an agent with no trace of the hook is not one the user guards.
  const shown = v['agent'] !== undefined ? reports : reports.filter((r) => r.levels.some((l) => l.handlers.length > 0) || r.lines.some((l) => l.startsWith('ignored')) || r.levels.some((l) => l.state.startsWith('the file')));
  if (v['json']) {
    const doc = shown.map((r) => ({ agent: r.agent, holds: r.holds, levels: r.levels.map((l) => ({ level: l.name, file: l.file, state: l.state })), problems: r.problems, windows: r.windows }));
    io.stdout.write(`${JSON.stringify({ holds: shown.length > 0 && shown.every((r) => r.holds), agents: doc }, null, 2)}\n`);
  } else {
    if (shown.length === 0) io.stdout.write('the verdict hook is installed for no agent (`verdict hook install --agent AGENT --policy FILE`)\n');
    io.stdout.write(shown.map(render).join('\n'));
  }
  return shown.length > 0 && shown.every((r) => r.holds) ? 0 : 1;
}
