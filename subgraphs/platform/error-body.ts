import type { GraphQLFormattedError } from 'graphql';
import { DatabaseUnavailableError, InternalError, STATUS_BY_CODE, isErrorCode } from './errors.ts';
import type { ApiError, ErrorBody, ErrorCode } from './errors.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';
import { logger } from './logger.ts';

/**
 * Every error body the service sends, REST and GraphQL, is shaped here from the classes of errors.ts:
 * `{error, message}` plus `details` (400) and `redirect` (403), in that order.
 */
export function errorBody(error: ApiError): ErrorBody {
  const body: ErrorBody = { error: error.code, message: error.message };
  if (error.details) body.details = error.details;
  if (error.redirect) body.redirect = error.redirect;
  return body;
}

/** What a client is told of an error nobody raised on purpose: 503 when the database is unreachable, else a bare 500. */
export function unexpectedError(error: unknown): ApiError {
  return isDatabaseUnavailable(error) ? new DatabaseUnavailableError() : new InternalError();
}

/** Apollo's own codes for a query the client got wrong; they become `invalid_parameter`. */
const CLIENT_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'OPERATION_RESOLUTION_FAILURE',
]);

/** graphql-js's sentences when it gives up validating a document (too many errors, too much fragment work). */
const VALIDATION_ABORTED = /Validation aborted\.$/;
const VALIDATION_ABORTED_MESSAGE = 'The query has too many errors or is too complex to validate.';

/**
 * Every GraphQL error leaves with one of our machine codes. Errors we did not raise on purpose (a database
 * failure, a bug) are logged and replaced by a generic message: no stack trace or SQL ever reaches a client.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, original: unknown): GraphQLFormattedError {
  const code = formatted.extensions?.code;
  if (isErrorCode(code)) {
    const { code: _code, details, redirect } = formatted.extensions ?? {};
    return { ...formatted, extensions: { code, ...(details ? { details } : {}), ...(redirect ? { redirect } : {}) } };
  }
  if (typeof code === 'string' && CLIENT_ERROR_CODES.has(code)) {
    const message = VALIDATION_ABORTED.test(formatted.message) ? VALIDATION_ABORTED_MESSAGE : formatted.message;
    // A mutation sent by GET is Apollo's 405 (with Allow: POST): the code says so as it does on REST.
    const clientCode = httpStatusOf(original) === 405 ? 'method_not_allowed' : 'invalid_parameter';
    return { message, locations: formatted.locations, extensions: { code: clientCode } };
  }
  const unexpected = unexpectedError(original);
  if (unexpected.code === 'database_unavailable') logger.error({ err: original }, 'database unavailable');
  else logger.error({ err: original, graphqlError: formatted }, 'unexpected GraphQL error');
  return { message: unexpected.message, path: formatted.path, extensions: { code: unexpected.code } };
}

/** The HTTP status Apollo Server gives an error of its own (`extensions.http.status`), if any. */
function httpStatusOf(error: unknown): number | undefined {
  const http = (error as { extensions?: { http?: { status?: unknown } } } | undefined)?.extensions?.http;
  return typeof http?.status === 'number' ? http.status : undefined;
}

/** The REST status and body of a formatted GraphQL error. */
export function errorBodyOf(error: GraphQLFormattedError): { status: number; body: ErrorBody } {
  const extensions = error.extensions ?? {};
  const code: ErrorCode = isErrorCode(extensions.code) ? extensions.code : 'internal_error';
  const body: ErrorBody = { error: code, message: error.message };
  if (extensions.details) body.details = extensions.details as Record<string, string>;
  if (extensions.redirect) body.redirect = String(extensions.redirect);
  return { status: STATUS_BY_CODE[code], body };
}
