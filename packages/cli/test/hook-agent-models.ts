/**
 * Test-side models of how each agent reads a hook's answer, written from the agents' documented
 * behaviour (and, where versions differ, the strictest reading: an answer must block in every
 * version). `runs` is every outcome where the tool goes ahead without a person: an allow, "no
 * decision", and every failure the agent treats as one (they all fail open).
 */
import type { HookAgent } from '@verdict/engine';

export type Reading = 'runs' | 'blocked' | 'asks';

export interface Answer {
  code: number;
  stdout: string;
  stderr: string;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/**
 * Claude Code from v2.1.90 (the oldest version Verdict's deny blocks in: before it, JSON beside exit 2
 * did not block): exit 2 blocks PreToolUse with empty stdout or with a schema-valid JSON answer beside
 * it; exit 2 with stdout that is not valid JSON blocks only from v2.1.214, so it counts as runs.
 */
function claude(event: string, a: Answer): Reading {
  const out = a.stdout.trim();
  if (event === 'PermissionRequest') {
    // Exit 2 is ignored here; only the JSON decision counts; no decision shows the prompt.
    const hso = obj(parseObject(out)?.['hookSpecificOutput']);
    if (hso?.['hookEventName'] !== 'PermissionRequest') return 'asks';
    const d = obj(hso['decision']);
    if (d?.['behavior'] === 'deny') return 'blocked';
    if (d?.['behavior'] === 'allow') return 'runs';
    return 'asks';
  }
  if (a.code === 2) {
    if (out === '') return 'blocked';
    const hso = obj(parseObject(out)?.['hookSpecificOutput']);
    return hso?.['hookEventName'] === 'PreToolUse' ? 'blocked' : 'runs';
  }
  if (a.code !== 0) {
    const hso = obj(parseObject(out)?.['hookSpecificOutput']);
    return hso?.['permissionDecision'] === 'deny' ? 'blocked' : 'runs';
  }
  if (!out.startsWith('{')) return 'runs';
  const hso = obj(parseObject(out)?.['hookSpecificOutput']);
  if (!hso || hso['hookEventName'] !== 'PreToolUse') return 'runs';
  if (hso['permissionDecision'] === 'deny') return 'blocked';
  if (hso['permissionDecision'] === 'ask') return 'asks';
  return 'runs';
}

const CODEX_TOP = new Set(['hookSpecificOutput', 'decision', 'reason']);
const CODEX_PRE = new Set(['hookEventName', 'permissionDecision', 'permissionDecisionReason', 'updatedInput', 'additionalContext']);
const CODEX_PERM = new Set(['hookEventName', 'decision']);
const CODEX_DECISION = new Set(['behavior', 'message']);

/** Codex: every output struct rejects unknown keys; exit 2 is not trusted (field reports say the tool ran). */
function codex(event: string, a: Answer): Reading {
  if (a.code !== 0) return event === 'PermissionRequest' ? 'asks' : 'runs';
  const out = a.stdout.trim();
  const failed: Reading = event === 'PermissionRequest' ? 'asks' : 'runs';
  if (out === '') return failed;
  const top = parseObject(out);
  if (!top || Object.keys(top).some((k) => !CODEX_TOP.has(k))) return failed;
  const hso = obj(top['hookSpecificOutput']);
  if (!hso || hso['hookEventName'] !== event) return failed;
  if (event === 'PermissionRequest') {
    if (Object.keys(hso).some((k) => !CODEX_PERM.has(k))) return failed;
    const d = obj(hso['decision']);
    if (!d || Object.keys(d).some((k) => !CODEX_DECISION.has(k))) return failed;
    return d['behavior'] === 'deny' ? 'blocked' : d['behavior'] === 'allow' ? 'runs' : failed;
  }
  if (Object.keys(hso).some((k) => !CODEX_PRE.has(k))) return failed;
  if (hso['permissionDecision'] === 'deny' && typeof hso['permissionDecisionReason'] === 'string' && hso['permissionDecisionReason'] !== '') return 'blocked';
  return 'runs';
}

/** Gemini CLI from v0.30: stdout, else stderr; a JSON object decides whatever the exit code. */
function geminiNew(a: Answer): Reading {
  const text = a.stdout.trim() || a.stderr.trim();
  if (text === '') return 'runs';
  const o = parseObject(text);
  if (o) return o['decision'] === 'deny' || o['decision'] === 'block' ? 'blocked' : o['decision'] === 'ask' ? 'asks' : 'runs';
  return a.code >= 2 ? 'blocked' : 'runs';
}

/** Gemini CLI before v0.30: stdout JSON only on exit 0; exit 2 with stderr text denies. */
function geminiOld(a: Answer): Reading {
  if (a.code === 0) {
    const o = parseObject(a.stdout.trim());
    return o && (o['decision'] === 'deny' || o['decision'] === 'block') ? 'blocked' : 'runs';
  }
  return a.code === 2 && a.stderr.trim() !== '' ? 'blocked' : 'runs';
}

/** The stricter of the two Gemini readings: blocked only if both versions block. */
function gemini(a: Answer): Reading {
  const n = geminiNew(a);
  const o = geminiOld(a);
  if (n === 'blocked' && o === 'blocked') return 'blocked';
  if (n === 'runs' || o === 'runs') return 'runs';
  return 'asks';
}

/** Cursor without failClosed: exit 2 blocks; ask was measured as allow on shell (3.1.15) and is not enforced on preToolUse. */
function cursor(_event: string, a: Answer): Reading {
  if (a.code === 2) return 'blocked';
  if (a.code !== 0) return 'runs';
  const o = parseObject(a.stdout.trim());
  if (!o) return 'runs';
  if (o['permission'] === 'deny' || o['decision'] === 'deny') return 'blocked';
  return 'runs';
}

export function readAnswer(agent: HookAgent, event: string, a: Answer): Reading {
  switch (agent) {
    case 'claude':
      return claude(event, a);
    case 'codex':
      return codex(event, a);
    case 'gemini':
      return gemini(a);
    case 'cursor':
      return cursor(event, a);
  }
}
