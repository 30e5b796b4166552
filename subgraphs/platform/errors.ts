import { GraphQLError } from 'graphql';

/**
 * One error class per failure kind, each with the machine code of docs/design.md's error body
 * (`{error, message}` plus `details` on 400 and `redirect` on 403). GraphQL errors carry the same code in
 * `extensions.code`, so the REST shims turn any of them back into the right status and body.
 */
export const STATUS_BY_CODE = {
  invalid_parameter: 400,
  unauthorized: 401,
  plan_required: 403,
  trial_limit_reached: 403,
  live_credential_required: 403,
  csrf_token_invalid: 403,
  signup_closed: 403,
  account_disabled: 403,
  host_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  cursor_expired: 410,
  rate_limited: 429,
  internal_error: 500,
  database_unavailable: 503,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;

export interface ErrorBody {
  error: ErrorCode;
  message: string;
  details?: Record<string, string>;
  redirect?: string;
}

export class ApiError extends GraphQLError {
  readonly code: ErrorCode;
  readonly details?: Record<string, string>;
  readonly redirect?: string;

  constructor(code: ErrorCode, message: string, extra: { details?: Record<string, string>; redirect?: string } = {}) {
    super(message, { extensions: { code, ...extra } });
    this.code = code;
    this.details = extra.details;
    this.redirect = extra.redirect;
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }
}

/** A parameter is missing, of the wrong type or out of range; `details` maps each parameter to what is wrong. */
export class BadRequestError extends ApiError {
  constructor(details: Record<string, string>, message?: string) {
    const names = Object.keys(details).join(', ');
    super('invalid_parameter', message ?? `Invalid parameter: ${names}.`, { details });
  }
}

/** No credential, or one that is malformed, unknown, revoked or expired (never says which). */
export class UnauthorizedError extends ApiError {
  constructor(message = 'A valid API key or session token is required.') {
    super('unauthorized', message);
  }
}

/** The caller's plan does not include this, its sandbox trial is used up, or a sandbox key asked for a live grant. */
export class ForbiddenError extends ApiError {
  constructor(code: 'plan_required' | 'trial_limit_reached' | 'live_credential_required', message: string) {
    super(code, message, { redirect: '/billing' });
  }
}

/** The operator disabled the account (`admin disable-account`): its keys and logins are refused until re-enabled. */
export class AccountDisabledError extends ApiError {
  constructor() {
    super(
      'account_disabled',
      'This account is disabled; its keys and sign-in are refused. Ask the operator of this service.',
    );
  }
}

/** An unknown record, ticker or date — also someone else's record, so existence is never revealed. */
export class NotFoundError extends ApiError {
  constructor(what: string) {
    super('not_found', `${what} was not found.`);
  }
}

/** The request is valid but the record's state forbids it (an illegal lead transition, …). */
export class ConflictError extends ApiError {
  constructor(message: string) {
    super('conflict', message);
  }
}

/** A dependency other than the database (Redis, a subgraph service) cannot be reached, or a request ran past its deadline. */
export class ServiceUnavailableError extends ApiError {
  constructor(message = 'The service is temporarily unavailable. Try again shortly.') {
    super('service_unavailable', message);
  }
}

/** The database cannot be reached or timed out (database-unavailable.ts decides), as opposed to a bug. */
export class DatabaseUnavailableError extends ApiError {
  constructor() {
    super('database_unavailable', 'The database is not reachable. Try again shortly.');
  }
}

/** Anything nobody raised on purpose: the client learns nothing more (the error is logged). */
export class InternalError extends ApiError {
  constructor() {
    super('internal_error', 'An internal error occurred.');
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(STATUS_BY_CODE, value);
}
