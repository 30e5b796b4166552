import { pino } from 'pino';
import type { Logger } from 'pino';
import { env } from './config.ts';
import { currentRequestId } from './request-scope.ts';

/** Marks a request's own logger (Fastify's `request.log`), which carries `reqId` in its bindings already. */
export const BOUND_TO_REQUEST = Symbol('bound to a request');

/** A URL as logged: an event stream's `access_token` (an API key in the query string) is never written. */
export const loggedUrl = (url: string) => url.replace(/([?&]access_token=)[^&#]*/gi, '$1[Redacted]');

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Structured JSON logs; the one logger every module uses. */
export const logger = pino({
  level: env.LOG_LEVEL,
  base: undefined,
  redact: ['req.headers.authorization', 'req.headers.cookie'],
  // Fastify's request fields, with the URL as loggedUrl writes it.
  serializers: {
    req: (req: LoggedRequest) => ({
      method: req.method,
      url: req.url === undefined ? undefined : loggedUrl(req.url),
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    }),
  },
  // A line logged while a request is served names it, whichever module wrote it.
  mixin: (_object, _level, log) => {
    const requestId = (log as Logger & { [BOUND_TO_REQUEST]?: true })[BOUND_TO_REQUEST]
      ? undefined
      : currentRequestId();
    return requestId ? { reqId: requestId } : {};
  },
});
