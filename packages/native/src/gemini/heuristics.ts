/**
 * Gemini CLI's built-in shell heuristics (PolicyEngine `applyShellHeuristics`, sandbox `commandSafety`), which
 * run for a shell rule without a pattern and for the no-rule default: `dir_path` outside the workspace asks;
 * git in an untrusted folder asks; a dangerous command asks (not in yolo); a known-safe one turns ask_user into
 * allow. They are lexical over shell-quote's words of the whole text, except where they look at the file
 * system: the workspace and home directories, symlinks under the workspace, whether a word that starts with
 * `-` names a file, and where an absolute `rg` really lives. Given the workspace, the home directory and the
 * folder's trust, this module decides them assuming no symlink leads out of the workspace and no file is named
 * like an option; `rg` by absolute path stays undecided. Without those facts it says so, and the model then
 * lists every decision the heuristics can give.
 */
import { posix as path } from 'node:path';
import { parse as shellQuoteParse } from 'shell-quote';
import type { BashParser } from '../bash-tree.ts';

export interface GeminiRunFacts {
  /** The workspace root, as a real absolute path. */
  readonly workspace: string;
  /** The user's home directory. */
  readonly home: string;
  /** Whether the folder is trusted (Gemini CLI's folder trust). */
  readonly trustedFolder: boolean;
}

type Verdict = 'allow' | 'deny' | 'ask_user';

/** The decision after the heuristics, or undefined when it rests on something this model does not know. */
export function geminiHeuristics(
  command: string,
  decision: Verdict,
  dirPath: unknown,
  mode: string,
  facts: GeminiRunFacts,
  bash: BashParser,
  splitParts: (bash: BashParser, text: string) => string[],
): Verdict | undefined {
  if (decision === 'deny') return 'deny';
  let args: string[];
  try {
    args = words(command);
  } catch {
    return decision;
  }
  const workspace = facts.workspace;
  const cwd = dirPath ? path.resolve(workspace, String(dirPath)) : workspace;
  if (cwd !== workspace && !isSubpath(workspace, cwd) && mode !== 'yolo') return 'ask_user';
  if (containsGit(args) && !facts.trustedFolder) return 'ask_user';
  if (isDangerous(args)) return mode === 'yolo' ? decision : 'ask_user';
  if (decision !== 'ask_user') return decision;
  const safe = isKnownSafe(args, cwd, facts, bash, splitParts);
  if (safe === undefined) return undefined;
  if (!safe) return decision;
  if (cwd !== workspace && !isSubpath(workspace, cwd)) return 'ask_user';
  if (containsGit(args) && !facts.trustedFolder) return 'ask_user';
  return 'allow';
}

/** shell-quote's words, operators and globs as their text, comments as empty words (Gemini's reading). */
function words(text: string): string[] {
  return shellQuoteParse(text).map((e) => {
    if (typeof e === 'string') return e;
    if ('pattern' in e) return e.pattern;
    if ('op' in e) return e.op;
    return '';
  });
}

function isSubpath(parent: string, child: string): boolean {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return !rel.startsWith('../') && rel !== '..' && !path.isAbsolute(rel);
}

const GIT_PREDECESSORS = new Set(['sudo', 'env', 'time', '&&', '||', ';', '|', '&', '(', '\\n']);

function containsGit(args: readonly string[]): boolean {
  return args.some((arg, i) => {
    const t = arg.trim();
    if (!t) return false;
    const base = path.basename(t).toLowerCase();
    if (base !== 'git' && base !== 'git.exe') return false;
    let p = i - 1;
    while (p >= 0 && /^[a-zA-Z_][a-zA-Z0-9_]*=/.test(args[p]!)) p--;
    return p < 0 || GIT_PREDECESSORS.has(args[p]!.toLowerCase());
  });
}

const FIND_UNSAFE = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fls', '-fprint', '-fprint0', '-fprintf']);
const RG_UNSAFE_WITH = ['--pre', '--hostname-bin'];
const RG_UNSAFE = new Set(['--search-zip', '-z']);
const GIT_READ = ['status', 'log', 'diff', 'show', 'branch'];

const isRg = (cmd: string) => {
  const b = path.basename(cmd);
  return b === 'rg' || b === 'rg.exe';
};

function rgUnsafe(arg: string): boolean {
  return RG_UNSAFE.has(arg) || RG_UNSAFE_WITH.some((o) => arg === o || arg.startsWith(`${o}=`));
}

function gitOverride(args: readonly string[]): boolean {
  return args.some((a) => a === '-c' || a === '--config-env' || (a.startsWith('-c') && a.length > 2) || a.startsWith('--config-env='));
}

const GIT_VALUE_OPTIONS = ['--config-env', '--exec-path', '--git-dir', '--namespace', '--super-prefix', '--work-tree'];

function gitSubcommand(args: readonly string[]): { idx: number; sub?: string } {
  let skip = false;
  for (let i = 1; i < args.length; i++) {
    if (skip) {
      skip = false;
      continue;
    }
    const a = args[i]!;
    if (GIT_VALUE_OPTIONS.some((o) => a.startsWith(`${o}=`)) || ((a.startsWith('-C') || a.startsWith('-c')) && a.length > 2)) continue;
    if (a === '-C' || a === '-c' || GIT_VALUE_OPTIONS.includes(a)) {
      skip = true;
      continue;
    }
    if (a === '--' || a.startsWith('-')) continue;
    return GIT_READ.includes(a) ? { idx: i, sub: a } : { idx: -1 };
  }
  return { idx: -1 };
}

function gitArgsReadOnly(args: readonly string[]): boolean {
  const unsafe = new Set(['--output', '--ext-diff', '--textconv', '--exec', '--paginate']);
  return !args.some((a) => unsafe.has(a) || a.startsWith('--output=') || a.startsWith('--exec='));
}

const BRANCH_READ = new Set(['--list', '-l', '--show-current', '-a', '--all', '-r', '--remotes', '-v', '-vv', '--verbose']);

function gitBranchReadOnly(args: readonly string[]): boolean {
  if (args.length === 0) return true;
  let saw = false;
  for (const a of args) {
    if (BRANCH_READ.has(a) || a.startsWith('--format=')) saw = true;
    else return false;
  }
  return saw;
}

function isDangerous(args: readonly string[]): boolean {
  if (args.length === 0) return false;
  const cmd = args[0]!;
  if (cmd === 'ln' && args.some((a) => a === '-s' || a === '--symbolic' || (a.startsWith('-') && !a.startsWith('--') && a.includes('s')))) return true;
  if (cmd === 'rm') return args[1] === '-f' || args[1] === '-rf' || args[1] === '-fr';
  if (cmd === 'sudo') return isDangerous(args.slice(1));
  if (cmd === 'find') return args.some((a) => FIND_UNSAFE.has(a));
  if (isRg(cmd)) return args.some(rgUnsafe);
  if (cmd === 'git') {
    if (gitOverride(args)) return true;
    const { idx, sub } = gitSubcommand(args);
    if (!sub) return false;
    const rest = args.slice(idx + 1);
    if (sub === 'branch') return !(gitArgsReadOnly(rest) && gitBranchReadOnly(rest));
    return !gitArgsReadOnly(rest);
  }
  if (cmd === 'base64') return args.slice(1).some((a) => a === '-o' || a === '--output' || a.startsWith('--output=') || (a.startsWith('-o') && a !== '-o'));
  return false;
}

/** Whether `arg`, as a path, leaves the workspace (no symlink under the workspace leads out: assumed). */
function escapes(arg: string, facts: GeminiRunFacts, cwd: string): boolean {
  if (!arg) return false;
  if (arg.includes('$') || arg.includes('`')) return true;
  let target: string;
  if (arg === '~' || arg.startsWith('~/') || arg.startsWith('~\\')) target = path.resolve(facts.home, arg.slice(2));
  else if (arg.startsWith('~')) return true;
  else if (path.isAbsolute(arg)) target = path.resolve(arg);
  else target = path.resolve(cwd, arg);
  return !isSubpath(facts.workspace, target);
}

const SAFE = new Set(['__read', '__write', 'cat', 'cd', 'cut', 'echo', 'expr', 'false', 'grep', 'head', 'id', 'ls', 'nl', 'paste', 'pwd', 'rev', 'seq', 'stat', 'tail', 'tr', 'true', 'uname', 'uniq', 'wc', 'which', 'whoami', 'numfmt', 'tac']);
const READERS = new Set(['cat', 'head', 'tail', 'tac', 'nl', 'stat', 'wc', 'cut', 'paste', 'rev', 'uniq', 'numfmt', 'ls', '__read']);

/**
 * Reads path arguments the way Gemini's file readers do. A word starting with `-` is an option unless a file
 * of that name exists: assumed not to exist.
 */
function pathArgsStay(args: readonly string[], facts: GeminiRunFacts, cwd: string, fileOption: boolean): boolean {
  let dashed = false;
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (!dashed) {
      if (a === '--') {
        dashed = true;
        continue;
      }
      if (a === '-') continue;
      if (fileOption && (a.startsWith('-f') || a.startsWith('--file'))) {
        const file = a.startsWith('--file=') ? a.slice(7) : a === '--file' ? args[++i] : a.length > 2 ? a.slice(2) : args[++i];
        if (file && escapes(file, facts, cwd)) return false;
        continue;
      }
      if (a.startsWith('-')) {
        if (a.includes('=') && escapes(a.slice(a.indexOf('=') + 1), facts, cwd)) return false;
        continue;
      }
    }
    if (escapes(a, facts, cwd)) return false;
  }
  return true;
}

function safeToExec(args: readonly string[], cwd: string, facts: GeminiRunFacts): boolean | undefined {
  if (args.length === 0) return false;
  const cmd = args[0]!;
  if (cwd !== facts.workspace && !isSubpath(facts.workspace, cwd)) return false;
  if (SAFE.has(cmd)) {
    if (cmd === 'cd') {
      let hasPath = false;
      for (const a of args.slice(1)) {
        if (a.startsWith('-')) continue;
        hasPath = true;
        if (escapes(a, facts, cwd)) return false;
      }
      return hasPath || !escapes('~', facts, cwd);
    }
    if (READERS.has(cmd)) return pathArgsStay(args, facts, cwd, false);
    if (cmd === 'grep') return pathArgsStay(args, facts, cwd, true);
    return true;
  }
  if (cmd === 'base64') {
    if (args.slice(1).some((a) => a === '-o' || a === '--output' || a.startsWith('--output=') || (a.startsWith('-o') && a !== '-o'))) return false;
    return args.slice(1).every((a) => a.startsWith('-') || !escapes(a, facts, cwd));
  }
  if (cmd === 'find') {
    if (args.some((a) => FIND_UNSAFE.has(a))) return false;
    return args.slice(1).every((a) => a.startsWith('-') || !escapes(a, facts, cwd));
  }
  if (isRg(cmd)) {
    // Only an absolute rg that really is a system binary is safe: that is the file system's to say.
    return path.isAbsolute(cmd) ? undefined : false;
  }
  if (cmd === 'git') {
    if (gitOverride(args)) return false;
    const { idx, sub } = gitSubcommand(args);
    if (!sub) return false;
    const rest = args.slice(idx + 1);
    if (sub === 'branch') return gitArgsReadOnly(rest) && gitBranchReadOnly(rest);
    return gitArgsReadOnly(rest);
  }
  if (cmd === 'sed') {
    if (args.length <= 4 && args[1] === '-n' && sedNArg(args[2])) return !(args[3] && escapes(args[3], facts, cwd));
    return false;
  }
  return false;
}

function sedNArg(arg: string | undefined): boolean {
  if (!arg || !arg.endsWith('p')) return false;
  const parts = arg.slice(0, -1).split(',');
  if (parts.length === 1) return /^\d+$/.test(parts[0]!);
  if (parts.length === 2) return /^\d+$/.test(parts[0]!) && /^\d+$/.test(parts[1]!);
  return false;
}

function isKnownSafe(args: readonly string[], cwd: string, facts: GeminiRunFacts, bash: BashParser, splitParts: (bash: BashParser, text: string) => string[]): boolean | undefined {
  if (args.length === 0) return false;
  const norm = args.map((a) => (a === 'zsh' ? 'bash' : a));
  const direct = safeToExec(norm, cwd, facts);
  if (direct !== false) return direct;
  if (norm.length === 3 && norm[0] === 'bash' && (norm[1] === '-lc' || norm[1] === '-c')) {
    const script = norm[2]!;
    if (/[()<>]/.test(script)) return false;
    const parts = splitParts(bash, script);
    if (parts.length === 0) return false;
    let unknown = false;
    for (const p of parts) {
      const t = p.trim();
      if (!t) continue;
      let w: string[];
      try {
        w = words(t);
      } catch {
        return false;
      }
      if (w.length === 0) continue;
      const s = safeToExec(w, cwd, facts);
      if (s === false) return false;
      if (s === undefined) unknown = true;
    }
    return unknown ? undefined : true;
  }
  return false;
}
