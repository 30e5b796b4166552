import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import { parseArguments } from '../../subgraphs/platform/validation.ts';

/** The query string or body of a route that takes none: anything sent is an unknown parameter. */
export const NOTHING = z.strictObject({});

function problemsOf<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): { value?: z.output<Schema>; details?: Record<string, string> } {
  try {
    return { value: parseArguments(schema, input) };
  } catch (error) {
    if (error instanceof BadRequestError && error.details) return { details: error.details };
    throw error;
  }
}

/**
 * Parses a hand-written route's query string and JSON body with strict schemas (unknown names are a 400),
 * reporting the problems of both in one `details`.
 */
export function parseRequestInput<Query extends z.ZodType = typeof NOTHING, Body extends z.ZodType = typeof NOTHING>(
  request: FastifyRequest,
  schemas: { query?: Query; body?: Body },
): { query: z.output<Query>; body: z.output<Body> } {
  const query = problemsOf(schemas.query ?? NOTHING, request.query ?? {});
  const body = problemsOf(schemas.body ?? NOTHING, request.body ?? {});
  if (query.details || body.details) throw new BadRequestError({ ...query.details, ...body.details });
  return { query: query.value as z.output<Query>, body: body.value as z.output<Body> };
}
