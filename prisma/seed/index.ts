import { availableParallelism } from 'node:os';
import type { Database } from '../../subgraphs/platform/database.ts';
import { copyRows } from './copy.ts';
import { createContext, isoDay, type SeedContext } from './context.ts';
import { TOP_SIGNALS_SQL, briefingWindow, type DayTopSignal } from './generate/briefing.ts';
import {
  vacuumAnalyze,
  createIndexes,
  dropIndexes,
  resetSequences,
  restoreDroppedIndexes,
  secondaryIndexes,
} from './indexes.ts';
import { LOAD_CHAINS, SEED_TABLES, briefingLoad, planTables, type SeedTable, type TableLoad } from './plan.ts';
import { MARKET_ROLLUPS, refreshMarketRollups } from '../../subgraphs/markets/rollups.ts';
import { announceMarketChanges } from '../../subgraphs/markets/webhooks/announcements.ts';
import { publishSeededMarketEvents } from '../../subgraphs/markets/webhooks/events.ts';

/**
 * The sandbox data generator: fills an empty, migrated database with deterministic, internally consistent
 * records for every vertical and the market data, streaming each table through COPY.
 */
export { SEED_TABLES, type SeedTable } from './plan.ts';

export interface SeedProgress {
  table: string;
  rows: number;
  total: number;
  rowsPerSecond: number;
  /** The table's COPY has finished (the last report for it). */
  done: boolean;
}

export interface SeedOptions {
  /** Records per vertical (companies, properties, attorneys). */
  scale: number;
  seed?: number;
  /** The day the data is relative to; today 00:00 UTC by default. */
  anchor?: Date;
  onProgress?: (progress: SeedProgress) => void;
  /**
   * A table's load failed. The other chains still finish (and the indexes are rebuilt) before seedDatabase
   * rejects, which at 10M records is most of an hour later, so this reports the failure as it happens.
   */
  onTableFailed?: (table: string, error: unknown) => void;
}

export interface SeedSummary {
  seed: number;
  scale: number;
  anchor: string;
  rows: Record<SeedTable, number>;
  totalRows: number;
  seconds: number;
}

/** From this scale on, secondary indexes are dropped for the load and rebuilt after it. */
export const DROP_INDEXES_FROM_SCALE = 100_000;

/** Thrown when the target already holds generated records (reset it first). */
export class AlreadySeededError extends Error {
  readonly code = 'ALREADY_SEEDED';
}

export async function isSeeded(db: Database): Promise<boolean> {
  const [row] = await db.sql.query<{ seeded: boolean }>('SELECT EXISTS (SELECT 1 FROM companies) AS seeded');
  return row?.seeded ?? false;
}

/** Empties the generated tables (accounts, keys, usage and users' leads and watchlists stay). */
export async function resetSeedTables(db: Database): Promise<void> {
  await db.sql.query(`TRUNCATE ${SEED_TABLES.join(', ')} RESTART IDENTITY`);
}

async function load(db: Database, table: TableLoad, onProgress: SeedOptions['onProgress']): Promise<number> {
  const started = performance.now();
  const report = (rows: number, done: boolean) => {
    const seconds = (performance.now() - started) / 1000;
    const rowsPerSecond = Math.round(rows / Math.max(seconds, 1e-3));
    onProgress?.({ table: table.table, rows, total: table.expectedRows, rowsPerSecond, done });
  };
  const rows = await copyRows(db, table.table, table.columns, table.rows(), (sent) => report(sent, false));
  report(rows, true); // after COPY returned, so the last rate includes the database's work
  return rows;
}

/**
 * How many chains load at once. On PostgreSQL each COPY is a server process of its own and the server, not
 * this generator, is the slower side (the generator needs about a third of the server's CPU time per row),
 * so one chain per core keeps every core busy; PGlite has a single connection.
 */
function loadWorkers(db: Database): number {
  return db.engine === 'postgres' ? Math.min(LOAD_CHAINS.length, Math.max(2, availableParallelism())) : 1;
}

/** Runs `task` over `items`, `workers` at a time; waits for every started task before reporting a failure. */
async function inParallel<T>(items: readonly T[], workers: number, task: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
  };
  const results = await Promise.allSettled(Array.from({ length: workers }, worker));
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
}

async function topSignalsByDay(db: Database, ctx: SeedContext): Promise<DayTopSignal[]> {
  const [from, to] = briefingWindow(ctx);
  return db.sql.query<DayTopSignal>(TOP_SIGNALS_SQL, [isoDay(from), isoDay(to)]);
}

export async function seedDatabase(db: Database, options: SeedOptions): Promise<SeedSummary> {
  const started = performance.now();
  const ctx = createContext(options);
  await restoreDroppedIndexes(db);
  if (await isSeeded(db)) throw new AlreadySeededError('the database already holds generated records; reset it first');

  const tables = await planTables(ctx);
  const dropped = ctx.scale >= DROP_INDEXES_FROM_SCALE ? await secondaryIndexes(db, SEED_TABLES) : [];
  await dropIndexes(db, dropped);

  const rows = {} as Record<SeedTable, number>;
  const byName = new Map(tables.map((table) => [table.table, table]));
  const loadChain = async (chain: readonly SeedTable[]) => {
    for (const name of chain) {
      const table = name === 'briefings' ? briefingLoad(ctx, await topSignalsByDay(db, ctx)) : byName.get(name);
      if (!table) throw new Error(`no plan for table ${name}`);
      try {
        rows[name] = await load(db, table, options.onProgress);
      } catch (error) {
        options.onTableFailed?.(name, error);
        throw error;
      }
    }
  };
  try {
    await inParallel(LOAD_CHAINS, loadWorkers(db), loadChain);
  } finally {
    // Even a failed load leaves the schema whole.
    if (dropped.length > 0) await createIndexes(db, dropped);
  }
  await resetSequences(
    db,
    tables.filter((table) => table.serialId).map((table) => table.table),
  );
  await refreshMarketRollups(db);
  // The sandbox's markets events (docs/webhooks.md): its rows, briefings and leads, as the seeded data makes them.
  await publishSeededMarketEvents(db);
  await announceMarketChanges(db);
  await vacuumAnalyze(db, [...SEED_TABLES, ...MARKET_ROLLUPS]);
  // In SEED_TABLES order, whichever chain finished first.
  const counts = Object.fromEntries(SEED_TABLES.map((table) => [table, rows[table]])) as Record<SeedTable, number>;
  const totalRows = Object.values(counts).reduce((sum, count) => sum + count, 0);
  return {
    seed: ctx.seed,
    scale: ctx.scale,
    anchor: isoDay(ctx.anchor),
    rows: counts,
    totalRows,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
