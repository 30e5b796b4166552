import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { fuzzystrmatch } from '@electric-sql/pglite/contrib/fuzzystrmatch';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../../prisma/generated/client/client.ts';
import { env } from './config.ts';
import { configuredDatabaseTimeouts, poolTimeoutOptions } from './database-timeouts.ts';
import type { DatabaseTimeouts } from './database-timeouts.ts';
import { pgliteMigrationSession, postgresMigrationSession } from './migration-adapter.ts';
import type { MigrationSession } from './migration-adapter.ts';

export { PrismaClient };
export type Mode = 'live' | 'sandbox';

/** Raw SQL next to Prisma: bulk loads, search ranking and plans that Prisma's query builder cannot say. */
export interface SqlClient {
  /**
   * `prepared`: on PostgreSQL the statement is parsed once per connection and kept there (a named prepared
   * statement), then planned for each call's parameters (the serving session's plan_cache_mode). Only for a
   * fixed, small set of texts: each distinct text stays prepared on every connection that ran it.
   */
  query<Row = Record<string, unknown>>(text: string, params?: unknown[], options?: QueryOptions): Promise<Row[]>;
  /** Loads CSV text into a table with COPY; `chunks` may be a stream of any length. */
  copy(table: string, columns: readonly string[], chunks: AsyncIterable<string>): Promise<void>;
}

export interface QueryOptions {
  prepared?: boolean;
}

/**
 * A prepared statement's name: its text's, so one name never stands for two texts on a connection. Remembered
 * per text, as every page read hashed its statement again; the texts are a fixed set, the bound a safeguard.
 */
const preparedNames = new Map<string, string>();
const MAX_PREPARED_NAMES = 10_000;

function preparedName(text: string): string {
  let name = preparedNames.get(text);
  if (name === undefined) {
    if (preparedNames.size >= MAX_PREPARED_NAMES) preparedNames.clear();
    name = `prepared_${createHash('sha1').update(text).digest('hex')}`;
    preparedNames.set(text, name);
  }
  return name;
}

/** node-postgres's query config: named when prepared. */
const pgQuery = (text: string, values: unknown[], options: QueryOptions | undefined) =>
  options?.prepared ? { name: preparedName(text), text, values } : { text, values };

export interface Database {
  mode: Mode;
  engine: 'pglite' | 'postgres';
  prisma: PrismaClient;
  sql: SqlClient;
  /**
   * Runs `work` in one transaction on a connection of its own (without statement timeouts, as bulk work is):
   * committed if it returns, rolled back if it throws, so a bulk write is all or nothing. PGlite runs one
   * statement at a time, so other callers wait until it ends; PostgreSQL's readers see the data before it.
   */
  transaction<T>(work: (sql: SqlClient) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in one transaction on a serving connection, with the serving pool's session settings and
   * timeouts: for a request's few statements that need settings of their own (`set_config(…, true)`), through
   * `pg` without Prisma's round trips. On PGlite it is `transaction`.
   */
  servingTransaction<T>(work: (sql: Pick<SqlClient, 'query'>) => Promise<T>): Promise<T>;
  /** A connection of its own for the migration engine and start-up locks (see migration-adapter.ts). */
  openMigrationSession(): MigrationSession;
  /**
   * Calls `onNotify` for every NOTIFY on `channel` (from any connection or process) until the returned function
   * stops it. On PostgreSQL it holds a connection of its own; `onLost` is called once if that connection fails
   * (nothing is delivered after it). PGlite delivers a notice before the statement that sent it returns.
   */
  listen(channel: string, onNotify: () => void, onLost: (error: unknown) => void): Promise<() => Promise<void>>;
  /** The connection pool's counts (PostgreSQL; PGlite has no pool), read by /metrics. */
  connections?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export interface OpenOptions {
  mode: Mode;
  /** A postgresql:// URL; without one the database is PGlite under `dataDir/<mode>`. */
  url?: string;
  dataDir?: string;
  /** Receives every SQL statement Prisma and `sql.query` send (tests count them to catch N+1 regressions). */
  onQuery?: (sql: string) => void;
  /** PostgreSQL timeouts (database-timeouts.ts): the configured ones unless given; `false` for bulk tools. */
  timeouts?: DatabaseTimeouts | false;
}

const PGLITE_EXTENSIONS = { pg_trgm, unaccent, fuzzystrmatch };

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.url ? openPostgres(options, options.url) : openPglite(options);
}

/** The live and sandbox databases as configured (DATABASE_URL, SANDBOX_DATABASE_URL, DATA_DIR). */
export async function openConfiguredDatabases(
  extra: Pick<OpenOptions, 'onQuery'> = {},
): Promise<Record<Mode, Database>> {
  const live = await openDatabase({ ...extra, mode: 'live', url: env.DATABASE_URL, dataDir: env.dataDir });
  const sandbox = await openDatabase({
    ...extra,
    mode: 'sandbox',
    url: env.SANDBOX_DATABASE_URL,
    dataDir: env.dataDir,
  });
  return { live, sandbox };
}

function createPrisma(adapter: SqlMigrationAwareDriverAdapterFactory, onQuery?: (sql: string) => void) {
  if (!onQuery) return new PrismaClient({ adapter });
  const prisma = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', (event) => onQuery(event.query));
  return prisma;
}

async function openPglite(options: OpenOptions): Promise<Database> {
  const directory = join(options.dataDir ?? env.dataDir, options.mode);
  mkdirSync(directory, { recursive: true });
  const client = await PGlite.create(directory, { extensions: PGLITE_EXTENSIONS });
  const adapterFactory = new PrismaPGlite(client);
  const prisma = createPrisma(adapterFactory, options.onQuery);
  return {
    mode: options.mode,
    engine: 'pglite',
    prisma,
    openMigrationSession: () => pgliteMigrationSession(client, adapterFactory),
    async listen(channel, onNotify) {
      const stop = await client.listen(channel, () => onNotify());
      return () => stop();
    },
    sql: observed(pgliteSql(client), options.onQuery),
    transaction: (work) => client.transaction((tx) => work(pgliteSql(tx))),
    servingTransaction: (work) => client.transaction((tx) => work(pgliteSql(tx))),
    async close() {
      await prisma.$disconnect();
      await client.close();
    },
  };
}

/** The serving SQL client, telling `onQuery` of each statement as Prisma's log does. */
function observed(sql: SqlClient, onQuery: ((text: string) => void) | undefined): SqlClient {
  if (!onQuery) return sql;
  return {
    ...sql,
    query(text, params, options) {
      onQuery(text);
      return sql.query(text, params, options);
    },
  };
}

/** The SQL client of PGlite itself or of one of its transactions. */
function pgliteSql(client: Pick<PGlite, 'query'>): SqlClient {
  return {
    async query<Row>(text: string, params: unknown[] = []) {
      const result = await client.query<Row>(text, params);
      return result.rows;
    },
    async copy(table, columns, chunks) {
      // PGlite reads COPY input from an in-memory blob, so the stream is loaded in bounded batches of bytes.
      // Each chunk is encoded at once: a chunk built by `+=` is a rope of small strings in V8, and 8 MB of
      // them held some 60 MB of heap (a 1M-row records load ran out of a 128 MB heap); the bytes hold 8 MB.
      let batch: Buffer[] = [];
      let size = 0;
      const flush = async () => {
        if (size === 0) return;
        const blob = new Blob(batch);
        await client.query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob' WITH (FORMAT csv)`, [], {
          blob,
        });
        batch = [];
        size = 0;
      };
      for await (const chunk of chunks) {
        const bytes = Buffer.from(chunk);
        batch.push(bytes);
        size += bytes.length;
        if (size > 8_000_000) await flush();
      }
      await flush();
    },
  };
}

/** The SQL client of one PostgreSQL connection; COPY streams through it. */
function connectionSql(connection: pg.ClientBase): SqlClient {
  return {
    async query<Row>(text: string, params: unknown[] = [], options?: QueryOptions) {
      const result = await connection.query(pgQuery(text, params, options));
      return result.rows as Row[];
    },
    async copy(table, columns, chunks) {
      const sink = connection.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv)`));
      await pipeline(Readable.from(chunks), sink);
    },
  };
}

/** How often a listening connection proves it is alive, so a silently dropped one is noticed. */
const LISTEN_HEARTBEAT_MS = 5_000;

async function listenOn(
  url: string,
  timeouts: DatabaseTimeouts | false,
  channel: string,
  onNotify: () => void,
  onLost: (error: unknown) => void,
): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url, keepAlive: true, ...poolTimeoutOptions(timeouts) });
  let stopped = false;
  // Set once listening; `lost` may run before that (a failed connect), so it is read through this holder.
  const timer: { heartbeat?: NodeJS.Timeout } = {};
  const lost = (error: unknown) => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer.heartbeat);
    client.end().catch(() => undefined);
    onLost(error);
  };
  // Before LISTEN succeeds a failure is this function's rejection, not a loss.
  let ready = false;
  client.on('error', (error) => ready && lost(error));
  client.on('end', () => ready && lost(new Error('listening connection closed')));
  client.on('notification', (message) => {
    if (message.channel === channel) onNotify();
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
  } catch (error) {
    stopped = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  ready = true;
  timer.heartbeat = setInterval(() => void client.query('SELECT 1').catch(lost), LISTEN_HEARTBEAT_MS);
  timer.heartbeat.unref();
  return async () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer.heartbeat);
    await client.end().catch(() => undefined);
  };
}

/**
 * Session settings of the serving pool. Every statement a request sends is bounded (capped counts, pages, index
 * probes), so neither JIT nor parallel workers pay for themselves: at 10M records the server's defaults compiled
 * the attorneys count (`practice_area=Bankruptcy&state=NY`) for 20-25 ms and ran it on three processes, 138 ms
 * (jit, parallel) → 45-60 ms (parallel) → 30-33 ms (neither), and workers taken by one request are cores the
 * others wait for (docs/performance.md, item 17). Nor synchronised sequential scans: the universal search's capped
 * scans must find the same candidates on every call, and it sends its prefixes tier without a transaction to set
 * that in (subgraphs/verticals/search/query.ts). Prepared statements (`prepared: true`) are planned for each
 * call's parameters, as unnamed ones are: a value held by a third of the rows is best found by a scan that stops
 * at the page or the search's cap, a rare one through an index, which a generic plan could not tell apart. A
 * statement whose plan does not depend on its values asks for a generic plan in its own transaction (the
 * universal search's words and typo tiers). Bulk connections keep the server's settings: a load or an index
 * build is what those are for. A URL that sets `options` itself wins (node-postgres reads the URL last).
 */
const SERVING_SESSION =
  '-c jit=off -c max_parallel_workers_per_gather=0 -c synchronize_seqscans=off -c plan_cache_mode=force_custom_plan';

async function openPostgres(options: OpenOptions, url: string): Promise<Database> {
  const timeouts = options.timeouts ?? configuredDatabaseTimeouts();
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: SERVING_SESSION,
    ...poolTimeoutOptions(timeouts),
  });
  // COPY and bulk transactions may rightly run for minutes: each gets a connection of its own without timeouts
  // (migrations have their own session).
  const unbounded = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url, ...poolTimeoutOptions(false) });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const adapterFactory = new PrismaPg(pool);
  const prisma = createPrisma(adapterFactory, options.onQuery);
  return {
    mode: options.mode,
    engine: 'postgres',
    prisma,
    openMigrationSession: () => postgresMigrationSession(url),
    connections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    listen: (channel, onNotify, onLost) => listenOn(url, timeouts, channel, onNotify, onLost),
    sql: observed(
      {
        async query<Row>(text: string, params: unknown[] = [], options?: QueryOptions) {
          const result = await pool.query(pgQuery(text, params, options));
          return result.rows as Row[];
        },
        copy: (table, columns, chunks) =>
          unbounded((connection) => connectionSql(connection).copy(table, columns, chunks)),
      },
      options.onQuery,
    ),
    transaction: (work) =>
      unbounded(async (connection) => {
        await connection.query('BEGIN');
        try {
          const result = await work(connectionSql(connection));
          await connection.query('COMMIT');
          return result;
        } catch (error) {
          await connection.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }),
    async servingTransaction(work) {
      const connection = await pool.connect();
      let broken: Error | undefined;
      try {
        await connection.query('BEGIN');
        const result = await work(connectionSql(connection));
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that cannot roll back is in no state to serve another request: the pool drops it.
        await connection.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        connection.release(broken);
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
