/**
 * The policy a server decides with, and its hot reload. A reload reads the file once, hashes those
 * bytes (the version every answer names), compiles that same text off to the side, and only then
 * swaps the new approver in with one assignment: a request holds the {@link LoadedPolicy} it started
 * with, so no request ever sees half a policy, and one that fails to load leaves the old one serving.
 */
import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { compileSource, readSourceFile } from '@verdict/compiler';
import { DECIDING } from '../command-rules.ts';
import { type CompiledApprover, type Diagnostic, hasErrors } from '@verdict/engine';
import { renderDiagnostics } from '../render.ts';

export interface LoadedPolicy {
  approver: CompiledApprover;
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
}

export type Load = { ok: true; policy: LoadedPolicy } | { ok: false; version?: string; error: string };

export function versionOf(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16)}`;
}

function failure(diagnostics: readonly Diagnostic[], file: string): string {
  return renderDiagnostics(diagnostics.filter((d) => d.severity === 'error'), file).trimEnd();
}

/** Reads and compiles `file` (the same bytes are hashed and compiled). */
export function loadPolicy(file: string): Load {
  const read = readSourceFile(file);
  if (read.text === undefined) return { ok: false, error: failure(read.diagnostics, file) };
  const version = versionOf(read.text);
  const result = compileSource(read.text, file, DECIDING);
  if (hasErrors(result.diagnostics)) return { ok: false, version, error: failure(result.diagnostics, file) };
  if (!result.approver) return { ok: false, version, error: `${file}: error: the file has no approver block [cli/no-approver]` };
  return { ok: true, policy: { approver: result.approver, version, loadedAt: new Date() } };
}

export interface PolicyHolderOptions {
  /** Quiet time after the last file event before a reload (ms). */
  debounceMs?: number;
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

  /** Loads the file again; swaps it in if it compiles and differs from the serving one. */
  reload(): ReloadStatus {
    let status: ReloadStatus;
    try {
      const load = loadPolicy(this.file);
      if (load.ok) {
        const unchanged = load.policy.version === this.current.version;
        if (!unchanged) this.current = load.policy;
        status = { ok: true, at: new Date(), version: load.policy.version, ...(unchanged ? { unchanged } : {}) };
      } else {
        status = { ok: false, at: new Date(), ...(load.version ? { version: load.version } : {}), error: load.error };
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
    this.timer = setTimeout(() => this.reload(), this.options.debounceMs ?? 100);
    this.timer.unref();
  }

  close(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
  }
}
