import { env } from './config.ts';

/**
 * How long a PostgreSQL connection, statement or open transaction may take before it fails (a 503), so a
 * slow or frozen database server never holds requests forever. PGlite enforces none of them: it runs in this
 * process, one statement at a time, and has no timer to interrupt a statement.
 */
export interface DatabaseTimeouts {
  /** Connecting, and waiting for a free pooled connection. */
  connectMs: number;
  /** Server side: PostgreSQL cancels a statement running longer (57014). */
  statementMs: number;
  /** Client side: a statement without any answer fails after this (a frozen server or network). */
  queryMs: number;
  /** Server side: a session idle inside an open transaction is ended, releasing its locks. */
  idleInTransactionMs: number;
}

export function configuredDatabaseTimeouts(): DatabaseTimeouts {
  return {
    connectMs: env.DB_CONNECT_TIMEOUT_MS,
    statementMs: env.DB_STATEMENT_TIMEOUT_MS,
    // Past the server's own cancel (and the search's typo budget, which may be set longer per transaction).
    queryMs: Math.max(env.DB_STATEMENT_TIMEOUT_MS, env.SEARCH_TYPO_BUDGET_MS) + 2_000,
    idleInTransactionMs: env.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  };
}

/**
 * How long bulk work (seeds, imports, COPY, migrations) waits for a connection. Its own parallel loads keep the
 * server busy: at 10M records, with contacts, owners and properties loading and indexes building, the firms
 * chain's connection took over the serving 5 s and the seed lost the legal vertical.
 */
const BULK_CONNECT_TIMEOUT_MS = 60_000;

/** The pg.Pool options of a set of timeouts; `false` leaves statements unbounded (bulk loads, migrations). */
export function poolTimeoutOptions(timeouts: DatabaseTimeouts | false) {
  if (!timeouts) return { connectionTimeoutMillis: Math.max(env.DB_CONNECT_TIMEOUT_MS, BULK_CONNECT_TIMEOUT_MS) };
  return {
    connectionTimeoutMillis: timeouts.connectMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.queryMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
  };
}
