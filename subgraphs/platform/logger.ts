import { pino } from 'pino';
import type { Logger } from 'pino';
import { env } from './config.ts';
import { currentRequestId } from './request-scope.ts';

/** Marks a request's own logger (Fastify's `request.log`), which carries `reqId` in its bindings already. */
export const BOUND_TO_REQUEST = Symbol('bound to a request');

/** Structured JSON logs; the one logger every module uses. */
export const logger = pino({
  level: env.LOG_LEVEL,
  base: undefined,
  redact: ['req.headers.authorization', 'req.headers.cookie'],
  // A line logged while a request is served names it, whichever module wrote it.
  mixin: (_object, _level, log) => {
    const requestId = (log as Logger & { [BOUND_TO_REQUEST]?: true })[BOUND_TO_REQUEST]
      ? undefined
      : currentRequestId();
    return requestId ? { reqId: requestId } : {};
  },
});
