/**
 * `verdict hook install` / `uninstall`: the hook entries of one agent's configuration file.
 *
 * The file is edited as text (json-edit.ts): every byte outside the inserted or removed entries is
 * kept, and the result is checked against the same change made on the parsed value before anything
 * is written. Entries match every tool and set a timeout well above the hook's own deadline. What
 * each agent lets the entry close, it closes:
 * - the command is a short POSIX shell script (every agent runs it with `sh -c` or `bash -c`) that
 *   clears the variables that make a program run other code (NODE_OPTIONS, BASH_ENV, LD_PRELOAD, …),
 *   runs Verdict by absolute path, and turns anything but Verdict's own answer (exit 0 or 2: a
 *   program that is missing, 127, not executable, 126, a crash, 1, or a signal) into the agent's
 *   deny with a one-line reason: Claude Code and Codex run the tool on those;
 * - Claude Code: `onFailure: "block"` (2.1.295 and later also block on the agent's own timeout);
 * - Gemini CLI: an `env` object that empties those variables before its `bash -c` starts (Gemini
 *   gives hooks its whole environment, a trusted project's `.env` included);
 * - Codex: the command names a file Verdict owns (`verdict-hook.json` beside `hooks.json`) that
 *   holds the policy and options, so a re-install that changes only those keeps the command, and
 *   the trust Codex keeps by its hash, byte for byte;
 * - Cursor: `failClosed: true` (its hooks may run without a shell: the command is `env -u … verdict`).
 * `--scope user` writes where the agent reads: `$CODEX_HOME` and `$GEMINI_CLI_HOME` honoured.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { AGENT_CATALOGUES, type AgentCatalogue, HOOK_AGENTS, hookAgentChoices, hookAgentOf, type HookAgent, shellWord } from '@verdict/engine';
import { type CommandIo, type Parsed, POLICY_FROM_STDIN_HELP, policyFromStdinRefused, STDIN_ARG, UsageError } from '../args.ts';
import { appendItem, detectLayout, insertMember, jsonTree, type JsonNode, removeItem, removeMember } from './json-edit.ts';
import { denyAnswer } from './dialects.ts';
import { codexHookHash, codexHookKey, readCodexState } from './codex-trust.ts';

/** Seconds (Gemini CLI: milliseconds) the agent waits for the hook; the hook's own deadline is 10 s. */
export const HOOK_TIMEOUT_S = 30;

/** Where an agent's user-level files are, from the environment the agent runs with. */
export interface AgentHomes {
  home: string;
  /**
   * Each agent's user-level folder, by its catalogue's `settings`: `~/.claude`, `$CODEX_HOME` (else
   * `~/.codex`), `$GEMINI_CLI_HOME/.gemini` (else `~/.gemini`), `~/.cursor`.
   */
  user: Readonly<Record<HookAgent, string>>;
}

export function agentHomes(env: NodeJS.ProcessEnv, cwd: string): AgentHomes {
  const home = env['HOME'] ? resolve(cwd, env['HOME']) : homedir();
  const userFolder = (agent: HookAgent): string => {
    const { folder, homeVariable } = AGENT_CATALOGUES[agent].settings;
    const set = homeVariable !== undefined ? env[homeVariable.name] : undefined;
    if (!set) return join(home, folder);
    return homeVariable!.names === 'folder' ? resolve(cwd, set) : join(resolve(cwd, set), folder);
  };
  return { home, user: Object.fromEntries(HOOK_AGENTS.map((a) => [a, userFolder(a)])) as Record<HookAgent, string> };
}

/** One file an agent reads hooks from. */
export interface Level {
  /** `user`, `project`, `local` (Claude Code's `.claude/settings.local.json`). */
  name: string;
  file: string;
}

/**
 * Variables that make the hook's program (or the shell that starts it) run other code, or load
 * other libraries: cleared before Verdict starts. Gemini CLI's entry also empties them for its own
 * `bash -c`; elsewhere the agent's shell has already started when the command clears them.
 */
export const CLEARED_ENV: readonly string[] = [
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  'BASH_ENV',
  'ENV',
  'PS4',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'DYLD_FRAMEWORK_PATH',
  'DYLD_FALLBACK_LIBRARY_PATH',
  'DYLD_FALLBACK_FRAMEWORK_PATH',
  'DYLD_IMAGE_SUFFIX',
  'DYLD_VERSIONED_LIBRARY_PATH',
  'DYLD_VERSIONED_FRAMEWORK_PATH',
];

/**
 * Also emptied before Gemini CLI's `bash -c` starts (bash reads them at start-up: `SHELLOPTS=xtrace`
 * with a `PS4` holding `$(…)` runs it), but not unset by the command: bash makes them read-only.
 */
export const CLEARED_BEFORE_SHELL: readonly string[] = ['SHELLOPTS', 'BASHOPTS'];

/** How `hook install` writes an agent's entries (where and which events: its catalogue). */
interface AgentConfig extends Pick<AgentCatalogue, 'title' | 'events'> {
  /** The file `install --scope` writes. */
  file(scope: 'user' | 'project', cwd: string, homes: AgentHomes): string;
  /** Every file the agent reads hooks from (what `status` checks). */
  levels(cwd: string, homes: AgentHomes): Level[];
  /** The entry appended to each event's list. */
  entry(command: string): Record<string, unknown>;
  /** The entry's own fail-closed setting, one key and its value (`status` checks it is there). */
  failClosed?: Readonly<Record<string, unknown>>;
  /** A file that does not exist yet starts as this. */
  empty: string;
}

const group = (handler: Record<string, unknown>) => ({ matcher: '*', hooks: [handler] });

/** An agent's config: its title, events and files from the catalogue, the entry's shape here. */
function agentConfig(agent: HookAgent, shape: Pick<AgentConfig, 'entry' | 'failClosed' | 'empty'>): AgentConfig {
  const { title, events, settings } = AGENT_CATALOGUES[agent];
  const levels = (cwd: string, h: AgentHomes): Level[] => [
    { name: 'user', file: join(h.user[agent], settings.hookFile) },
    { name: 'project', file: join(cwd, settings.folder, settings.hookFile) },
    ...(settings.localHookFile !== undefined ? [{ name: 'local', file: join(cwd, settings.folder, settings.localHookFile) }] : []),
  ];
  return { title, events, levels, file: (scope, cwd, h) => levels(cwd, h).find((l) => l.name === scope)!.file, ...shape };
}

const CLAUDE_FAIL_CLOSED = { onFailure: 'block' } as const;
const CURSOR_FAIL_CLOSED = { failClosed: true } as const;

export const AGENT_CONFIGS: Readonly<Record<HookAgent, AgentConfig>> = {
  claude: agentConfig('claude', {
    entry: (command) => group({ type: 'command', command, timeout: HOOK_TIMEOUT_S, ...CLAUDE_FAIL_CLOSED }),
    failClosed: CLAUDE_FAIL_CLOSED,
    empty: '{}\n',
  }),
  codex: agentConfig('codex', {
    entry: (command) => group({ type: 'command', command, timeout: HOOK_TIMEOUT_S }),
    empty: '{}\n',
  }),
  gemini: agentConfig('gemini', {
    entry: (command) =>
      group({ name: 'verdict', type: 'command', command, timeout: HOOK_TIMEOUT_S * 1000, env: Object.fromEntries([...CLEARED_ENV, ...CLEARED_BEFORE_SHELL].map((k) => [k, ''])) }),
    empty: '{}\n',
  }),
  cursor: agentConfig('cursor', {
    entry: (command) => ({ command, timeout: HOOK_TIMEOUT_S, ...CURSOR_FAIL_CLOSED }),
    failClosed: CURSOR_FAIL_CLOSED,
    empty: '{\n  "version": 1\n}\n',
  }),
};

/** The file Verdict owns beside Codex's `hooks.json`: the policy and options its command reads. */
export const CODEX_CONFIG_NAME = 'verdict-hook.json';

/**
 * The CLI script of this checkout, absolute: the CommonJS entry (bin/verdict.cjs), which starts
 * faster than bin/verdict.mjs (no ES module loader); hooks installed with verdict.mjs keep working.
 */
function cliScript(): string {
  return fileURLToPath(new URL('../../bin/verdict.cjs', import.meta.url));
}

/** What the installed command runs: Verdict with its policy and options. */
export interface HookTarget {
  policy: string;
  log?: string;
  /** `--binary PATH`: run PATH instead of this Node and CLI script. */
  binary?: string;
  /** The Node binary and CLI script (default: this process's). */
  node?: string;
  script?: string;
}

/** The program part of the command: `--binary`, or this Node and CLI script, as shell words. */
function program(t: HookTarget): string {
  if (t.binary !== undefined) return shellWord(t.binary);
  return `${shellWord(t.node ?? process.execPath)} ${shellWord(t.script ?? cliScript())}`;
}

/** `verdict hook …` as a command line, without the failure wrapper. */
export function hookCommandLine(agent: HookAgent, t: HookTarget, codexConfig?: string): string {
  const options = codexConfig !== undefined
    ? ` --config ${shellWord(codexConfig)}`
    : ` --policy ${shellWord(t.policy)}${t.log !== undefined ? ` --log ${shellWord(t.log)}` : ''}`;
  return `${program(t)} hook --agent ${agent}${options}`;
}

const EXIT = '@EXIT@';

/** The reason the wrapper gives when Verdict gave no answer of its own. */
export const FAILED_REASON = `the verdict hook did not answer (exit ${EXIT}), so the call is denied: run \`verdict hook status\``;

/**
 * `inner` in the failure wrapper: the cleared variables unset, Verdict's stdout held until it ends,
 * and passed on when it answered (exit 0 or 2); any other end (127, 126, 1, a signal's 128+N) prints
 * the agent's deny for `event` instead, naming the exit status. POSIX sh only (dash runs it).
 */
export function guarded(agent: HookAgent, event: string, inner: string): string {
  const deny = denyAnswer(agent, event, FAILED_REASON);
  const emit = (text: string, to: string): string => {
    if (text === '') return '';
    const [before, after] = text.replace(/\n$/, '').split(EXIT) as [string, string];
    return `printf '%s%s%s\\n' ${shellWord(before)} "$s" ${shellWord(after ?? '')}${to}; `;
  };
  return (
    `unset ${CLEARED_ENV.join(' ')}; o=$(${inner}); s=$?; ` +
    `if [ "$s" = 0 ] || [ "$s" = 2 ]; then [ -z "$o" ] || printf '%s\\n' "$o"; exit "$s"; fi; ` +
    `${emit(deny.stdout, '')}${emit(deny.stderr, ' >&2')}exit ${deny.exitCode}`
  );
}

/** The command installed for `event`. */
export function installedCommand(agent: HookAgent, event: string, t: HookTarget, codexConfig?: string): string {
  const inner = hookCommandLine(agent, t, codexConfig);
  // Cursor's failClosed covers a hook that fails to start or crashes; how Cursor runs the command
  // (through a shell or not) is not documented, so it gets no shell syntax.
  if (agent === 'cursor') return `/usr/bin/env ${CLEARED_ENV.map((k) => `-u ${k}`).join(' ')} ${inner}`;
  return guarded(agent, event, inner);
}

/** `hook --agent NAME` for a catalogue agent: how an entry of ours is recognised. */
const OURS = new RegExp(`(^|\\s)hook --agent (${HOOK_AGENTS.join('|')})(\\s|$)`);

function isOurHandler(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { command?: unknown }).command === 'string' && OURS.test((v as { command: string }).command) && /verdict/.test((v as { command: string }).command);
}

/** Whether a list entry is one `verdict hook install` wrote (a Cursor handler, or a matcher group holding one). */
export function isOurEntry(v: unknown): boolean {
  if (isOurHandler(v)) return true;
  const hooks = typeof v === 'object' && v !== null ? (v as { hooks?: unknown }).hooks : undefined;
  return Array.isArray(hooks) && hooks.length > 0 && hooks.every(isOurHandler);
}

class EditError extends Error {}

function memberIndex(node: JsonNode, key: string): number {
  // JSON.parse keeps the last of repeated keys: so do we.
  for (let i = node.members.length - 1; i >= 0; i--) if (node.members[i]!.key === key) return i;
  return -1;
}

/** The text with every entry of ours removed (and event lists and a `hooks` object we emptied). */
function removeOurs(text: string): string {
  for (;;) {
    const root = jsonTree(text);
    const hi = memberIndex(root, 'hooks');
    const hooks = hi >= 0 ? root.members[hi]!.value : undefined;
    if (!hooks || hooks.kind !== 'object') return text;
    const value = JSON.parse(text.slice(hooks.start, hooks.end)) as Record<string, unknown>;
    let edited: string | undefined;
    for (let e = 0; e < hooks.members.length && edited === undefined; e++) {
      const list = hooks.members[e]!.value;
      if (list.kind !== 'array') continue;
      const items = value[hooks.members[e]!.key];
      if (!Array.isArray(items)) continue;
      const at = list.items.findIndex((item) => isOurEntry(JSON.parse(text.slice(item.start, item.end))));
      if (at < 0) continue;
      if (list.items.length > 1) edited = removeItem(text, list, at);
      else if (hooks.members.length > 1) edited = removeMember(text, hooks, e);
      else edited = removeMember(text, root, hi);
    }
    if (edited === undefined) return text;
    text = edited;
  }
}

/** The command of each event (they differ: the failure wrapper answers in the event's dialect). */
export type Commands = Readonly<Record<string, string>>;

function addOurs(text: string, config: AgentConfig, commands: Commands, fresh: boolean): string {
  // A file made anew is laid out for people to read: two spaces.
  const layout = fresh ? { unit: '  ', eol: '\n' } : detectLayout(text);
  for (const event of config.events) {
    const command = commands[event]!;
    const root = jsonTree(text);
    const hi = memberIndex(root, 'hooks');
    if (hi < 0) {
      text = insertMember(text, root, 'hooks', { [event]: [config.entry(command)] }, 0, layout);
      continue;
    }
    const hooks = root.members[hi]!.value;
    if (hooks.kind !== 'object') throw new EditError('its `hooks` is not an object');
    const ei = memberIndex(hooks, event);
    if (ei < 0) {
      text = insertMember(text, hooks, event, [config.entry(command)], 1, layout);
      continue;
    }
    const list = hooks.members[ei]!.value;
    if (list.kind !== 'array') throw new EditError(`its \`hooks.${event}\` is not a list`);
    text = appendItem(text, list, config.entry(command), 2, layout);
  }
  return text;
}

/** The same change on the parsed value: what the edited text must parse to. */
function expectedValue(before: Record<string, unknown>, config: AgentConfig, commands: Commands | undefined): Record<string, unknown> {
  const value = structuredClone(before);
  const hooks = value['hooks'];
  if (typeof hooks === 'object' && hooks !== null && !Array.isArray(hooks)) {
    const h = hooks as Record<string, unknown>;
    let removed = false;
    for (const [event, list] of Object.entries(h)) {
      if (!Array.isArray(list)) continue;
      const kept = list.filter((item) => !isOurEntry(item));
      if (kept.length === list.length) continue;
      removed = true;
      if (kept.length === 0) delete h[event];
      else h[event] = kept;
    }
    if (removed && Object.keys(h).length === 0) delete value['hooks'];
  }
  if (commands !== undefined) {
    const h = (value['hooks'] ??= {}) as Record<string, unknown[]>;
    for (const event of config.events) (h[event] ??= []).push(config.entry(commands[event]!));
  }
  return value;
}

/**
 * Whether the file already holds exactly the entries an install would write, one per event and no
 * other of ours: then it is left as it is (a Codex hook keeps its place, so the key its trust is
 * stored under, and its bytes, so the hash).
 */
function alreadyInstalled(value: Record<string, unknown>, config: AgentConfig, commands: Commands): boolean {
  const hooks = value['hooks'];
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return false;
  for (const [event, list] of Object.entries(hooks as Record<string, unknown>)) {
    const ours = Array.isArray(list) ? list.filter(isOurEntry) : [];
    if (!config.events.includes(event)) {
      if (ours.length > 0) return false;
      continue;
    }
    if (ours.length !== 1 || !isDeepStrictEqual(ours[0], config.entry(commands[event]!))) return false;
  }
  return config.events.every((e) => Array.isArray((hooks as Record<string, unknown>)[e]));
}

/** A line diff of two texts: the changed middle, with a line of context each side. */
export function lineDiff(file: string, before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = Math.max(0, head - 1);
  const out = [`--- ${file}`, `+++ ${file}`, `@@ -${from + 1} +${from + 1} @@`];
  for (let i = from; i < head; i++) out.push(` ${a[i]}`);
  for (let i = head; i < a.length - tail; i++) out.push(`-${a[i]}`);
  for (let i = head; i < b.length - tail; i++) out.push(`+${b[i]}`);
  if (tail > 0) out.push(` ${a[a.length - tail]}`);
  return `${out.join('\n')}\n`;
}

export interface EditPlan {
  file: string;
  before: string;
  after: string;
  existed: boolean;
}

/** The edit `install` (with the commands) or `uninstall` (without) makes to `file`; throws EditError. */
export function planEdit(config: AgentConfig, file: string, commands: Commands | undefined): EditPlan {
  const existed = existsSync(file);
  const before = existed ? readFileSync(file, 'utf8') : '';
  const start = existed && before.trim() !== '' ? before : config.empty;
  let parsed: unknown;
  try {
    parsed = JSON.parse(start);
  } catch {
    throw new EditError('it is not valid JSON (comments are not supported)');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new EditError('it is not a JSON object');
  if (commands !== undefined && existed && alreadyInstalled(parsed as Record<string, unknown>, config, commands)) return { file, before, after: before, existed };
  let after = removeOurs(start);
  if (commands !== undefined) after = addOurs(after, config, commands, start === config.empty);
  const want = expectedValue(parsed as Record<string, unknown>, config, commands);
  let got: unknown;
  try {
    got = JSON.parse(after);
  } catch {
    got = undefined;
  }
  if (!isDeepStrictEqual(got, want)) throw new EditError('the edit could not be made without changing other settings');
  if (!existed && commands === undefined) return { file, before, after: before, existed };
  return { file, before, after, existed };
}

/** The text of Codex's `verdict-hook.json`: the policy and options its command reads. */
export function codexConfigText(t: HookTarget): string {
  return `${JSON.stringify({ policy: t.policy, ...(t.log !== undefined ? { log: t.log } : {}) }, null, 2)}\n`;
}

/**
 * What Codex will make of our entries in `file` (its `hooks.json`): trusted (the hash stored for
 * each entry's place matches), or the lines telling the user to trust it in `/hooks`.
 */
export function codexTrustNote(file: string, text: string, homes: AgentHomes, cwd: string): string {
  const state = readCodexState([join(homes.user.codex, 'config.toml'), join(cwd, '.codex', 'config.toml')]);
  if (!state.ok) return `  note: Codex's ${state.file} does not parse (${state.error}): Codex may not run this hook\n`;
  const untrusted: string[] = [];
  for (const h of ourCodexHandlers(text)) {
    const key = codexHookKey(file, h.event, h.group, h.handler);
    const hash = codexHookHash(h.event, h.matcher, h);
    if (state.states.get(key)?.trustedHash !== hash) untrusted.push(h.event);
  }
  if (untrusted.length === 0) return '  Codex already trusts this hook (its command is unchanged, byte for byte)\n';
  return `  note: Codex runs this hook only once it is trusted, and skips it silently until then: open \`/hooks\` in Codex and trust the verdict hook (${untrusted.join(', ')})\n`;
}

export interface FoundHandler {
  event: string;
  group: number;
  handler: number;
  matcher: string | undefined;
  command: string;
  timeout?: number;
  async?: boolean;
  statusMessage?: string;
  /** The whole handler object. */
  value: Record<string, unknown>;
}

/** Every handler of ours in a hooks file's text (valid JSON), with its place. */
export function ourHandlers(text: string): FoundHandler[] {
  const value = JSON.parse(text) as { hooks?: unknown };
  const out: FoundHandler[] = [];
  const hooks = value.hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return out;
  for (const [event, list] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(list)) continue;
    list.forEach((g: unknown, gi) => {
      if (isOurHandler(g)) {
        const o = g as Record<string, unknown>;
        out.push({ event, group: gi, handler: 0, matcher: undefined, command: o['command'] as string, value: o });
        return;
      }
      const handlers = typeof g === 'object' && g !== null ? (g as { hooks?: unknown }).hooks : undefined;
      if (!Array.isArray(handlers)) return;
      const matcher = (g as { matcher?: unknown }).matcher;
      handlers.forEach((h: unknown, hi) => {
        if (!isOurHandler(h)) return;
        const o = h as Record<string, unknown>;
        out.push({
          event,
          group: gi,
          handler: hi,
          matcher: typeof matcher === 'string' ? matcher : undefined,
          command: o['command'] as string,
          ...(typeof o['timeout'] === 'number' ? { timeout: o['timeout'] } : {}),
          ...(typeof o['async'] === 'boolean' ? { async: o['async'] } : {}),
          ...(typeof o['statusMessage'] === 'string' ? { statusMessage: o['statusMessage'] } : {}),
          value: o,
        });
      });
    });
  }
  return out;
}

const ourCodexHandlers = ourHandlers;

/** `verdict hook install|uninstall`; `usage` is the hook command's help (hook/ imports nothing from commands/). */
export async function runInstall(mode: 'install' | 'uninstall', args: Parsed<Record<string, { type: 'string' | 'boolean' }>>, io: CommandIo, usage: string): Promise<number> {
  const v = args.values as Record<string, string | boolean | undefined>;
  if (v['help']) {
    io.stdout.write(`${usage}\n`);
    return 0;
  }
  const agent = hookAgentOf(v['agent']);
  if (!agent) throw new UsageError(v['agent'] === undefined ? `missing \`--agent ${HOOK_AGENTS.join('|')}\`` : `unknown agent \`${String(v['agent'])}\` (want ${hookAgentChoices()})`);
  const scope = v['scope'] ?? 'user';
  if (scope !== 'user' && scope !== 'project') throw new UsageError(`unknown scope \`${String(scope)}\` (want user or project)`);
  const config = AGENT_CONFIGS[agent];
  const env = io.env ?? process.env;
  const homes = agentHomes(env, io.cwd);
  const file = config.file(scope, io.cwd, homes);
  const codexConfig = agent === 'codex' ? join(dirname(file), CODEX_CONFIG_NAME) : undefined;
  let commands: Record<string, string> | undefined;
  let target: HookTarget | undefined;
  if (mode === 'install') {
    if (typeof v['policy'] !== 'string') throw new UsageError('missing `--policy FILE`');
    if (v['policy'] === STDIN_ARG) throw new UsageError(policyFromStdinRefused('hook', 'the hook payload'), POLICY_FROM_STDIN_HELP);
    const policy = resolve(io.cwd, v['policy']);
    if (!existsSync(policy)) io.stderr.write(`verdict hook install: warning: the policy \`${policy}\` does not exist yet: every call will be denied until it does\n`);
    target = {
      policy,
      ...(typeof v['binary'] === 'string' ? { binary: v['binary'] } : {}),
      ...(typeof v['log'] === 'string' ? { log: resolve(io.cwd, v['log']) } : {}),
    };
    const t = target;
    commands = Object.fromEntries(config.events.map((e) => [e, installedCommand(agent, e, t, codexConfig)]));
  }
  let plan: EditPlan;
  try {
    plan = planEdit(config, file, commands);
  } catch (err) {
    if (!(err instanceof EditError)) throw err;
    io.stderr.write(`verdict hook ${mode}: cannot edit \`${file}\`: ${err.message}\n  help: fix the file by hand, or run with --dry-run to see the entry to add\n`);
    if (commands !== undefined) for (const e of config.events) io.stderr.write(`${e}: ${JSON.stringify(config.entry(commands[e]!))}\n`);
    return 2;
  }
  // Codex: the options file Verdict owns (its own change leaves hooks.json, and Codex's trust, alone).
  const optionsBefore = codexConfig !== undefined && existsSync(codexConfig) ? readFileSync(codexConfig, 'utf8') : undefined;
  const optionsAfter = codexConfig !== undefined && target !== undefined ? codexConfigText(target) : undefined;
  const optionsChange = codexConfig !== undefined && optionsBefore !== optionsAfter && (optionsAfter !== undefined || optionsBefore !== undefined);
  if (plan.after === plan.before && !optionsChange) {
    io.stdout.write(`${file}: nothing to change\n`);
    return 0;
  }
  if (v['dry-run']) {
    if (plan.after !== plan.before) io.stdout.write(lineDiff(file, plan.before, plan.after));
    if (optionsChange) io.stdout.write(lineDiff(codexConfig!, optionsBefore ?? '', optionsAfter ?? ''));
    return 0;
  }
  if (plan.after !== plan.before) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, plan.after);
  }
  if (optionsChange) {
    if (optionsAfter === undefined) rmSync(codexConfig!, { force: true });
    else {
      mkdirSync(dirname(codexConfig!), { recursive: true });
      writeFileSync(codexConfig!, optionsAfter);
    }
  }
  if (mode === 'uninstall') {
    io.stdout.write(`removed the verdict hook from ${file}\n`);
    if (optionsChange) io.stdout.write(`removed ${codexConfig}\n`);
    return 0;
  }
  if (plan.after === plan.before) io.stdout.write(`updated ${codexConfig}: the hook entries in ${file} are unchanged\n`);
  else io.stdout.write(`installed the verdict hook (${config.events.join(', ')}) in ${file}\n`);
  if (optionsChange && plan.after !== plan.before) io.stdout.write(`  its policy and options: ${codexConfig}\n`);
  if (agent === 'codex') io.stdout.write(codexTrustNote(file, plan.after, homes, io.cwd));
  else if (agent !== 'cursor') io.stdout.write(`  note: ${config.title} runs hooks only in a trusted folder; check that it lists the hook (${agent === 'gemini' ? '/hooks panel' : '/hooks'})\n`);
  io.stdout.write('  check it with `verdict hook status`\n');
  return 0;
}
