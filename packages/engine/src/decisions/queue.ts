/**
 * An unbounded FIFO read as an async iterable. Nothing pushed is ever dropped: after `end()` the
 * items already queued are still delivered, then iteration finishes. Several iterators share the
 * queue (each item goes to exactly one of them).
 */
export class EventQueue<T> {
  #items: T[] = [];
  #head = 0;
  #waiters: Array<{ owner: object; resolve: (r: IteratorResult<T, undefined>) => void }> = [];
  #ended = false;

  get ended(): boolean {
    return this.#ended;
  }

  /** Items queued and not yet read. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    if (this.#ended) throw new Error('cannot push to an ended event queue');
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) {
      waiter.resolve({ value: item, done: false });
      return;
    }
    this.#items.push(item);
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve({ value: undefined, done: true });
  }

  /** Takes the next item without waiting; `undefined` when none is queued. */
  poll(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head] as T;
    this.#items[this.#head] = undefined as T;
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** The next item, waiting for one; `done` once the queue has ended and is empty. */
  next(owner: object = this): Promise<IteratorResult<T, undefined>> {
    if (this.#head < this.#items.length) {
      return Promise.resolve({ value: this.poll() as T, done: false });
    }
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.#waiters.push({ owner, resolve }));
  }

  /** Releases the pending reads of `owner` (as finished) so no item is handed to an abandoned reader. */
  release(owner: object): void {
    const mine = this.#waiters.filter((w) => w.owner === owner);
    this.#waiters = this.#waiters.filter((w) => w.owner !== owner);
    for (const w of mine) w.resolve({ value: undefined, done: true });
  }

  iterator(): AsyncIterableIterator<T, undefined, undefined> {
    let finished = false;
    const owner = {};
    const it: AsyncIterableIterator<T, undefined, undefined> = {
      next: async () => {
        if (finished) return { value: undefined, done: true };
        const r = await this.next(owner);
        if (r.done === true) finished = true;
        return r;
      },
      // Leaving a `for await` early detaches this iterator only; the queue keeps its items.
      return: async () => {
        finished = true;
        this.release(owner);
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]: () => it,
    };
    return it;
  }
}
