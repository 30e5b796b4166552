/**
 * Whether an error means the database could not be reached (a 503 `database_unavailable`, docs/design.md), as
 * opposed to a bug (a 500). Looks through Prisma's wrapping, GraphQL's `originalError` and `cause` chains.
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
// Socket errors, PostgreSQL's connection-exception (08…) and operator-intervention (57P…) SQLSTATEs, a statement
// cancelled by statement_timeout (57014) and a session ended by idle_in_transaction_session_timeout (25P03).
const CONNECTION_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|08\d{3}|57P0[1-3]|57014|25P03)$/;
// node-postgres's own timeouts (database-timeouts.ts) and a connection the server or network dropped.
const DRIVER_MESSAGES =
  /^(Query read timeout|timeout exceeded when trying to connect|Connection terminated( unexpectedly| due to connection timeout)?)$/;

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
  cause?: unknown;
  originalError?: unknown;
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 6) return false;
  const candidate = error as ErrorLike;
  const code = typeof candidate.code === 'string' ? candidate.code : '';
  if (PRISMA_CODES.has(code) || CONNECTION_CODES.test(code)) return true;
  const adapterCause = candidate.meta?.driverAdapterError?.cause;
  if (ADAPTER_KINDS.has(String(adapterCause?.kind)) || CONNECTION_CODES.test(String(adapterCause?.originalCode)))
    return true;
  if (candidate.message === 'PGlite is closed' || DRIVER_MESSAGES.test(String(candidate.message))) return true;
  return isDatabaseUnavailable(candidate.originalError, depth + 1) || isDatabaseUnavailable(candidate.cause, depth + 1);
}
