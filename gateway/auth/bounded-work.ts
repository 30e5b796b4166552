/** Thrown, without waiting, when every slot is busy and the queue is full. */
export class SaturatedError extends Error {
  constructor() {
    super('all slots are busy and the queue is full');
  }
}

export interface BoundedWork {
  /** Runs `task` when a slot is free; rejects at once with SaturatedError when `queue` tasks already wait. */
  run<T>(task: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

/**
 * A semaphore that refuses instead of queueing without end: password hashing (scrypt, 32 MiB and tens of
 * milliseconds of a libuv thread each) is bounded so a burst of logins cannot starve every other request.
 * Hand-written because p-limit and friends queue unboundedly and have no "refuse when full".
 */
export function createBoundedWork({ concurrency, queue }: { concurrency: number; queue: number }): BoundedWork {
  let active = 0;
  const waiters: (() => void)[] = [];

  const release = () => {
    const next = waiters.shift();
    if (next) next();
    else active -= 1;
  };

  return {
    async run(task) {
      if (active < concurrency) active += 1;
      else if (waiters.length < queue) await new Promise<void>((resolve) => waiters.push(resolve));
      else throw new SaturatedError();
      try {
        return await task();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiters.length;
    },
  };
}
