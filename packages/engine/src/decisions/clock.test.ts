import { describe, expect, it, vi } from 'vitest';
import { ManualClock, systemClock } from './clock.ts';
import { EventQueue } from './queue.ts';

describe('ManualClock', () => {
  it('fires due timers in deadline order, ties in the order they were set, with now() at their due time', () => {
    const clock = new ManualClock(100);
    const log: string[] = [];
    clock.setTimeout(() => log.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => log.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => log.push(`c@${clock.now()}`), 20);
    const gone = clock.setTimeout(() => log.push('cleared'), 5);
    clock.clearTimeout(gone);
    clock.advance(15);
    expect(log).toEqual(['a@110']);
    expect(clock.now()).toBe(115);
    clock.advance(5);
    expect(log).toEqual(['a@110', 'b@120', 'c@120']);
    expect(clock.pending).toBe(0);
  });

  it('fires timers set by a firing timer when they fall due in the same advance', () => {
    const clock = new ManualClock();
    const log: number[] = [];
    clock.setTimeout(() => {
      log.push(clock.now());
      clock.setTimeout(() => log.push(clock.now()), 10);
    }, 10);
    clock.advance(25);
    expect(log).toEqual([10, 20]);
    expect(clock.advanceToNext()).toBe(false);
  });

  it('refuses to go backwards', () => {
    expect(() => new ManualClock().advance(-1)).toThrow(RangeError);
  });
});

describe('systemClock', () => {
  it('re-arms in steps instead of firing at once for deadlines beyond 2^31-1 ms', () => {
    vi.useFakeTimers();
    try {
      let fired = false;
      const day = 24 * 3600 * 1000;
      systemClock.setTimeout(() => {
        fired = true;
      }, 30 * day);
      vi.advanceTimersByTime(29 * day);
      expect(fired).toBe(false);
      vi.advanceTimersByTime(day);
      expect(fired).toBe(true);
      const h = systemClock.setTimeout(() => {
        fired = false;
      }, 30 * day);
      vi.advanceTimersByTime(26 * day);
      systemClock.clearTimeout(h);
      vi.advanceTimersByTime(10 * day);
      expect(fired).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('EventQueue', () => {
  it('delivers everything pushed, in order, also after end; abandoned readers take nothing', async () => {
    const q = new EventQueue<number>();
    const a = q.iterator();
    const pending = a.next();
    await a.return?.();
    expect(await pending).toEqual({ value: undefined, done: true });
    q.push(1);
    q.push(2);
    q.end();
    const b: number[] = [];
    for await (const n of q.iterator()) b.push(n);
    expect(b).toEqual([1, 2]);
    expect(() => q.push(3)).toThrow();
  });
});
