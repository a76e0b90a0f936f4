/**
 * One request model for every agent: a hook payload becomes the names the call answers to (the
 * agent's own tool name first, then the neutral names of `@verdict/engine`'s hook catalogue) and the
 * exact JSON text of its tool input. Codex `apply_patch` calls also carry the paths their patch
 * touches, each decided as a `file.write` call with input `{"file_path":…}`.
 */
import { posix } from 'node:path';
import { agentTool, type HookAgent, mcpNames, type NeutralTool, splitMcpName } from '@verdict/engine';
import { member, type ObjectMembers } from './json-members.ts';

export interface HookRequest {
  agent: HookAgent;
  event: string;
  /** The tool name as the agent sent it (`Bash`, `run_shell_command`, `MCP:search`). */
  toolName: string;
  /** Every name a rule may use for this call, the agent's own first (case folding is the engine's). */
  names: string[];
  /** The tool input as the exact JSON text the agent sent (`""` when it sent none). */
  input: string;
  /** Paths a Codex patch adds, updates, deletes or moves to, resolved against the payload's `cwd`. */
  paths?: string[];
  /**
   * Other inputs that stand for the whole call, decided under the same names: for a Codex shell
   * call joined as `bash -lc '…'`, `{"command":…}` with the script the shell runs.
   */
  alsoInputs?: string[];
  /**
   * The input as the agent wrote it, when resolving its paths changed it (`resolve-paths.ts`): its
   * deny and ask rules count, its allow rules do not.
   */
  writtenInputs?: string[];
}

export type MapResult = { ok: true; request: HookRequest } | { ok: false; reason: string };

const fail = (reason: string): MapResult => ({ ok: false, reason });

function stringMember(payload: ObjectMembers, key: string): string | undefined {
  const m = member(payload, key);
  return m && typeof m.value === 'string' ? m.value : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Names of a tool of the agent's catalogue: its own and its neutral name, MCP names for MCP tools. */
function namesOf(agent: HookAgent, toolName: string, input: unknown): string[] {
  const mcp = splitMcpName(toolName);
  if (mcp) return [toolName, ...mcpNames(mcp).filter((n) => n !== toolName)];
  const tool = agentTool(agent, toolName);
  let neutral: NeutralTool | undefined = tool?.neutral;
  // Monitor is a shell tool only when it runs a command (it can also watch a web socket).
  if (agent === 'claude' && toolName === 'Monitor' && !(isObject(input) && typeof input['command'] === 'string')) neutral = undefined;
  return neutral ? [toolName, neutral] : [toolName];
}

/** `{tool_name, tool_input}` payloads: Claude Code, Codex, Gemini CLI and Cursor's preToolUse. */
function fromToolPayload(agent: HookAgent, event: string, payload: ObjectMembers): MapResult {
  const toolName = stringMember(payload, 'tool_name');
  if (toolName === undefined) return fail('the payload has no string `tool_name`');
  const inputMember = member(payload, 'tool_input');
  const input = inputMember?.raw ?? '';
  let names = namesOf(agent, toolName, inputMember?.value);
  if (agent === 'gemini') {
    // MCP tools are told apart by `mcp_context`, not by their name (which changed in v0.34).
    const ctx = member(payload, 'mcp_context')?.value;
    if (isObject(ctx) && typeof ctx['server_name'] === 'string' && typeof ctx['tool_name'] === 'string') {
      names = [toolName, ...mcpNames({ server: ctx['server_name'], tool: ctx['tool_name'] })];
    }
  }
  if (agent === 'cursor' && toolName.startsWith('MCP:')) names = [toolName, 'mcp'];
  const request: HookRequest = { agent, event, toolName, names, input };
  if (agent === 'codex' && toolName === 'Bash') {
    const value = inputMember?.value;
    const script = isObject(value) && typeof value['command'] === 'string' ? unwrapShell(value['command']) : undefined;
    if (script !== undefined) request.alsoInputs = [JSON.stringify({ command: script })];
  }
  if (agent === 'codex' && toolName === 'apply_patch') {
    const value = inputMember?.value;
    const patch = isObject(value) && typeof value['command'] === 'string' ? value['command'] : '';
    request.paths = patchPaths(patch, stringMember(payload, 'cwd') ?? '');
  }
  return { ok: true, request };
}

/** Object text built from raw member texts, in the order given, skipping absent ones. */
function rawObject(payload: ObjectMembers, keys: readonly (readonly [string, string])[]): string {
  const parts: string[] = [];
  for (const [key, from] of keys) {
    const m = member(payload, from);
    if (m) parts.push(`${JSON.stringify(key)}:${m.raw}`);
  }
  return `{${parts.join(',')}}`;
}

function fromCursorEvent(event: string, payload: ObjectMembers): MapResult {
  switch (event) {
    case 'preToolUse':
      return fromToolPayload('cursor', event, payload);
    case 'beforeShellExecution': {
      if (stringMember(payload, 'command') === undefined) return fail('the payload has no string `command`');
      const input = rawObject(payload, [['command', 'command'], ['cwd', 'cwd']]);
      return { ok: true, request: { agent: 'cursor', event, toolName: 'Shell', names: ['Shell', 'shell'], input } };
    }
    case 'beforeReadFile': {
      // Only the path: the payload also carries the file's content, which no rule should search.
      const from = member(payload, 'file_path') ? 'file_path' : 'filePath';
      if (stringMember(payload, from) === undefined) return fail('the payload has no string `file_path`');
      const input = rawObject(payload, [['file_path', from]]);
      return { ok: true, request: { agent: 'cursor', event, toolName: 'Read', names: ['Read', 'file.read'], input } };
    }
    case 'beforeMCPExecution': {
      const tool = stringMember(payload, 'tool_name');
      if (tool === undefined) return fail('the payload has no string `tool_name`');
      const inputMember = member(payload, 'tool_input');
      // `tool_input` is the arguments' JSON text inside a string; an object is taken as it is.
      const input = inputMember === undefined ? '' : typeof inputMember.value === 'string' ? inputMember.value : inputMember.raw;
      const server = stringMember(payload, 'mcp_server_name') ?? stringMember(payload, 'command') ?? stringMember(payload, 'url');
      const toolName = `MCP:${tool}`;
      const names = server === undefined ? [toolName, 'mcp'] : [toolName, ...mcpNames({ server, tool })];
      return { ok: true, request: { agent: 'cursor', event, toolName, names, input } };
    }
    default:
      return fail(`Cursor event \`${event}\` is not one verdict answers`);
  }
}

/** Maps a payload the agent sent for `event` to the request the policy decides. */
export function mapPayload(agent: HookAgent, event: string, payload: ObjectMembers): MapResult {
  if (agent === 'cursor') return fromCursorEvent(event, payload);
  return fromToolPayload(agent, event, payload);
}

const PATCH_PATH = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.*)$/;

/** The paths an apply_patch text touches, absolute (relative ones resolved against `cwd`), in order, once each. */
export function patchPaths(patch: string, cwd: string): string[] {
  const out: string[] = [];
  for (const line of patch.split('\n')) {
    const m = PATCH_PATH.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (!m) continue;
    const p = m[1]!.trim();
    if (p === '') continue;
    const abs = posix.isAbsolute(p) || cwd === '' ? posix.normalize(p) : posix.join(cwd, p);
    if (!out.includes(abs)) out.push(abs);
  }
  return out;
}

const SHELL_WRAPPER = /^(?:\/(?:usr\/)?bin\/)?(?:bash|sh|zsh) (?:-lc|-c|-l -c) (.+)$/s;

/**
 * The script of a command Codex joined from an argv `[bash, -lc, SCRIPT]` (shlex quoting: single
 * quotes, a quote inside written `'\''` or `'"'"'`), or undefined when the command is not exactly
 * that shape.
 */
export function unwrapShell(command: string): string | undefined {
  const m = SHELL_WRAPPER.exec(command);
  if (!m) return undefined;
  const word = m[1]!;
  let out = '';
  for (let i = 0; i < word.length; ) {
    const c = word[i]!;
    if (c === "'") {
      const end = word.indexOf("'", i + 1);
      if (end < 0) return undefined;
      out += word.slice(i + 1, end);
      i = end + 1;
    } else if (c === '\\' && i + 1 < word.length) {
      out += word[i + 1];
      i += 2;
    } else if (c === '"' && word.startsWith('"\'"', i)) {
      out += "'";
      i += 3;
    } else if (/[A-Za-z0-9_@%+=:,.\/-]/.test(c)) {
      out += c;
      i++;
    } else return undefined;
  }
  return out;
}
