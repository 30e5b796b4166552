import type { z } from 'zod';

/**
 * A route written by hand rather than from a GraphQL operation (keys, login, usage, the report file), stated
 * with the zod schemas the route itself parses its input with and types its answer by.
 */
export interface HandWrittenRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  operationId: string;
  summary: string;
  public?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  statuses?: number[];
  /** Error statuses beyond those its access and parameters imply (a file not ready's 409). */
  errors?: number[];
  /** The JSON answer; or, for a file, its content types. */
  response: z.ZodType | { files: string[] };
}
