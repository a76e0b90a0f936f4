/**
 * Which agent sent a payload. The payload is trusted over `--agent`: Cursor runs hooks from Claude
 * Code's settings files too, and must be answered in its own dialect.
 * - `hook_event_name` `BeforeTool` → Gemini CLI;
 * - a camelCase event name, or a `cursor_version` or `conversation_id` member → Cursor;
 * - `PreToolUse` / `PermissionRequest` with a `turn_id` → Codex, without → Claude Code.
 * Anything else says nothing, and the flag decides.
 */
import type { HookAgent } from '@verdict/engine';
import { member, type ObjectMembers } from './json-members.ts';

export function detectAgent(payload: ObjectMembers): HookAgent | undefined {
  const ev = member(payload, 'hook_event_name')?.value;
  const event = typeof ev === 'string' ? ev : undefined;
  if (event === 'BeforeTool') return 'gemini';
  if ((event !== undefined && /^[a-z]/.test(event)) || member(payload, 'cursor_version') || member(payload, 'conversation_id')) return 'cursor';
  if (event === 'PreToolUse' || event === 'PermissionRequest') return member(payload, 'turn_id') ? 'codex' : 'claude';
  return undefined;
}

/** The event of a payload text that does not parse (truncated, say), when its text still names one. */
export function sniffEvent(text: string): string | undefined {
  const m = /"hook_event_name"\s*:\s*"([A-Za-z]+)"/.exec(text);
  return m?.[1];
}
