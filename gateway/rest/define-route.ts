import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { NOTHING, parseRequestInput } from '../auth/request-input.ts';

/** A file answer: each media type it may come in, with the schema of the file's content. */
export interface FileResponse {
  files: Record<string, z.ZodType>;
}

/**
 * A route coded by hand rather than from a GraphQL operation (login, keys, usage, the report file): the one
 * statement of its method, path and schemas, which both registers it and describes it in /openapi.json.
 */
export interface RouteDefinition<
  Params extends z.ZodObject = z.ZodObject,
  Query extends z.ZodObject = z.ZodObject,
  Body extends z.ZodType = z.ZodType,
  Response extends z.ZodType | FileResponse = z.ZodType | FileResponse,
> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** The reference's section. */
  tag: string;
  operationId: string;
  summary: string;
  /** Answers without a credential (the guard lets the request through; the document says `security: []`). */
  public?: boolean;
  /** Every `:name` of the path, and nothing else. */
  params?: Params;
  query?: Query;
  body?: Body;
  /** The JSON answer, which types the handler's return; or the files the handler sends itself. */
  response: Response;
  /** Success statuses; a handler's answer is sent with the first. 200 unless said. */
  statuses?: number[];
  /** Error statuses beyond those its access and parameters imply (a file not ready's 409). */
  errors?: number[];
  /** Who may call it (a grant, the plan), checked before the input is read: a refused caller gets a 403, not a 400. */
  access?: (request: FastifyRequest) => void | Promise<void>;
}

export interface RouteInput<Params extends z.ZodType, Query extends z.ZodType, Body extends z.ZodType> {
  params: z.output<Params>;
  query: z.output<Query>;
  body: z.output<Body>;
}

/** A JSON answer as the response schema takes it; a file route answers with the reply it sent. */
export type RouteAnswer<Response> = Response extends z.ZodType ? z.input<Response> : FastifyReply;

export type RouteHandler<Params extends z.ZodType, Query extends z.ZodType, Body extends z.ZodType, Response> = (
  input: RouteInput<Params, Query, Body>,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<RouteAnswer<Response>>;

export interface DefinedRoute<
  Params extends z.ZodObject,
  Query extends z.ZodObject,
  Body extends z.ZodType,
  Response extends z.ZodType | FileResponse,
> extends Readonly<RouteDefinition<Params, Query, Body, Response>> {
  /** Registers the route on `app` with the handler this server's dependencies give it. */
  register(app: FastifyInstance, handler: RouteHandler<Params, Query, Body, Response>): void;
}

/** `/api/keys/:id` → `['id']`. */
const pathParameters = (path: string) => [...path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!);

/**
 * States a hand-coded route once. Registering it runs, in order: the access check, the strict parse of path,
 * query and body (every problem in one 400), the handler, and the answer sent with the first success status.
 */
export function defineRoute<
  Response extends z.ZodType | FileResponse,
  Params extends z.ZodObject = typeof NOTHING,
  Query extends z.ZodObject = typeof NOTHING,
  Body extends z.ZodType = typeof NOTHING,
>(definition: RouteDefinition<Params, Query, Body, Response>): DefinedRoute<Params, Query, Body, Response> {
  const stated = Object.keys(definition.params?.shape ?? {});
  if (pathParameters(definition.path).join() !== stated.join()) {
    throw new Error(`${definition.method} ${definition.path}: params must state the path's parameters, not ${stated}`);
  }
  return {
    ...definition,
    register(app, handler) {
      app.route({
        method: definition.method,
        url: definition.path,
        config: { public: definition.public ?? false },
        handler: async (request, reply) => {
          await definition.access?.(request);
          const input = parseRequestInput(request, {
            params: definition.params ?? NOTHING,
            query: definition.query ?? NOTHING,
            body: definition.body ?? NOTHING,
          }) as RouteInput<Params, Query, Body>;
          const answer = await handler(input, request, reply);
          if ('files' in definition.response) return answer;
          return reply.status(definition.statuses?.[0] ?? 200).send(answer);
        },
      });
    },
  };
}
