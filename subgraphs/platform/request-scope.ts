import { AsyncLocalStorage } from 'node:async_hooks';

/** What the code running for one HTTP request may know about it without being handed the request. */
export interface RequestScope {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `work` (and everything it awaits or schedules) inside the request's scope. */
export function runInRequestScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

/** The id of the HTTP request this code runs for; undefined outside a request (start-up, timers, workers). */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
