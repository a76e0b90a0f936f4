/**
 * The audit log: one JSON line per decision, appended to a file off the request path. A request only
 * pushes its line onto a queue; the lines are written together once the event loop is free, one
 * write at a time. When the file would pass `maxBytes` it is renamed `FILE.1` (an older `FILE.1`
 * becoming `FILE.2`, and so on up to `keep`) and a new file is started. A log that cannot keep up
 * (more than `maxQueued` lines waiting) drops lines and counts them; it never slows or changes an
 * answer.
 */
import { closeSync, openSync, renameSync, rmSync, statSync, write } from 'node:fs';

export interface AuditOptions {
  file: string;
  maxBytes: number;
  keep: number;
  maxQueued?: number;
  onDrop?: (n: number) => void;
  onError?: (err: unknown) => void;
}

export class AuditLog {
  private fd: number | undefined;
  private size = 0;
  private queue: string[] = [];
  private writing = false;
  private scheduled = false;
  private readonly idle: Array<() => void> = [];
  private readonly options: AuditOptions;

  /** Opens the file for appending; throws when it cannot be opened (the command reports it). */
  constructor(options: AuditOptions) {
    this.options = options;
    this.open();
  }

  private open(): void {
    this.fd = openSync(this.options.file, 'a');
    try {
      this.size = statSync(this.options.file).size;
    } catch {
      this.size = 0;
    }
  }

  /** Queues one entry (serialised now: the caller's objects may change later). */
  add(entry: Record<string, unknown>): void {
    if (this.queue.length >= (this.options.maxQueued ?? 100_000)) {
      this.options.onDrop?.(1);
      return;
    }
    this.queue.push(`${JSON.stringify(entry)}\n`);
    if (!this.scheduled && !this.writing) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  private rotate(): void {
    const { file, keep } = this.options;
    try {
      if (this.fd !== undefined) closeSync(this.fd);
    } catch {
      // closed either way
    }
    this.fd = undefined;
    try {
      if (keep <= 0) rmSync(file, { force: true });
      else {
        for (let i = keep - 1; i >= 1; i--) {
          try {
            renameSync(`${file}.${i}`, `${file}.${i + 1}`);
          } catch {
            // no such older file
          }
        }
        renameSync(file, `${file}.1`);
      }
    } catch (err) {
      this.options.onError?.(err);
    }
    this.open();
  }

  private flush(): void {
    if (this.writing) return;
    if (this.queue.length === 0 || this.fd === undefined) {
      for (const resolve of this.idle.splice(0)) resolve();
      return;
    }
    if (this.size > 0 && this.size >= this.options.maxBytes) {
      try {
        this.rotate();
      } catch (err) {
        this.options.onError?.(err);
        this.options.onDrop?.(this.queue.length);
        this.queue = [];
        for (const resolve of this.idle.splice(0)) resolve();
        return;
      }
    }
    // Up to the rotation size in one write (a line is never split across files).
    let text = '';
    let n = 0;
    const room = Math.max(1, this.options.maxBytes - this.size);
    while (n < this.queue.length && (n === 0 || text.length + this.queue[n]!.length <= room)) text += this.queue[n++]!;
    this.queue.splice(0, n);
    const bytes = Buffer.from(text, 'utf8');
    this.writing = true;
    write(this.fd, bytes, 0, bytes.length, null, (err) => {
      this.writing = false;
      if (err) {
        this.options.onError?.(err);
        this.options.onDrop?.(n);
      } else this.size += bytes.length;
      this.flush();
    });
  }

  /** Resolves once every queued line is written (or dropped). */
  drain(): Promise<void> {
    if (!this.writing && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.idle.push(resolve);
      if (!this.writing && !this.scheduled) this.flush();
    });
  }

  close(): void {
    try {
      if (this.fd !== undefined) closeSync(this.fd);
    } catch {
      // closed either way
    }
    this.fd = undefined;
  }
}
