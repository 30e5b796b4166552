// The registry here has no @types/autocannon for autocannon 9; this declares the part the bench uses.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Options {
    url: string;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    pipelining?: number;
    /** Requests sent in turn on each connection; `setupRequest` may rewrite each one before it is sent. */
    requests?: {
      setupRequest?: (request: { headers?: Record<string, string> }) => { headers?: Record<string, string> };
    }[];
  }

  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }

  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
    ): this;
    stop(): void;
  }

  export default function autocannon(options: Options): Instance;
}
