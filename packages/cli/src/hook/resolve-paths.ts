/**
 * Paths as the system opens them (issue 26 item 2, threat model invariant 5, docs/protections.md
 * "Paths"): before the rules see a hook call, every path its input names (`file_path`,
 * `notebook_path`, `path`, `dir_path`, a Codex patch's files) is made absolute against the call's
 * folder, `~`, `.`, `..` and `//` resolved, and symlinks resolved through the longest existing
 * prefix (`real-path.ts`), on the machine that runs the tool.
 *
 * The rules decide on the input with the resolved paths. The input as the agent wrote it is asked
 * too, but only a deny or an ask rule counts there: a rule written against the path as written can
 * still deny it, and no allow holds for a path it did not see resolved.
 */
import { absolutePath, scanObjectMembers } from '@verdict/engine';
import type { HookRequest } from './request.ts';
import { realPath } from './real-path.ts';

/** Top-level input keys that hold a path (lowercase). */
const PATH_KEYS = new Set(['file_path', 'notebook_path', 'path', 'dir_path', 'filepath', 'target_file', 'target_path']);

/**
 * The absolute, resolved form of `path` (lexical when a link loop stops the walk); `null` when it
 * cannot be made absolute: `~user`, or a relative path of a call that names no folder (`cwd`
 * undefined: it stays as written, and no rule written for absolute paths allows it).
 */
export function resolvedPath(path: string, cwd: string | undefined, home: string): string | null {
  if (cwd === undefined && !path.startsWith('/') && !path.startsWith('~')) return null;
  const abs = absolutePath(path, cwd ?? '/', home);
  if (abs === null) return null;
  return realPath(abs) ?? abs;
}

/** `input` with each path member's value replaced by its resolved form; `undefined` when nothing changes. */
export function resolveInput(input: string, cwd: string | undefined, home: string): string | undefined {
  if (input.trim() === '') return undefined;
  const scanned = scanObjectMembers(input);
  if (scanned.kind !== 'object') return undefined;
  let out = '';
  let at = 0;
  for (const m of scanned.members) {
    if (m.string === undefined || m.string === '' || !PATH_KEYS.has(m.key.toLowerCase())) continue;
    const r = resolvedPath(m.string, cwd, home);
    if (r === null || r === m.string) continue;
    out += input.slice(at, m.start) + JSON.stringify(r);
    at = m.end;
  }
  return at === 0 ? undefined : out + input.slice(at);
}

/** The request with its paths resolved (see the file's comment). */
export function resolveRequest(request: HookRequest, cwd: string | undefined, home: string): HookRequest {
  const input = resolveInput(request.input, cwd, home);
  const out: HookRequest = { ...request };
  if (input !== undefined) {
    out.input = input;
    out.writtenInputs = [request.input];
  }
  if (request.paths !== undefined) {
    // Every form must be allowed and any denied form denies: the written path and where it leads.
    const paths: string[] = [];
    for (const p of request.paths) {
      for (const form of [p, resolvedPath(p, cwd, home) ?? p]) if (!paths.includes(form)) paths.push(form);
    }
    out.paths = paths;
  }
  return out;
}
