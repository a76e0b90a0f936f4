/**
 * The policy a server decides with, and its hot reload. A reload reads the file, waits until it has
 * settled (its last change at least the settle time ago) and reads it again: a text that changed in
 * between was read while being written, and is not swapped in (the reload is tried again). Then it
 * hashes those bytes (the version every answer names), compiles that same text off to the side, runs
 * the policy's own inline tests, and only then swaps the new approver in with one assignment: a
 * request holds the {@link LoadedPolicy} it started with, so no request ever sees half a policy, and
 * one that fails to load or fails its tests leaves the old one serving. A file written in place in
 * pieces further apart than the settle time cannot be told from a finished one: write it elsewhere
 * and rename it over the policy.
 */
import { createHash } from 'node:crypto';
import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { compileSource, readSourceFile } from '@verdict/compiler';
import { DECIDING } from '../command-rules.ts';
import { type CompiledApprover, type Diagnostic, hasErrors, inlineTestMismatches, spanText, type TestCaseIR } from '@verdict/engine';
import { renderDiagnostics } from '../render.ts';

export interface LoadedPolicy {
  approver: CompiledApprover;
  /** The protections it lifts (`protections: {lift: […]}`, docs/protections.md). */
  lift?: readonly string[];
  /** Its shell tools, when it names them (`shell:`). */
  shellTools?: readonly string[];
  /** `sha256:` and the first 16 hex digits of the hash of the file's bytes. */
  version: string;
  loadedAt: Date;
}

export interface ReloadStatus {
  ok: boolean;
  at: Date;
  /** The version of the text that was tried (absent when the file could not be read). */
  version?: string;
  /** The diagnostics, as `verdict check` prints them, when it failed. */
  error?: string;
  /** Whether the file was the one already serving (nothing swapped). */
  unchanged?: boolean;
  /** The file changed while it was read: nothing swapped, read again later. */
  unsettled?: boolean;
}

export type Load = { ok: true; policy: LoadedPolicy } | { ok: false; version?: string; error: string };

export function versionOf(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)}`;
}

function failure(diagnostics: readonly Diagnostic[], file: string): string {
  return renderDiagnostics(diagnostics.filter((d) => d.severity === 'error'), file).trimEnd();
}

/** Compiles `text` (read from `file`); `tests` also runs its inline tests, and a failing one fails the load. */
export function loadPolicyText(text: string, file: string, tests = false): Load {
  const version = versionOf(text);
  const result = compileSource(text, file, DECIDING);
  if (hasErrors(result.diagnostics)) return { ok: false, version, error: failure(result.diagnostics, file) };
  if (!result.approver) return { ok: false, version, error: `${file}: error: the file has no approver block [cli/no-approver]` };
  if (tests) {
    const failed = failingTests(result.approver, result.ir?.tests ?? [], file);
    if (failed.length > 0) return { ok: false, version, error: `${file}: error: ${failed.length} of its own inline tests fail${failed.length > 5 ? ' (the first 5)' : ''}:\n${failed.slice(0, 5).join('\n')} [cli/reload-tests-fail]` };
  }
  const ir = result.ir?.approver;
  const protections = { lift: ir?.protections?.lift ?? [], ...(ir?.shell ? { shellTools: ir.shell.map((t) => t.tool) } : {}) };
  return { ok: true, policy: { approver: result.approver, ...protections, version, loadedAt: new Date() } };
}

/** The inline tests the approver fails, one line each. */
function failingTests(approver: CompiledApprover, tests: readonly TestCaseIR[], file: string): string[] {
  const out: string[] = [];
  for (const t of tests) {
    const e = approver.explain({ toolName: t.tool, input: t.input });
    const m = inlineTestMismatches(e, t)[0];
    if (!m) continue;
    const at = t.span ? spanText({ file: t.span.file ?? file, start: t.span.start }) : file;
    out.push(`  ${at}: ${t.name ?? `${t.tool} ${t.input}`}: expected ${m.expected}, got ${m.actual}`);
  }
  return out;
}

/** Reads and compiles `file` (the same bytes are hashed and compiled). */
export function loadPolicy(file: string): Load {
  const read = readSourceFile(file);
  if (read.text === undefined) return { ok: false, error: failure(read.diagnostics, file) };
  return loadPolicyText(read.text, file);
}

export interface PolicyHolderOptions {
  /** Quiet time after the last file event before a reload (ms). */
  debounceMs?: number;
  /** How long the file must stay unchanged, between two reads, before it is swapped in (ms; default 250). */
  settleMs?: number;
  /** Called after every reload attempt (log and metrics). */
  onReload?: (status: ReloadStatus) => void;
}

/** The serving policy of one file, reloaded on demand ({@link reload}) and on file changes ({@link watchFile}). */
export class PolicyHolder {
  current: LoadedPolicy;
  last: ReloadStatus;
  /** Every version that loaded and served, in order (the load test checks answers against it). */
  readonly file: string;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly options: PolicyHolderOptions;

  constructor(file: string, first: LoadedPolicy, options: PolicyHolderOptions = {}) {
    this.file = file;
    this.current = first;
    this.last = { ok: true, at: first.loadedAt, version: first.version };
    this.options = options;
  }

  private running: Promise<ReloadStatus> | undefined;
  private again = false;

  /**
   * Loads the file again once it has settled; swaps it in if it compiles, passes its inline tests and
   * differs from the serving one. A reload asked for while one runs runs once more after it.
   */
  reload(): Promise<ReloadStatus> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.reloadOnce().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        void this.reload();
      }
    });
    return this.running;
  }

  private async reloadOnce(): Promise<ReloadStatus> {
    let status: ReloadStatus;
    const settle = this.options.settleMs ?? 250;
    try {
      const first = readSourceFile(this.file);
      const stamp = (): string => {
        try {
          const st = statSync(this.file);
          return `${st.mtimeMs}:${st.size}:${st.ino}`;
        } catch {
          return 'gone';
        }
      };
      const before = stamp();
      // Wait until the last change is at least `settle` old, then read again.
      let mtime = 0;
      try {
        mtime = statSync(this.file).mtimeMs;
      } catch {
        // gone: the second read says so
      }
      await new Promise((r) => setTimeout(r, Math.max(settle, Math.min(settle * 4, mtime + settle - Date.now()))).unref?.());
      const second = readSourceFile(this.file);
      if (first.text === undefined || second.text === undefined) {
        const read = second.text === undefined ? second : first;
        status = { ok: false, at: new Date(), error: failure(read.diagnostics, this.file) };
      } else if (first.text !== second.text || before !== stamp()) {
        status = {
          ok: false,
          at: new Date(),
          unsettled: true,
          version: versionOf(second.text),
          error: `${this.file}: the file changed while it was read (written in place, in pieces?): not swapped in; it is read again once it has settled (write the policy elsewhere and rename it over the file) [cli/reload-unsettled]`,
        };
        this.schedule();
      } else {
        const load = loadPolicyText(second.text, this.file, true);
        if (load.ok) {
          const unchanged = load.policy.version === this.current.version;
          if (!unchanged) this.current = load.policy;
          status = { ok: true, at: new Date(), version: load.policy.version, ...(unchanged ? { unchanged } : {}) };
        } else {
          status = { ok: false, at: new Date(), ...(load.version ? { version: load.version } : {}), error: load.error };
        }
      }
    } catch (err) {
      status = { ok: false, at: new Date(), error: `internal error: ${err instanceof Error ? err.message : String(err)}` };
    }
    this.last = status;
    this.options.onReload?.(status);
    return status;
  }

  /**
   * Watches the file's folder (an editor that saves by renaming replaces the file, which a watch on
   * the file itself would lose) and reloads once the events have been quiet for the debounce time.
   */
  watchFile(): void {
    const dir = dirname(resolve(this.file));
    const name = basename(this.file);
    try {
      this.watcher = watch(dir, { persistent: false }, (_event, changed) => {
        if (changed !== null && changed.toString() !== name) return;
        this.schedule();
      });
      this.watcher.on('error', () => {
        // A folder that goes away: SIGHUP still reloads.
      });
    } catch {
      // No watch support (some network file systems): SIGHUP still reloads.
    }
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload(), this.options.debounceMs ?? 100);
    this.timer.unref();
  }

  close(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
  }
}
