/**
 * Protected paths (threat model, invariant 4; docs/protections.md): the files through which a call
 * could switch the guard off or make an allowed program run code. Every policy protects them unless
 * it lifts a protection by name (`protections: {lift: [name, …]}`); a write to one by any channel
 * (a file tool, a patch path, a shell write) is denied, whatever the rules say.
 *
 * Pure: the file system (symlinks) comes in as `context.realpath`, the shell's reading as
 * `context.shellWrites` (`@verdict/shell`'s `shellWrites`), the capability table's configuration
 * files as `context.configFiles` (`@verdict/shell`'s `CONFIG_FILES`): the engine imports neither.
 */
import { scanObjectMembers } from '../canonical/canonical.ts';
import { caseFold } from '../canonical/casefold.ts';
import { AGENT_CATALOGUES, HOOK_AGENTS, type NeutralTool } from '../hooks/agents.ts';
import { DEFAULT_SHELL_TOOLS } from '../approver/shell.ts';
import { absolutePath, isWithin, normalizePath } from './paths.ts';

export type ProtectionName =
  | 'claude-settings'
  | 'codex-settings'
  | 'gemini-settings'
  | 'cursor-settings'
  | 'policy'
  | 'verdict'
  | 'git-config'
  | 'git-hooks'
  | 'git-info'
  | 'program-config'
  | 'build-files';

export interface Protection {
  readonly name: ProtectionName;
  /** What it protects, for reasons and docs. */
  readonly what: string;
}

/** Every protection, in the order a path is checked against them. */
export const PROTECTIONS: readonly Protection[] = Object.freeze([
  { name: 'claude-settings', what: "Claude Code's settings and hooks" },
  { name: 'codex-settings', what: "Codex's settings and hooks" },
  { name: 'gemini-settings', what: "Gemini CLI's settings and hooks" },
  { name: 'cursor-settings', what: "Cursor's settings and hooks" },
  { name: 'policy', what: 'the policy Verdict decides with' },
  { name: 'verdict', what: "Verdict's installation and its log" },
  { name: 'git-config', what: "git's configuration, which can make git run programs" },
  { name: 'git-hooks', what: 'git hooks, programs git runs' },
  { name: 'git-info', what: 'git attributes, which can name programs git runs' },
  { name: 'program-config', what: 'a configuration file that can make an allowed program run code' },
  { name: 'build-files', what: 'a build file, which allowed build and test commands run' },
] as const satisfies readonly Protection[]);

export const PROTECTION_NAMES: readonly ProtectionName[] = Object.freeze(PROTECTIONS.map((p) => p.name));

/** A denied write: the protection, one sentence naming it, and the path (as resolved) it was about. */
export interface ProtectHit {
  readonly name: ProtectionName;
  readonly reason: string;
  /** The path written, absolute and resolved; `null` when it is known only at run time. */
  readonly path: string | null;
}

/** What a call is, for the protections: every name it answers to, its input text, and its patch paths. */
export interface ProtectRequest {
  readonly names: readonly string[];
  /** The tool input, JSON text. */
  readonly input: string;
  /** The files a patch touches (Codex `apply_patch`), absolute or relative to `cwd`. */
  readonly paths?: readonly string[];
  /** Other texts of the same call (a Codex shell command unwrapped from `bash -lc`). */
  readonly alsoInputs?: readonly string[];
}

/** What a shell text writes (`@verdict/shell`'s `shellWrites`). */
export interface ShellWriteList {
  readonly targets: readonly (string | null)[];
  readonly dirs: readonly (string | null)[];
  /** Targets the command removes or moves away (a folder removed takes what is inside with it). */
  readonly removes?: readonly (string | null)[];
}

export interface ProtectContext {
  /** The call's working folder, absolute. */
  readonly cwd: string;
  readonly home: string;
  /** The agent's environment (`CODEX_HOME`, `GEMINI_CLI_HOME`, `CLAUDE_CONFIG_DIR`, `$VAR` config files). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The policy file and what it includes, absolute. */
  readonly policyFiles?: readonly string[];
  /** Verdict's installation and log files and folders, absolute. */
  readonly verdictFiles?: readonly string[];
  /** The capability table's configuration files (`@verdict/shell`'s `CONFIG_FILES`). */
  readonly configFiles?: readonly string[];
  /** Protections the policy lifts, by name. */
  readonly lift?: readonly string[];
  /** The path as the system opens it (symlinks resolved); `null`: cannot be resolved (a link loop). */
  readonly realpath?: (absolute: string) => string | null;
  /** The writes of a shell text; `undefined`: shell calls are not checked (no reader given). */
  readonly shellWrites?: (text: string) => ShellWriteList;
  /** The tools whose `command` is shell text (absent: `DEFAULT_SHELL_TOOLS`); a name `shell` always is. */
  readonly shellTools?: readonly string[];
}

type Matcher =
  /** `parts` (folded) anywhere in a path: a folder (`.claude`), or a file at its end (`.git/config`). */
  | { readonly name: ProtectionName; readonly kind: 'anywhere-dir' | 'anywhere-file'; readonly parts: readonly string[] }
  /** One absolute path (folded): a folder and what is in it, or one file. */
  | { readonly name: ProtectionName; readonly kind: 'dir' | 'file'; readonly path: string };

const fold = (p: string): string => p.toLowerCase();

/** The protections' matchers in this context, in {@link PROTECTIONS} order. */
function matchers(ctx: ProtectContext): Matcher[] {
  const env = ctx.env ?? {};
  const home = normalizePath(ctx.home || '/');
  const out: Matcher[] = [];
  const abs = (name: ProtectionName, kind: 'dir' | 'file', path: string | undefined): void => {
    if (!path) return;
    const p = absolutePath(path, ctx.cwd, home);
    if (p === null) return;
    out.push({ name, kind, path: fold(p) });
    const real = ctx.realpath?.(p);
    if (real && real !== p) out.push({ name, kind, path: fold(real) });
  };
  const anywhere = (name: ProtectionName, kind: 'anywhere-dir' | 'anywhere-file', path: string): void => {
    out.push({ name, kind, parts: fold(path).split('/').filter((x) => x !== '') });
  };
  anywhere('claude-settings', 'anywhere-dir', '.claude');
  anywhere('claude-settings', 'anywhere-file', '.mcp.json');
  abs('claude-settings', 'file', `${home}/.claude.json`);
  abs('claude-settings', 'dir', `${home}/.claude`);
  abs('claude-settings', 'dir', env['CLAUDE_CONFIG_DIR']);
  abs('claude-settings', 'dir', '/etc/claude-code');
  abs('claude-settings', 'dir', '/Library/Application Support/ClaudeCode');
  anywhere('codex-settings', 'anywhere-dir', '.codex');
  abs('codex-settings', 'dir', `${home}/.codex`);
  abs('codex-settings', 'dir', env['CODEX_HOME']);
  abs('codex-settings', 'dir', '/etc/codex');
  anywhere('gemini-settings', 'anywhere-dir', '.gemini');
  abs('gemini-settings', 'dir', `${home}/.gemini`);
  abs('gemini-settings', 'dir', env['GEMINI_CLI_HOME'] ? `${env['GEMINI_CLI_HOME']}/.gemini` : undefined);
  abs('gemini-settings', 'dir', '/etc/gemini-cli');
  anywhere('cursor-settings', 'anywhere-dir', '.cursor');
  abs('cursor-settings', 'dir', `${home}/.cursor`);
  for (const f of ctx.policyFiles ?? []) abs('policy', 'file', f);
  for (const f of ctx.verdictFiles ?? []) abs('verdict', f.endsWith('/') ? 'dir' : 'file', f);
  anywhere('git-config', 'anywhere-file', '.git/config');
  anywhere('git-config', 'anywhere-file', '.git/config.worktree');
  anywhere('git-hooks', 'anywhere-dir', '.git/hooks');
  anywhere('git-info', 'anywhere-dir', '.git/info');
  for (const entry of ctx.configFiles ?? []) {
    // The git protections above name these themselves (so that each can be lifted by its own name).
    if (/^\.git\/(config|hooks\/|info\/)/.test(entry)) continue;
    const name: ProtectionName = /^[^.~/$][^/]*$/.test(entry) ? 'build-files' : 'program-config';
    const kind = entry.endsWith('/') ? 'dir' : 'file';
    const variable = /^\$([A-Za-z_][A-Za-z0-9_]*)(\/.*)?$/.exec(entry);
    if (variable) {
      const value = env[variable[1]!];
      if (value) abs(name, kind, `${value}${variable[2] ?? ''}`);
    } else if (entry.startsWith('~/') || entry.startsWith('/')) abs(name, kind, entry);
    else anywhere(name, kind === 'dir' ? 'anywhere-dir' : 'anywhere-file', entry);
  }
  return out;
}

/** Whether `parts` occurs in `path` at `at`. */
function occursAt(path: readonly string[], parts: readonly string[], at: number): boolean {
  for (let k = 0; k < parts.length; k++) if (path[at + k] !== parts[k]) return false;
  return true;
}

/** Whether the folded absolute `path` is protected by `m`; `removes`: the write takes what is inside the path too. */
function hits(m: Matcher, path: string, removes: boolean): boolean {
  if ('path' in m) return (m.kind === 'dir' ? isWithin(path, m.path) : path === m.path) || (removes && isWithin(m.path, path));
  return hitsAnywhere(m, path, removes);
}

function hitsAnywhere(m: Extract<Matcher, { parts: readonly string[] }>, path: string, removes: boolean): boolean {
  const parts = path.split('/').filter((x) => x !== '');
  const n = m.parts.length;
  if (m.kind === 'anywhere-dir') {
    for (let at = 0; at + n <= parts.length; at++) if (occursAt(parts, m.parts, at)) return true;
  } else if (parts.length >= n && occursAt(parts, m.parts, parts.length - n)) return true;
  // A folder on the way to one (`.git` of `.git/config`) removed or moved takes it with it.
  if (removes) for (let k = 1; k < n; k++) if (parts.length >= k && occursAt(parts, m.parts.slice(0, k), parts.length - k)) return true;
  return false;
}

const protectionOf = (name: ProtectionName): Protection => PROTECTIONS.find((p) => p.name === name)!;

function hitReason(name: ProtectionName, shown: string | null, real?: string): string {
  const what = protectionOf(name).what;
  const at = real !== undefined && real !== shown ? ` (that is \`${real}\`)` : '';
  const subject = shown === null ? 'writes a path known only at run time, which may be' : `writes \`${shown}\`${at},`;
  return `${subject} a protected path (\`${name}\`: ${what}); only a policy that lifts \`${name}\` lets a call write it`;
}

/** The neutral names a call answers to, from its names (an agent's own tool names included). */
function neutralNames(names: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const n of names) {
    out.add(n);
    for (const agent of HOOK_AGENTS) {
      const neutral: NeutralTool | undefined = AGENT_CATALOGUES[agent].tools.find((t) => t.name === n)?.neutral;
      if (neutral) out.add(neutral);
    }
  }
  return out;
}

/** Input keys that hold the file a file tool writes (folded). */
const WRITE_KEYS = new Set(['file_path', 'notebook_path', 'path', 'filepath', 'target_file', 'target_path', 'target_notebook']);
/** Input keys that hold a shell tool's working folder (Gemini `dir_path`, Cursor `cwd`, `working_directory`). */
const CWD_KEYS = new Set(['dir_path', 'cwd', 'working_directory', 'workdir']);

/** The string members of an input object, by folded key; `undefined` when it is not an object. */
function stringMembers(input: string): Map<string, string[]> | undefined {
  const scanned = scanObjectMembers(input.trim() === '' ? '{}' : input);
  if (scanned.kind !== 'object') return undefined;
  const out = new Map<string, string[]>();
  for (const m of scanned.members) {
    if (m.string === undefined) continue;
    const k = m.key.toLowerCase();
    out.set(k, [...(out.get(k) ?? []), m.string]);
  }
  return out;
}

interface Target {
  /** Absolute and normalised; `null`: known only at run time. */
  readonly path: string | null;
  readonly removes: boolean;
}

const MAX_BASES = 64;

function shellTargets(text: string, cwd: string, ctx: ProtectContext): Target[] {
  const w = ctx.shellWrites!(text);
  // A relative target may be under the call's folder or any folder a `cd` in the text moves to.
  const bases = [cwd];
  let lost = false;
  for (const d of w.dirs) {
    if (d === null) {
      lost = true;
      continue;
    }
    for (const b of [...bases]) {
      const next = absolutePath(d, b, ctx.home);
      if (next === null) lost = true;
      else if (!bases.includes(next) && bases.length < MAX_BASES) bases.push(next);
      else if (bases.length >= MAX_BASES) lost = true;
    }
  }
  const out: Target[] = [];
  const add = (t: string | null, removes: boolean): void => {
    if (t === null) return void out.push({ path: null, removes });
    if (t.startsWith('/') || t.startsWith('~')) return void out.push({ path: absolutePath(t, cwd, ctx.home), removes });
    if (lost) out.push({ path: null, removes });
    for (const b of bases) out.push({ path: absolutePath(t, b, ctx.home), removes });
  };
  for (const t of w.targets) add(t, false);
  for (const t of w.removes ?? []) add(t, true);
  return out;
}

/** The files a call writes, absolute (not yet resolved); `[]` when it writes none the protections know of. */
export function writtenPaths(request: ProtectRequest, ctx: ProtectContext): Target[] {
  const names = neutralNames(request.names);
  const out: Target[] = [];
  const cwd = normalizePath(ctx.cwd || '/');
  if (names.has('file.write')) {
    if (request.paths !== undefined) {
      for (const p of request.paths) out.push({ path: absolutePath(p, cwd, ctx.home), removes: false });
    } else {
      const members = stringMembers(request.input);
      const paths = [...(members ?? new Map<string, string[]>())].filter(([k]) => WRITE_KEYS.has(k)).flatMap(([, v]) => v);
      // A file tool whose file cannot be read from its input may write any file.
      if (paths.length === 0) out.push({ path: null, removes: false });
      for (const p of paths) out.push({ path: absolutePath(p, cwd, ctx.home), removes: false });
    }
  }
  const shellNames = new Set([...(ctx.shellTools ?? DEFAULT_SHELL_TOOLS.map((t) => t.tool))].map(caseFold));
  const isShell = names.has('shell') || request.names.some((n) => shellNames.has(caseFold(n)));
  if (isShell && ctx.shellWrites) {
    for (const text of [request.input, ...(request.alsoInputs ?? [])]) {
      const members = stringMembers(text);
      if (!members) continue;
      const dir = [...members].find(([k]) => CWD_KEYS.has(k))?.[1][0];
      const base = dir === undefined ? cwd : (absolutePath(dir, cwd, ctx.home) ?? cwd);
      for (const command of members.get('command') ?? []) out.push(...shellTargets(command, base, ctx));
    }
  }
  return out;
}

/**
 * The protection a call's write breaks, or `null`: the first protection (in {@link PROTECTIONS}
 * order) the policy does not lift that any path the call writes falls under, checked as written
 * (made absolute) and as the system opens it (`context.realpath`). A path known only at run time
 * falls under every protection.
 */
export function protectedWrite(request: ProtectRequest, context: ProtectContext): ProtectHit | null {
  const targets = writtenPaths(request, context);
  if (targets.length === 0) return null;
  const lifted = new Set(context.lift ?? []);
  const ms = matchers(context).filter((m) => !lifted.has(m.name));
  if (ms.length === 0) return null;
  for (const t of targets) {
    if (t.path === null) return { name: ms[0]!.name, reason: hitReason(ms[0]!.name, null), path: null };
    const real = context.realpath ? context.realpath(t.path) : t.path;
    if (real === null) return { name: ms[0]!.name, reason: hitReason(ms[0]!.name, null), path: null };
    const forms = real === t.path ? [t.path] : [t.path, real];
    for (const m of ms) {
      const form = forms.find((f) => hits(m, fold(f), t.removes));
      if (form !== undefined) return { name: m.name, reason: hitReason(m.name, t.path, real), path: real };
    }
  }
  return null;
}
