import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import { parseArguments } from '../../subgraphs/platform/validation.ts';

/** The query string or body of a route that takes none: anything sent is an unknown parameter. */
export const NOTHING = z.strictObject({});

/** The path parameters as the router matched them, for a route that states no schema of its own. */
const ROUTER_PARAMS = z.record(z.string(), z.string());

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
 * Parses a hand-coded route's path parameters, query string and JSON body with strict schemas (unknown names
 * are a 400), reporting the problems of all three in one `details`.
 */
export function parseRequestInput<
  Query extends z.ZodType = typeof NOTHING,
  Body extends z.ZodType = typeof NOTHING,
  Params extends z.ZodType = typeof ROUTER_PARAMS,
>(
  request: FastifyRequest,
  schemas: { params?: Params; query?: Query; body?: Body },
): { params: z.output<Params>; query: z.output<Query>; body: z.output<Body> } {
  const params = problemsOf(schemas.params ?? ROUTER_PARAMS, request.params ?? {});
  const query = problemsOf(schemas.query ?? NOTHING, request.query ?? {});
  const body = problemsOf(schemas.body ?? NOTHING, request.body ?? {});
  if (params.details || query.details || body.details) {
    throw new BadRequestError({ ...params.details, ...query.details, ...body.details });
  }
  return {
    params: params.value as z.output<Params>,
    query: query.value as z.output<Query>,
    body: body.value as z.output<Body>,
  };
}
