import type { ApolloServer } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { ExecutionResult, GraphQLFormattedError } from 'graphql';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { formatGraphQLError } from '../../subgraphs/platform/error-body.ts';
import { answersUnavailable } from './unavailable-status.ts';

/** What an operation came to, for any channel: the GraphQL response and the HTTP status and headers it carries. */
export interface ExecutionOutcome {
  /** 200, or what an error asked for (400, 403, 429; 503 when a dependency is down). */
  status: number;
  /** `cache-control: no-store`, and headers an error asked for (a field limit's Retry-After); lower-case names. */
  headers: [string, string][];
  /** Errors formatted as every channel reports them (subgraphs/platform/error-body.ts), `errors` first. */
  result: {
    errors?: readonly GraphQLFormattedError[];
    data?: Record<string, unknown> | null;
    extensions?: Record<string, unknown>;
  };
}

type ErrorHead = { status?: number; headers?: Map<string, string> };

/**
 * Every answer is the caller's own (its grant, its mode, its metered call), so no shared cache may keep one:
 * Apollo Server's cache-control plugin says the same for its answers, which carry no cache hints.
 */
const NOT_CACHEABLE: [string, string] = ['cache-control', 'no-store'];

/**
 * Errors as Apollo Server reports them, so an outcome is the same whether gateway/execution answered it or Apollo
 * Server did: a code always (INTERNAL_SERVER_ERROR when none), `extensions.http` taken off the error into the
 * response's status and headers, then our `formatGraphQLError`. Apollo Server exports no function for this step
 * (its `errorNormalize` module is internal); this is its one copy, and test/gateway/graphql-fast-path.test.ts holds
 * both answers equal.
 */
function formatErrors(errors: readonly unknown[]): {
  errors: GraphQLFormattedError[];
  status?: number;
  headers: [string, string][];
} {
  const headers: [string, string][] = [];
  let status: number | undefined;
  const formatted = errors.map((error) => {
    const graphqlError =
      error instanceof GraphQLError
        ? error
        : new GraphQLError(error instanceof Error ? error.message : `Unexpected error value: ${String(error)}`, {
            originalError: error instanceof Error ? error : undefined,
          });
    const { http, ...extensions } = graphqlError.extensions as { http?: ErrorHead } & Record<string, unknown>;
    if (http?.status !== undefined) status = http.status;
    for (const header of http?.headers ?? []) headers.push(header);
    return formatGraphQLError(
      { ...graphqlError.toJSON(), extensions: { ...extensions, code: extensions.code ?? 'INTERNAL_SERVER_ERROR' } },
      graphqlError,
    );
  });
  return { errors: formatted, status, headers };
}

/** An operation refused before it ran (the guard), or whose execution threw: errors only, 500 unless they say. */
export function failedOutcome(error: unknown): ExecutionOutcome {
  const { errors, status, headers } = formatErrors([error]);
  return { status: unavailableOr(errors, status ?? 500), headers: [NOT_CACHEABLE, ...headers], result: { errors } };
}

/** An executed operation's result. */
export function answeredOutcome(result: ExecutionResult): ExecutionOutcome {
  if (!result.errors?.length) return { status: 200, headers: [NOT_CACHEABLE], result: { data: result.data } };
  const { errors, status, headers } = formatErrors(result.errors);
  return {
    status: unavailableOr(errors, status ?? 200),
    headers: [NOT_CACHEABLE, ...headers],
    result: { errors, data: result.data },
  };
}

const unavailableOr = (errors: readonly GraphQLFormattedError[], status: number) =>
  answersUnavailable(errors) ? 503 : status;

/** Apollo Server's answer to an operation, as an outcome. */
export async function apolloOutcome(
  apollo: ApolloServer<RequestContext>,
  request: { query: string; variables?: Record<string, unknown>; operationName?: string },
  contextValue: RequestContext,
): Promise<ExecutionOutcome> {
  const response = await apollo.executeOperation(request, { contextValue });
  if (response.body.kind !== 'single') throw new Error('incremental delivery is not offered');
  // In the order Apollo Server writes them over HTTP.
  const { errors, data, extensions } = response.body.singleResult;
  return {
    status: response.http.status ?? 200,
    headers: [...response.http.headers],
    result: { errors, data, extensions },
  };
}
