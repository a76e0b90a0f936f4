/**
 * Hook payloads in each agent's shape, as its documentation (and captures of real calls) show
 * them, for the golden, fault-injection and property tests of `verdict hook`.
 */
import type { HookAgent } from '@verdict/engine';

export interface EventKind {
  agent: HookAgent;
  event: string;
}

export const EVENT_KINDS: readonly EventKind[] = [
  { agent: 'claude', event: 'PreToolUse' },
  { agent: 'claude', event: 'PermissionRequest' },
  { agent: 'codex', event: 'PreToolUse' },
  { agent: 'codex', event: 'PermissionRequest' },
  { agent: 'gemini', event: 'BeforeTool' },
  { agent: 'cursor', event: 'preToolUse' },
  { agent: 'cursor', event: 'beforeShellExecution' },
  { agent: 'cursor', event: 'beforeMCPExecution' },
  { agent: 'cursor', event: 'beforeReadFile' },
];

/** The agent's shell tool name. */
export const SHELL: Record<HookAgent, string> = { claude: 'Bash', codex: 'Bash', gemini: 'run_shell_command', cursor: 'Shell' };

const CURSOR_COMMON = {
  conversation_id: 'c0a8f3e2-5f1b-4b0e-9d4e-1f2a3b4c5d6e',
  generation_id: 'g-7f3e',
  model: 'claude-4.6-sonnet',
  cursor_version: '3.5.38',
  workspace_roots: ['/repo'],
  user_email: 'dev@example.com',
  transcript_path: null,
};

/** A `{tool_name, tool_input}` payload for the agent and event (`input` is inserted as written). */
export function toolPayload(agent: HookAgent, event: string, tool: string, input: string, extra: Record<string, unknown> = {}): string {
  const head: Record<string, unknown> =
    agent === 'claude'
      ? { session_id: 'abc123', transcript_path: '/home/user/.claude/projects/repo/transcript.jsonl', cwd: '/repo', permission_mode: 'default', hook_event_name: event }
      : agent === 'codex'
        ? { session_id: '019a0c6e-5a4b', turn_id: '7', transcript_path: '/home/u/.codex/sessions/2026/09/01/rollout-1.jsonl', cwd: '/repo', hook_event_name: event, model: 'gpt-5-codex', permission_mode: 'default' }
        : agent === 'gemini'
          ? { session_id: 'a1b2c3', transcript_path: '', cwd: '/repo', hook_event_name: event, timestamp: '2026-08-21T10:00:00.000Z' }
          : { ...CURSOR_COMMON, hook_event_name: event };
  const tail: Record<string, unknown> = { ...extra };
  if (event === 'PreToolUse' || event === 'preToolUse') tail['tool_use_id'] = agent === 'codex' ? 'call_abc123' : 'toolu_01ABC123';
  if (agent === 'cursor') tail['cwd'] = '/repo';
  if (agent === 'claude' && event === 'PermissionRequest') tail['permission_suggestions'] ??= [];
  const open = JSON.stringify(head).slice(0, -1);
  const rest = JSON.stringify(tail).slice(1);
  return `${open},"tool_name":${JSON.stringify(tool)},"tool_input":${input}${rest === '}' ? '}' : `,${rest}`}`;
}

export function cursorShell(command: string): string {
  return JSON.stringify({ ...CURSOR_COMMON, hook_event_name: 'beforeShellExecution', command, cwd: '/repo', sandbox: false });
}

export function cursorRead(path: string): string {
  return JSON.stringify({ ...CURSOR_COMMON, hook_event_name: 'beforeReadFile', file_path: path, content: 'rm -rf / # not a command: file text', attachments: [] });
}

export function cursorMcp(tool: string, args: string, server = 'github'): string {
  return JSON.stringify({ ...CURSOR_COMMON, hook_event_name: 'beforeMCPExecution', tool_name: tool, tool_input: args, command: server });
}

/** An MCP call in the agent's naming (Gemini CLI also gets `mcp_context`). */
export function mcpPayload(agent: HookAgent, event: string, server: string, tool: string, args: string): string {
  if (agent === 'gemini') {
    return toolPayload(agent, event, `mcp_${server}_${tool}`, args, { mcp_context: { server_name: server, tool_name: tool, command: 'npx', args: [], cwd: '/repo' } });
  }
  if (agent === 'cursor') return event === 'beforeMCPExecution' ? cursorMcp(tool, args, server) : toolPayload(agent, event, `MCP:${tool}`, args);
  return toolPayload(agent, event, `mcp__${server}__${tool}`, args);
}

/** A shell call for the event (Cursor's beforeShellExecution has its own shape). */
export function shellPayload(agent: HookAgent, event: string, command: string, extra: Record<string, unknown> = {}): string {
  if (event === 'beforeShellExecution') return cursorShell(command);
  return toolPayload(agent, event, SHELL[agent], JSON.stringify(agent === 'gemini' ? { command, description: 'run', dir_path: '.' } : { command }), extra);
}

/** Invalid UTF-8: a stray byte, an overlong form, an encoded surrogate, a cut-short sequence, a lone continuation. */
export const INVALID_UTF8: readonly Buffer[] = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x80]].map((b) => Buffer.from(b));

/** The UTF-8 bytes of `text` with each U+E000 in it replaced by `bytes`. */
export function withBytes(text: string, bytes: Buffer): Buffer {
  const parts = text.split('\ue000').map((p) => Buffer.from(p, 'utf8'));
  return Buffer.concat(parts.flatMap((p, i) => (i === 0 ? [p] : [bytes, p])));
}
