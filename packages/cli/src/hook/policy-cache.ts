/**
 * The compiled-policy cache of `verdict hook` (issue 25 item 5). A hook is a fresh process per tool
 * call, and compiling the policy (YAML, the schema validators, the checks) was most of its cost.
 * After a compile without errors the hook keeps the policy's approver IR (the input of the engine's
 * `compileApprover`, plain JSON) in one file per policy; the next call with the same text builds its
 * approver from that IR and never loads the YAML parser, the validators or the rest of the compiler.
 *
 * What an entry is keyed and checked by, on every read (any mismatch, and any error at all, is a
 * miss: the hook compiles the file as if there were no cache):
 * - the policy's whole text, compared character for character with the file as it reads now (the
 *   file name only says which entry to look at), so a changed or swapped file is never answered from
 *   an entry of another text;
 * - the file name as given (it is in the spans, hence in the reasons and the log's rule location);
 * - the build of Verdict (`dist/build-id`, a hash of every file of the bundle: another version, or a
 *   rebuilt one, never reads an older entry; running from the sources, with no build id, never
 *   caches) and the Node version;
 * - a checksum (SHA-256) of the entry, so a truncated or damaged file is a miss.
 * Only a policy that reads no other file is cached: one whose `driver:` is a descriptor path is
 * compiled every time. Entries are written to a temporary file and renamed into place (a reader sees
 * a whole entry or none), 0600 in a 0700 folder; an entry not owned by this user, writable by others,
 * or reached through a symbolic link is never read.
 *
 * Where: `<home>/.cache/verdict/policies/`, the home from the user database (`os.userInfo()`), not
 * `$HOME` or `$XDG_CACHE_HOME`, which an agent may set in the hook's environment (Gemini CLI loads a
 * project's `.env` into it). What the cache cannot defend against is a process of the same user that
 * writes a well-formed entry (with the policy's real text and a different IR): that is a process that
 * could as well rewrite the policy or the hook's settings, and the protected paths of issue 26 must
 * cover `~/.cache/verdict/` as they cover Verdict's install. `VERDICT_NO_POLICY_CACHE=1` turns it off.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { readSourceFile } from '@verdict/compiler';
import { type ApproverIR, caseFold, type CommandJudgeFactory, eachRule, type CompiledApprover, compileApproverFor, getBuiltinDescriptor, isCommandRule, type PolicyFileIR, shellToolsOf } from '@verdict/engine';

/** Bumped when an entry's layout changes. */
const FORMAT = 1;
/** Entries kept; older ones (by modification time) are removed when a new one is written. */
const KEEP = 64;
/** Longest entry read: a 10 MiB policy and its IR. */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

export const NO_POLICY_CACHE_ENV = 'VERDICT_NO_POLICY_CACHE';

/** The policy file's text as the compiler reads it (regular file, size bound, strict UTF-8), or nothing. */
export function readPolicyText(file: string): string | undefined {
  return readSourceFile(file).text;
}

/** The build's identity, written beside the bundle by `pnpm build`; none when run from the sources. */
function buildId(): string | undefined {
  try {
    const id = readFileSync(new URL('../build-id', import.meta.url), 'utf8').trim();
    return /^[0-9a-f]{16,}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** SHA-256 in hex (native: ~0.1 ms for a 30 kB policy, where a hash loop in JavaScript costs ~2-4 ms in a fresh process). */
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Whether a file or folder may be trusted as this user's own: owned by the user, not writable by others. */
function ownedSafely(st: { uid: number; mode: number }): boolean {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  return (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}

/** The cache folder, created 0700 if missing; nothing when it cannot be used. */
function cacheDir(create: boolean): string | undefined {
  if (process.env[NO_POLICY_CACHE_ENV]) return undefined;
  try {
    const home = userInfo().homedir;
    if (!home) return undefined;
    const dir = join(home, '.cache', 'verdict', 'policies');
    if (create) mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    return st.isDirectory() && ownedSafely(st) ? dir : undefined;
  } catch {
    return undefined;
  }
}

interface Key {
  build: string;
  file: string;
  text: string;
}

function keyOf(file: string, text: string): Key | undefined {
  const build = buildId();
  return build === undefined ? undefined : { build: `${build} ${process.version} ${process.arch} ${FORMAT}`, file, text };
}

const entryName = (key: Key): string => `${sha256(`${key.build}\0${key.file}\0${key.text}`)}.json`;
const checksum = (key: Key, approver: string): string => sha256(`${key.build}\0${key.file}\0${key.text}\0${approver}`);

/** Reads a regular file owned by this user, not through a symbolic link; nothing otherwise. */
function readOwnFile(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || !ownedSafely(st) || st.size > MAX_ENTRY_BYTES) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, null);
      if (n <= 0) return undefined;
      at += n;
    }
    return buf.toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // gone either way
      }
    }
  }
}

/** The approver IR cached for this file name and text, after every check; nothing on any doubt. */
export function cachedApproverIR(file: string, text: string): ApproverIR | undefined {
  try {
    const key = keyOf(file, text);
    const dir = key && cacheDir(false);
    if (!key || !dir) return undefined;
    const raw = readOwnFile(join(dir, entryName(key)));
    if (raw === undefined) return undefined;
    const entry = JSON.parse(raw) as Record<string, unknown>;
    if (typeof entry !== 'object' || entry === null) return undefined;
    const { format, build, file: f, text: t, approver, check } = entry;
    if (format !== FORMAT || build !== key.build || f !== file || t !== text || typeof approver !== 'string') return undefined;
    if (check !== checksum(key, approver)) return undefined;
    const ir = JSON.parse(approver) as ApproverIR;
    return typeof ir === 'object' && ir !== null && Array.isArray(ir.allow) && Array.isArray(ir.deny) ? ir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a compiled policy file may be cached: it compiled without errors from exactly `text`, and
 * read no other file (a `driver:` that names a descriptor file is read at compile time).
 */
export function cacheable(ir: PolicyFileIR | undefined, compiledText: string | undefined, text: string): ir is PolicyFileIR & { approver: ApproverIR } {
  if (ir?.approver === undefined || compiledText !== text) return false;
  return ir.driver === undefined || getBuiltinDescriptor(ir.driver.ref) !== undefined;
}

/** Keeps `ir` for this file name and text; any failure leaves the cache as it was (or without the entry). */
export function storeApproverIR(file: string, text: string, ir: ApproverIR): void {
  let tmp: string | undefined;
  try {
    const key = keyOf(file, text);
    const dir = key && cacheDir(true);
    if (!key || !dir) return;
    const approver = JSON.stringify(ir);
    const body = JSON.stringify({ format: FORMAT, build: key.build, file, text, approver, check: checksum(key, approver) });
    const target = join(dir, entryName(key));
    tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, body, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, target);
    tmp = undefined;
    prune(dir);
  } catch {
    // No cache this time.
  } finally {
    if (tmp !== undefined) rmSync(tmp, { force: true });
  }
}

function prune(dir: string): void {
  try {
    const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    if (names.length <= KEEP) return;
    const byAge = names.map((name) => ({ name, mtime: statSync(join(dir, name)).mtimeMs })).sort((a, b) => b.mtime - a.mtime);
    for (const { name } of byAge.slice(KEEP)) rmSync(join(dir, name), { force: true });
  } catch {
    // another hook pruned it first
  }
}

/**
 * Whether a call asked under `names` is judged by the policy's command rules (so the shell parser
 * must be loaded): the policy has command rules and one of the names is one of its shell tools.
 */
export function judgesCommands(ir: ApproverIR, names: readonly string[]): boolean {
  const hasCommandRules = eachRule(ir).some((r) => isCommandRule(r.rule));
  return hasCommandRules && names.some((n) => shellToolsOf(ir).some((t) => caseFold(t.tool) === caseFold(n)));
}

/**
 * The approver of a cached IR with `judge`, for calls to the tools `names` (the names the call is
 * asked under: only their rules' patterns are compiled), or nothing when it does not build without
 * issues (then: compile).
 */
export function approverFromIR(ir: ApproverIR, judge: CommandJudgeFactory | undefined, names: readonly string[]): CompiledApprover | undefined {
  try {
    const { approver, issues } = compileApproverFor(ir, names, judge !== undefined ? { compat: false, commandJudge: judge } : { compat: false });
    return issues.length === 0 ? approver : undefined;
  } catch {
    return undefined;
  }
}
