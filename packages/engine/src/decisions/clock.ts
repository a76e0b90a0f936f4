/**
 * The time source of a decision broker. Injectable so hosts can plug their own scheduler and tests
 * can drive every deadline in virtual time (`ManualClock`) without real waiting.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch (or any fixed origin, as long as it only moves forward). */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node and browsers fire at once (with a warning) for delays above 2^31-1 ms (~24.8 days). */
const MAX_TIMER_MS = 2_147_483_647;

interface SystemTimer {
  current: ReturnType<typeof globalThis.setTimeout> | undefined;
}

/** The real clock: `Date.now` and the global timers, re-armed in steps for very long deadlines. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle: SystemTimer = { current: undefined };
    const due = Date.now() + (Number.isFinite(ms) && ms > 0 ? ms : 0);
    const arm = (): void => {
      const left = due - Date.now();
      if (left > MAX_TIMER_MS) {
        handle.current = globalThis.setTimeout(arm, MAX_TIMER_MS);
      } else {
        handle.current = globalThis.setTimeout(fn, Math.max(0, left));
      }
    };
    arm();
    return handle;
  },
  clearTimeout: (handle) => {
    const t = (handle as SystemTimer | undefined)?.current;
    if (t !== undefined) globalThis.clearTimeout(t);
  },
};

interface ManualTimer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

/**
 * Virtual time. Timers fire only inside `advance`, synchronously, in deadline order (ties in the
 * order they were set), with `now()` equal to each timer's due time while it runs. Timers set by a
 * firing timer fire in the same `advance` when they fall due within it.
 */
export class ManualClock implements Clock {
  #now: number;
  #nextId = 1;
  #timers: ManualTimer[] = [];

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): number {
    const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
    const timer: ManualTimer = { id: this.#nextId++, at: this.#now + delay, fn };
    this.#timers.push(timer);
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }

  /** How many timers are waiting to fire. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('a manual clock cannot go backwards');
    const target = this.#now + ms;
    for (;;) {
      let next: ManualTimer | undefined;
      for (const t of this.#timers) {
        if (t.at <= target && (next === undefined || t.at < next.at || (t.at === next.at && t.id < next.id))) {
          next = t;
        }
      }
      if (next === undefined) break;
      const due = next;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = Math.max(this.#now, due.at);
      due.fn();
    }
    this.#now = target;
  }

  /** Moves time to the next due timer and fires it (and any due at the same instant); false when none. */
  advanceToNext(): boolean {
    let at: number | undefined;
    for (const t of this.#timers) if (at === undefined || t.at < at) at = t.at;
    if (at === undefined) return false;
    this.advance(at - this.#now);
    return true;
  }
}
