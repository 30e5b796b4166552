import pThrottle from 'p-throttle';
import { sleep } from './retry-wait.ts';

/**
 * One host's door: at most `requestsPerSecond` requests start in any one-second window (p-throttle's strict
 * sliding window, so no burst at a window's edge doubles the rate), and none while the host has asked every
 * client to wait (a `Retry-After` seen on any request pauses them all).
 */
export interface HostGate {
  /** Resolves when the next request to this host may start. */
  turn(): Promise<void>;
  /** Holds every request to this host until `ms` from now (never shortens a pause already set). */
  pauseFor(ms: number): void;
}

function createHostGate(requestsPerSecond: number): HostGate {
  const throttled = pThrottle({ limit: requestsPerSecond, interval: 1000, strict: true })(() => undefined);
  let pausedUntil = 0;
  return {
    async turn() {
      for (let now = Date.now(); now < pausedUntil; now = Date.now()) await sleep(pausedUntil - now);
      await throttled();
    },
    pauseFor(ms) {
      pausedUntil = Math.max(pausedUntil, Date.now() + ms);
    },
  };
}

/** The gates of one client, one per `host:port`, made on first use. */
export function createHostGates(requestsPerSecond: number): (url: URL) => HostGate {
  const gates = new Map<string, HostGate>();
  return (url) => {
    let gate = gates.get(url.host);
    if (!gate) gates.set(url.host, (gate = createHostGate(requestsPerSecond)));
    return gate;
  };
}
