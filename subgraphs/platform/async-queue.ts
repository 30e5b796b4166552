/**
 * A push queue read as an async iterator: a producer pushes, one consumer iterates, either side may end it.
 *
 * Not an async generator: a generator waiting at an `await` cannot be returned until that await settles, so a
 * stream with nothing new would not close when its client leaves (graphql-ws and graphql-js call `return()`).
 * Here `return()` ends a pending `next()` at once and runs the producer's clean-up.
 */
export class AsyncQueue<T> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private failWaiting: ((error: unknown) => void) | undefined;
  private error: unknown;
  private ended = false;
  private readonly cleanUps: (() => void)[] = [];
  private readonly belowWaiters: { size: number; resolve: () => void }[] = [];

  /** How many pushed items the consumer has not taken yet. */
  get size(): number {
    return this.items.length;
  }

  get closed(): boolean {
    return this.ended;
  }

  push(item: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.clearWaiting();
      resolve({ value: item, done: false });
    } else this.items.push(item);
  }

  /** Ends the queue after the items already pushed; with an error, the consumer receives it after them. */
  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error;
    if (this.waiting) {
      const [resolve, reject] = [this.waiting, this.failWaiting!];
      this.clearWaiting();
      if (error === undefined) resolve({ value: undefined, done: true });
      else reject(error);
    }
    this.runCleanUps();
  }

  /** Resolves once the consumer has taken enough that fewer than `size` items wait (or the queue ended). */
  whenBelow(size: number): Promise<void> {
    if (this.items.length < size || this.ended) return Promise.resolve();
    return new Promise((resolve) => this.belowWaiters.push({ size, resolve }));
  }

  /** Runs `cleanUp` once when the queue ends, by either side (at once if it has ended). */
  onEnd(cleanUp: () => void): void {
    if (this.ended) cleanUp();
    else this.cleanUps.push(cleanUp);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.items.length) {
      const value = this.items.shift()!;
      this.wakeBelowWaiters();
      return Promise.resolve({ value, done: false });
    }
    if (this.ended) {
      const error = this.error;
      this.error = undefined;
      return error === undefined ? Promise.resolve({ value: undefined, done: true }) : Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failWaiting = reject;
    });
  }

  /** The consumer leaves: what was pushed and not taken is dropped. */
  return(): Promise<IteratorResult<T>> {
    this.items.length = 0;
    this.error = undefined;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private clearWaiting() {
    this.waiting = undefined;
    this.failWaiting = undefined;
  }

  private wakeBelowWaiters() {
    for (let i = this.belowWaiters.length - 1; i >= 0; i--) {
      const waiter = this.belowWaiters[i]!;
      if (this.items.length < waiter.size || this.ended) {
        this.belowWaiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }

  private runCleanUps() {
    this.wakeBelowWaiters();
    for (const cleanUp of this.cleanUps.splice(0)) cleanUp();
  }
}
