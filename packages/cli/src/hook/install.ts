/**
 * `verdict hook install` / `uninstall`: the hook entries of one agent's configuration file.
 *
 * The file is edited as text (json-edit.ts): every byte outside the inserted or removed entries is
 * kept, and the result is checked against the same change made on the parsed value before anything
 * is written. Entries run the Node binary and the CLI script by absolute path (a hook that cannot
 * start lets the tool run in every agent), match every tool, set a timeout well above the hook's
 * own deadline, and set the agent's own fail-closed switch where it has one (Cursor `failClosed`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import type { HookAgent } from '@verdict/engine';
import { type CommandIo, type Parsed, POLICY_FROM_STDIN_HELP, policyFromStdinRefused, STDIN_ARG, UsageError } from '../args.ts';
import { appendItem, detectLayout, insertMember, jsonTree, type JsonNode, removeItem, removeMember } from './json-edit.ts';

const AGENTS: readonly HookAgent[] = ['claude', 'codex', 'gemini', 'cursor'];

/** Seconds (Gemini CLI: milliseconds) the agent waits for the hook; the hook's own deadline is 10 s. */
export const HOOK_TIMEOUT_S = 30;

interface AgentConfig {
  title: string;
  file(scope: 'user' | 'project', cwd: string): string;
  events: readonly string[];
  /** The entry appended to each event's list. */
  entry(command: string): Record<string, unknown>;
  /** A file that does not exist yet starts as this. */
  empty: string;
}

const group = (handler: Record<string, unknown>) => ({ matcher: '*', hooks: [handler] });

export const AGENT_CONFIGS: Record<HookAgent, AgentConfig> = {
  claude: {
    title: 'Claude Code',
    file: (scope, cwd) => (scope === 'user' ? join(homedir(), '.claude', 'settings.json') : join(cwd, '.claude', 'settings.json')),
    events: ['PreToolUse', 'PermissionRequest'],
    entry: (command) => group({ type: 'command', command, timeout: HOOK_TIMEOUT_S }),
    empty: '{}\n',
  },
  codex: {
    title: 'Codex',
    file: (scope, cwd) => (scope === 'user' ? join(homedir(), '.codex', 'hooks.json') : join(cwd, '.codex', 'hooks.json')),
    events: ['PreToolUse', 'PermissionRequest'],
    entry: (command) => group({ type: 'command', command, timeout: HOOK_TIMEOUT_S }),
    empty: '{}\n',
  },
  gemini: {
    title: 'Gemini CLI',
    file: (scope, cwd) => (scope === 'user' ? join(homedir(), '.gemini', 'settings.json') : join(cwd, '.gemini', 'settings.json')),
    events: ['BeforeTool'],
    entry: (command) => group({ name: 'verdict', type: 'command', command, timeout: HOOK_TIMEOUT_S * 1000 }),
    empty: '{}\n',
  },
  cursor: {
    title: 'Cursor',
    file: (scope, cwd) => (scope === 'user' ? join(homedir(), '.cursor', 'hooks.json') : join(cwd, '.cursor', 'hooks.json')),
    events: ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'],
    entry: (command) => ({ command, timeout: HOOK_TIMEOUT_S, failClosed: true }),
    empty: '{\n  "version": 1\n}\n',
  },
};

/** A POSIX shell word. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The CLI script of this checkout, absolute. */
function cliScript(): string {
  return fileURLToPath(new URL('../../bin/verdict.mjs', import.meta.url));
}

export function hookCommandLine(agent: HookAgent, policy: string, binary?: string, log?: string): string {
  const run = binary !== undefined ? shellQuote(binary) : `${shellQuote(process.execPath)} ${shellQuote(cliScript())}`;
  return `${run} hook --agent ${agent} --policy ${shellQuote(policy)}${log !== undefined ? ` --log ${shellQuote(log)}` : ''}`;
}

const OURS = /(^|\s)hook --agent (claude|codex|gemini|cursor)(\s|$)/;

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

function addOurs(text: string, config: AgentConfig, command: string): string {
  const layout = detectLayout(text);
  for (const event of config.events) {
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
function expectedValue(before: Record<string, unknown>, config: AgentConfig, command: string | undefined): Record<string, unknown> {
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
  if (command !== undefined) {
    const h = (value['hooks'] ??= {}) as Record<string, unknown[]>;
    for (const event of config.events) (h[event] ??= []).push(config.entry(command));
  }
  return value;
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

/** The edit `install` (with a command) or `uninstall` (without) makes to `file`; throws EditError. */
export function planEdit(config: AgentConfig, file: string, command: string | undefined): EditPlan {
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
  let after = removeOurs(start);
  if (command !== undefined) after = addOurs(after, config, command);
  const want = expectedValue(parsed as Record<string, unknown>, config, command);
  let got: unknown;
  try {
    got = JSON.parse(after);
  } catch {
    got = undefined;
  }
  if (!isDeepStrictEqual(got, want)) throw new EditError('the edit could not be made without changing other settings');
  if (!existed && command === undefined) return { file, before, after: before, existed };
  return { file, before, after, existed };
}

export async function runInstall(mode: 'install' | 'uninstall', args: Parsed<Record<string, { type: 'string' | 'boolean' }>>, io: CommandIo): Promise<number> {
  const v = args.values as Record<string, string | boolean | undefined>;
  if (v['help']) {
    const { hookCommand } = await import('../commands/hook.ts');
    io.stdout.write(`${hookCommand.usage}\n`);
    return 0;
  }
  const agent = AGENTS.find((a) => a === v['agent']);
  if (!agent) throw new UsageError(v['agent'] === undefined ? 'missing `--agent claude|codex|gemini|cursor`' : `unknown agent \`${String(v['agent'])}\` (want claude, codex, gemini or cursor)`);
  const scope = v['scope'] ?? 'user';
  if (scope !== 'user' && scope !== 'project') throw new UsageError(`unknown scope \`${String(scope)}\` (want user or project)`);
  const config = AGENT_CONFIGS[agent];
  let command: string | undefined;
  if (mode === 'install') {
    if (typeof v['policy'] !== 'string') throw new UsageError('missing `--policy FILE`');
    if (v['policy'] === STDIN_ARG) throw new UsageError(policyFromStdinRefused('hook', 'the hook payload'), POLICY_FROM_STDIN_HELP);
    const policy = resolve(io.cwd, v['policy']);
    if (!existsSync(policy)) io.stderr.write(`verdict hook install: warning: the policy \`${policy}\` does not exist yet: every call will be denied until it does\n`);
    command = hookCommandLine(agent, policy, typeof v['binary'] === 'string' ? v['binary'] : undefined, typeof v['log'] === 'string' ? resolve(io.cwd, v['log']) : undefined);
  }
  const file = config.file(scope, io.cwd);
  let plan: EditPlan;
  try {
    plan = planEdit(config, file, command);
  } catch (err) {
    if (!(err instanceof EditError)) throw err;
    io.stderr.write(`verdict hook ${mode}: cannot edit \`${file}\`: ${err.message}\n  help: fix the file by hand, or run with --dry-run to see the entry to add\n`);
    if (command !== undefined) io.stderr.write(`${JSON.stringify(config.entry(command))}\n`);
    return 2;
  }
  if (plan.after === plan.before) {
    io.stdout.write(`${file}: nothing to change\n`);
    return 0;
  }
  if (v['dry-run']) {
    io.stdout.write(lineDiff(file, plan.before, plan.after));
    return 0;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, plan.after);
  const what = mode === 'install' ? `installed the verdict hook (${config.events.join(', ')}) in` : 'removed the verdict hook from';
  io.stdout.write(`${what} ${file}\n`);
  if (mode === 'install' && agent !== 'cursor') io.stdout.write(`  note: ${config.title} runs hooks only in a trusted folder; check that it lists the hook (${agent === 'gemini' ? '/hooks panel' : '/hooks'})\n`);
  return 0;
}
