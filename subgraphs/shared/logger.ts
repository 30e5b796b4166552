import { pino } from 'pino';
import { env } from './config.ts';

/** Structured JSON logs; the one logger every module uses. */
export const logger = pino({
  level: env.LOG_LEVEL,
  base: undefined,
  redact: ['req.headers.authorization'],
});
