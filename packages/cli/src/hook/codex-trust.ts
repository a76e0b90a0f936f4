/**
 * Codex's trust in a hook: Codex runs a hook that is not managed only once a person has trusted it
 * (`/hooks`), and skips an untrusted or changed one silently. Trust is a hash of the hook's
 * definition stored in `config.toml` under `[hooks.state."<file>:<event>:<group>:<handler>"]
 * trusted_hash = "sha256:…"`. The hash is computed as Codex 0.169 computes it (checked against the
 * `currentHash` its app-server reports for the same hook): the event's snake-case label, the
 * group's matcher and the one handler with its timeout filled in (600 s when unset, at least 1),
 * `async` always present, `statusMessage` only when set; keys sorted at every level, no spaces,
 * SHA-256 in hex.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';

const LABELS: Record<string, string> = {
  PreToolUse: 'pre_tool_use',
  PermissionRequest: 'permission_request',
  PostToolUse: 'post_tool_use',
  PreCompact: 'pre_compact',
  PostCompact: 'post_compact',
  SessionStart: 'session_start',
  UserPromptSubmit: 'user_prompt_submit',
  Stop: 'stop',
};

export function codexEventLabel(event: string): string {
  return LABELS[event] ?? event;
}

/** The `[hooks.state]` key of handler `handler` of group `group` of `event` in `file` (an absolute path). */
export function codexHookKey(file: string, event: string, group: number, handler: number): string {
  return `${file}:${codexEventLabel(event)}:${group}:${handler}`;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = canonical((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

export interface CodexHandler {
  command: string;
  timeout?: number;
  async?: boolean;
  statusMessage?: string;
}

/** The hash Codex trusts a command handler by. */
export function codexHookHash(event: string, matcher: string | undefined, handler: CodexHandler): string {
  const normalized: Record<string, unknown> = {
    type: 'command',
    command: handler.command,
    timeout: Math.max(1, handler.timeout ?? 600),
    async: handler.async === true,
  };
  if (handler.statusMessage !== undefined) normalized['statusMessage'] = handler.statusMessage;
  const identity: Record<string, unknown> = { event_name: codexEventLabel(event), hooks: [normalized] };
  if (matcher !== undefined) identity['matcher'] = matcher;
  return `sha256:${createHash('sha256').update(JSON.stringify(canonical(identity)), 'utf8').digest('hex')}`;
}

export interface HookState {
  trustedHash?: string;
  enabled?: boolean;
}

export type TrustRead =
  | { ok: true; states: Map<string, HookState>; hooksFeature: boolean | undefined; trustedProjects: string[] }
  | { ok: false; file: string; error: string };

/** The `[hooks.state]` entries and `[features] hooks` of the Codex `config.toml` files that exist among `files`. */
export function readCodexState(files: readonly string[]): TrustRead {
  const states = new Map<string, HookState>();
  let hooksFeature: boolean | undefined;
  const trustedProjects: string[] = [];
  for (const file of files) {
    if (!existsSync(file)) continue;
    let doc: Record<string, unknown>;
    try {
      doc = parseToml(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      return { ok: false, file, error: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
    }
    const features = doc['features'];
    if (typeof features === 'object' && features !== null) {
      const f = features as Record<string, unknown>;
      const v = f['hooks'] ?? f['codex_hooks'];
      if (typeof v === 'boolean') hooksFeature = v;
    }
    const projects = doc['projects'];
    if (typeof projects === 'object' && projects !== null) {
      for (const [path, p] of Object.entries(projects as Record<string, unknown>)) {
        if (typeof p === 'object' && p !== null && (p as Record<string, unknown>)['trust_level'] === 'trusted') trustedProjects.push(path);
      }
    }
    const hooks = doc['hooks'];
    const state = typeof hooks === 'object' && hooks !== null ? (hooks as Record<string, unknown>)['state'] : undefined;
    if (typeof state !== 'object' || state === null) continue;
    for (const [key, value] of Object.entries(state as Record<string, unknown>)) {
      if (typeof value !== 'object' || value === null) continue;
      const v = value as Record<string, unknown>;
      states.set(key, {
        ...(typeof v['trusted_hash'] === 'string' ? { trustedHash: v['trusted_hash'] } : {}),
        ...(typeof v['enabled'] === 'boolean' ? { enabled: v['enabled'] } : {}),
      });
    }
  }
  return { ok: true, states, hooksFeature, trustedProjects };
}
