import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedEvent {
  /** The `<name>` of the path it came to. */
  endpoint: string;
  id: string;
  type: string;
  timestamp: string;
  data: any;
  headers: IncomingHttpHeaders;
}

/**
 * A webhook receiver as a customer runs one: a real HTTP server on a free port that verifies every request with
 * `standardwebhooks` and the secret of the endpoint its path names (`/hooks/<name>`). Requests it cannot verify
 * are answered 400 and counted in `unverified`. `answer` sets what it replies (503 while "down"). The endpoint's
 * `webhook.verification` ping, once verified, is answered 204 whatever `answer` says and kept in `verifications`,
 * not `received`; one that comes before the receiver holds the secret (the registration's own, usually) is
 * answered 503, as a receiver not set up yet would, and sent again by `verifyEndpoint`.
 */
export class Receiver {
  readonly secrets = new Map<string, string>();
  readonly received: ReceivedEvent[] = [];
  readonly unverified: string[] = [];
  readonly verifications: ReceivedEvent[] = [];
  answer = 204;
  /** Requests that arrived, answered or not yet. */
  arrived = 0;
  /** Requests arrived and not answered yet (held by `delayMs`). */
  inFlight = 0;
  /** Holds each request this long before answering (a slow receiver, to catch a delivery mid-flight). */
  delayMs = 0;
  /**
   * Hostile endpoints, by name: `drip` answers 200 and then one byte every 100 ms, never ending; `flood` answers
   * 200 and then as many bytes as the sender will take. Neither is recorded in `received` (never complete).
   */
  readonly hostile = new Map<string, 'drip' | 'flood'>();
  /** The event ids that reached a hostile endpoint, in order. */
  readonly hostileArrivals: string[] = [];
  /** Hostile answers whose sender has not hung up yet. */
  hostileOpen = 0;
  private readonly server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const name = request.url?.split('/')[2] ?? '';
      const secret = this.secrets.get(name);
      if (!secret) {
        response.writeHead(503).end();
        return;
      }
      this.arrived += 1;
      this.inFlight += 1;
      let verified: Pick<ReceivedEvent, 'type' | 'timestamp' | 'data'> | undefined;
      try {
        verified = new Webhook(secret).verify(body, request.headers as Record<string, string>) as typeof verified;
      } catch {
        verified = undefined;
      }
      const reply = () => {
        this.inFlight -= 1;
        const hostile = this.hostile.get(name);
        if (verified && hostile) {
          this.answerHostile(hostile, request.headers['webhook-id'] as string, response);
          return;
        }
        if (!verified) {
          this.unverified.push(body);
          response.writeHead(400).end();
          return;
        }
        const event = {
          endpoint: name,
          id: request.headers['webhook-id'] as string,
          ...verified,
          headers: request.headers,
        };
        if (verified.type === 'webhook.verification') {
          this.verifications.push(event);
          response.writeHead(204).end();
          return;
        }
        // Recorded as delivered only when answered 2xx, as a receiver that was down never saw the request.
        if (this.answer < 300) this.received.push(event);
        response.writeHead(this.answer).end();
      };
      if (this.delayMs > 0) setTimeout(reply, this.delayMs);
      else reply();
    });
  });

  private answerHostile(kind: 'drip' | 'flood', id: string, response: ServerResponse) {
    this.hostileArrivals.push(id);
    this.hostileOpen += 1;
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.on('close', () => (this.hostileOpen -= 1));
    if (kind === 'drip') {
      const drip = setInterval(() => response.write('.'), 100);
      response.on('close', () => clearInterval(drip));
      return;
    }
    const flood = () => {
      while (!response.destroyed && response.write('x'.repeat(16 * 1024)));
      if (!response.destroyed) response.once('drain', flood);
    };
    flood();
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(name: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/${name}`;
  }

  of(name: string): ReceivedEvent[] {
    return this.received.filter((event) => event.endpoint === name);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

type Call = (method: string, path: string) => Promise<{ status: number; body: any }>;

/**
 * Verifies a registered endpoint as its owner would once the receiver holds the secret: asks for the
 * verification ping again and waits until the endpoint shows `verification: "verified"`.
 */
export async function verifyEndpoint(call: Call, id: string): Promise<void> {
  const asked = await call('POST', `/api/webhooks/${id}/verify`);
  if (asked.status !== 202) throw new Error(`verify ${id}: ${asked.status} ${JSON.stringify(asked.body)}`);
  await eventually(async () => {
    const endpoint = await call('GET', `/api/webhooks/${id}`);
    if (endpoint.body?.verification !== 'verified')
      throw new Error(`${id} is not verified: ${JSON.stringify(endpoint.body)}`);
  });
}

/** Polls until `check` holds (the worker delivers within its poll interval), or fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return await check();
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw lastError;
}
