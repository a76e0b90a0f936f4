/**
 * The protected paths of a hook call (issue 26, item 1; docs/protections.md): the engine's pure
 * `protectedWrite` given what only the machine that runs the tool knows: the call's folder, the home
 * folder and the agent's environment, the policy file, Verdict's own files, symlinks (`real-path.ts`),
 * and, for a shell call, `@verdict/shell`'s reading of what the text writes (loaded only then).
 */
import { homedir, userInfo } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { protectedWrite, type HookAgent, type ProtectContext, type ProtectHit, type ProtectRequest } from '@verdict/engine';
import { CONFIG_FILES } from '@verdict/shell';
import { member, type ObjectMembers } from './json-members.ts';
import { realPath } from './real-path.ts';

/** What the caller knows about the policy and Verdict's own files. */
export interface ProtectSetup {
  /** The policy file (and what it includes), as given. */
  policyFiles?: readonly string[];
  /** The hook's log file. */
  log?: string | undefined;
  /** Protections the policy lifts. */
  lift?: readonly string[];
  /** The agent's environment (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The call's working folder: the payload's `cwd` (Cursor: else its first workspace root); `undefined` when it sends none. */
export function payloadCwd(payload: ObjectMembers): string | undefined {
  const cwd = member(payload, 'cwd')?.value;
  if (typeof cwd === 'string' && cwd.startsWith('/')) return cwd;
  const roots = member(payload, 'workspace_roots')?.value;
  if (Array.isArray(roots) && typeof roots[0] === 'string' && roots[0].startsWith('/')) return roots[0];
  return undefined;
}

/**
 * Verdict's own installation: the folder of the running CLI package, and the `@verdict` folder
 * of `node_modules` it sits in (the engine, the shell reader, … beside it).
 */
function installFiles(): string[] {
  return [...packageFiles(), ...cacheFiles()];
}

/** Verdict's caches (the V8 code cache of bin/code-cache.cjs, the hook's compiled policies): in the account's own home. */
function cacheFiles(): string[] {
  try {
    const home = userInfo().homedir;
    return home ? [`${home}/.cache/verdict/`] : [];
  } catch {
    return [];
  }
}

function packageFiles(): string[] {
  try {
    const here = fileURLToPath(import.meta.url);
    const at = here.lastIndexOf('/node_modules/@verdict/');
    if (at >= 0) return [`${here.slice(0, at)}/node_modules/@verdict/`];
    // From source or dist inside the repository: packages/cli/{src,dist}/…
    const m = /^(.*\/packages\/cli)\/(src|dist)\//.exec(here);
    return m ? [`${m[1]}/`] : [`${dirname(here)}/`];
  } catch {
    return [];
  }
}

/**
 * The agent's project folder, resolved (`${project}` in the policy's patterns): Claude Code's
 * `CLAUDE_PROJECT_DIR` and Gemini CLI's `GEMINI_PROJECT_DIR` (fixed for the session; Claude Code's
 * payload `cwd` follows the model's `cd`), Cursor's first workspace root, else the payload's `cwd`,
 * else the hook's own folder. `undefined` when that is the root or the home folder itself (a rule
 * meant for one project would cover every file).
 */
export function projectOf(agent: HookAgent, payload: ObjectMembers, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const fromEnv = agent === 'claude' ? env['CLAUDE_PROJECT_DIR'] : agent === 'gemini' ? env['GEMINI_PROJECT_DIR'] : undefined;
  const roots = member(payload, 'workspace_roots')?.value;
  const root = agent === 'cursor' && Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : undefined;
  const cwd = member(payload, 'cwd')?.value;
  const chosen = [fromEnv, root, typeof cwd === 'string' ? cwd : undefined].find((d) => typeof d === 'string' && d.startsWith('/')) ?? process.cwd();
  const real = realPath(resolve(chosen)) ?? resolve(chosen);
  if (real === '/' || real === resolve(homeOf(env))) return undefined;
  return real;
}

/** The home folder `~` stands for: `$HOME`, else the system's. */
export function homeOf(env: Readonly<Record<string, string | undefined>>): string {
  return env['HOME'] || homedir();
}

export function protectContext(agent: HookAgent, payload: ObjectMembers, setup: ProtectSetup): ProtectContext {
  const env = setup.env ?? process.env;
  const cwd = payloadCwd(payload) ?? process.cwd();
  const home = homeOf(env);
  void agent;
  return {
    cwd,
    home,
    env,
    policyFiles: (setup.policyFiles ?? []).map((f) => resolve(f)),
    verdictFiles: [...installFiles(), ...(setup.log ? [resolve(setup.log)] : [])],
    configFiles: CONFIG_FILES,
    lift: setup.lift ?? [],
    realpath: realPath,
  };
}

/** The protection a hook call's write breaks, or `null` (shell calls read with `@verdict/shell`). */
export async function hookProtection(agent: HookAgent, payload: ObjectMembers, request: ProtectRequest & { names: readonly string[] }, setup: ProtectSetup, shellTools?: readonly string[]): Promise<ProtectHit | null> {
  const ctx = protectContext(agent, payload, setup);
  const { caseFold } = await import('@verdict/engine');
  const shellNames = new Set((shellTools ?? ['Bash', 'run_shell_command', 'Shell']).map(caseFold));
  const isShell = request.names.some((n) => n === 'shell' || shellNames.has(caseFold(n)));
  if (!isShell) return protectedWrite(request, ctx);
  const { shellWrites } = await import('./shell-writes.ts');
  return protectedWrite(request, { ...ctx, shellWrites, ...(shellTools ? { shellTools } : {}) });
}

/**
 * `verdict explain`'s protection check: the call as `verdict hook` would see it under `tool`
 * (its own name and the neutral names of every agent that has the tool), in `cwd`.
 */
export async function explainProtection(
  tool: string,
  input: string,
  at: { cwd: string; env: Readonly<Record<string, string | undefined>>; policyFiles: readonly string[]; lift: readonly string[] },
): Promise<ProtectHit | null> {
  const home = homeOf(at.env);
  const ctx: ProtectContext = {
    cwd: at.cwd,
    home,
    env: at.env,
    policyFiles: at.policyFiles,
    verdictFiles: installFiles(),
    configFiles: CONFIG_FILES,
    lift: at.lift,
    realpath: realPath,
  };
  const { shellWrites } = await import('./shell-writes.ts');
  let paths: string[] | undefined;
  if (tool === 'apply_patch') {
    const { patchPaths } = await import('./request.ts');
    try {
      const v = JSON.parse(input) as { command?: unknown };
      paths = typeof v.command === 'string' ? patchPaths(v.command, at.cwd) : [];
    } catch {
      paths = [];
    }
  }
  return protectedWrite({ names: [tool], input, ...(paths ? { paths } : {}) }, { ...ctx, shellWrites });
}
