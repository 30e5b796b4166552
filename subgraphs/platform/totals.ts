import type { Prisma } from '../../prisma/generated/client/client.ts';
import { env } from './config.ts';
import type { Database } from './database.ts';
import { statisticsAreStale } from './table-statistics.ts';
import { tableOf, whereToSql } from './where-sql.ts';

/**
 * The `total` of a list (docs/api.md, "Totals"): exact up to `EXACT_TOTAL_LIMIT` matches, counted by a
 * `LIMIT` subquery that stops there whatever the table size; above it the planner's estimate, flagged.
 * The count is SQL rather than Prisma's `count({ take })`, which orders the capped subquery by id and so
 * defeats the index-only scans that make selective counts cheap.
 */
export interface Total {
  total: number;
  isEstimate: boolean;
}

export const exactTotal = (total: number): Total => ({ total, isEstimate: false });

interface PlanNode {
  'Plan Rows': number;
}

/**
 * How far a list over a table with stale statistics is counted exactly, instead of the `EXACT_TOTAL_LIMIT`: an
 * estimate from stale statistics can be off by any factor (10,001 for 15,367 trades, measured after an import
 * that did not analyze), so past the usual limit the count goes on, still capped so that a request's work
 * stays bounded (an index-only count of a million entries takes a few hundred milliseconds).
 */
export const STALE_EXACT_TOTAL_LIMIT = 1_000_000;

/** The capped count's statement over `from` (whereToSql), which a page read may send with its rows (below). */
export const cappedCountSql = (from: string, limit: number) =>
  `SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${limit + 1}) AS capped`;

/** Counts the rows of `from` up to `limit` + 1 (more than `limit` means past it). */
export const cappedCount = async (db: Database, from: string, params: unknown[], limit: number) => {
  const [capped] = await db.sql.query<{ n: number }>(cappedCountSql(from, limit), params);
  return capped!.n;
};

/**
 * A page's rows and its capped count in one statement: one round trip and one socket write instead of two
 * (docs/performance.md, item 26). A page read offers the count of its model and `where` (the object the page's
 * total counts) before it reads; a `countTotal` that starts in the same synchronous pass of the execution (its
 * `total` resolved beside `nodes`) claims the offer instead of counting, and the page read, which looks after the
 * pass, sends the count with its rows only when claimed. Any claim gets the count of the same model and `where`.
 */
interface CountOffer {
  model: Prisma.ModelName;
  limit: number;
  claimed: boolean;
  count: Promise<number>;
}

const offers = new WeakMap<object, CountOffer>();

export interface OfferedCount {
  limit: number;
  /** Whether a `countTotal` claimed the count (known once the execution's synchronous pass is over). */
  claimed: () => boolean;
  /** Settles the claimed count with the page statement's result (or its error). */
  settle: (count: Promise<number>) => void;
}

export function offerCappedCount(model: Prisma.ModelName, where: object, limit = env.EXACT_TOTAL_LIMIT): OfferedCount {
  let settle!: (count: Promise<number>) => void;
  const offer: CountOffer = { model, limit, claimed: false, count: new Promise((resolve) => (settle = resolve)) };
  offers.set(where, offer);
  return {
    limit,
    claimed: () => {
      if (offers.get(where) === offer) offers.delete(where);
      return offer.claimed;
    },
    settle,
  };
}

function claimCappedCount(model: Prisma.ModelName, where: object, limit: number): Promise<number> | null {
  const offer = offers.get(where);
  if (!offer || offer.model !== model || offer.limit !== limit) return null;
  offers.delete(where);
  offer.claimed = true;
  return offer.count;
}

/**
 * Flagged estimates, remembered per database and filter for `TOTAL_ESTIMATE_TTL_MS`. A list past the exact limits
 * (52,000 companies of the documented example at 10M records) otherwise counts 10,001 rows, asks the planner and
 * recounts 50,001 rows on every page, about 10 ms of PostgreSQL each time, to give an answer that is an estimate
 * anyway; a minute-old estimate is as good. It is given again only while the table's statistics are fresh (one
 * catalog read), so rows written since in numbers that make them stale are counted exactly, as without it. Exact
 * totals are never remembered: they are counted every time, and one counted forgets the filter's estimate. At
 * most `MAX_REMEMBERED_ESTIMATES` filters per database are kept, the oldest dropped first.
 */
const MAX_REMEMBERED_ESTIMATES = 1_000;
const estimates = new WeakMap<Database, Map<string, { total: Total; until: number }>>();

function rememberedEstimate(db: Database, key: string | null): Total | null {
  const entry = key === null ? undefined : estimates.get(db)?.get(key);
  if (!entry) return null;
  if (entry.until > Date.now()) return entry.total;
  estimates.get(db)!.delete(key!);
  return null;
}

function forgetEstimate(db: Database, key: string | null, total: Total): Total {
  if (key !== null) estimates.get(db)?.delete(key);
  return total;
}

function rememberEstimate(db: Database, key: string | null, total: Total): Total {
  if (key === null || env.TOTAL_ESTIMATE_TTL_MS === 0) return total;
  let known = estimates.get(db);
  if (!known) estimates.set(db, (known = new Map()));
  if (known.size >= MAX_REMEMBERED_ESTIMATES) known.delete(known.keys().next().value!);
  known.set(key, { total, until: Date.now() + env.TOTAL_ESTIMATE_TTL_MS });
  return total;
}

/** A filter's identity for remembered estimates: its SQL, values and limits; null when a value has no JSON form. */
function estimateKey(from: string, params: unknown[], limit: number, recountLimit: number): string | null {
  try {
    return `${limit}/${recountLimit}/${from}/${JSON.stringify(params)}`;
  } catch {
    return null;
  }
}

/**
 * Counts the rows a list's `where` selects: exactly up to `limit`. Past it the planner's estimate of the same
 * statement decides: at most `recountLimit` (a real list of 15,365 trades), the count goes on exactly up to
 * `recountLimit`, which costs lists of that size some milliseconds (docs/api.md "Totals" has the bench figures);
 * above it (an unfiltered list of millions) the estimate is the total, flagged and never below what a count saw. When the table's statistics
 * are stale (table-statistics.ts) the estimate is not trusted: the count goes on exactly up to
 * `STALE_EXACT_TOTAL_LIMIT`, and only past that is the estimate used. An estimate given for the same filter in the
 * last `TOTAL_ESTIMATE_TTL_MS` is given again without counting (above).
 */
export async function countTotal(
  db: Database,
  model: Prisma.ModelName,
  where: object,
  limit = env.EXACT_TOTAL_LIMIT,
  recountLimit = env.EXACT_TOTAL_RECOUNT_LIMIT,
): Promise<Total> {
  const { from, params } = whereToSql(db.prisma, model, where);
  const table = tableOf(db.prisma, model).name;
  const key = estimateKey(from, params, limit, recountLimit);
  const remembered = rememberedEstimate(db, key);
  // A remembered estimate is not claimed from the page (which then reads no count) and holds while the table's
  // statistics do: rows written since, enough to make them stale, are counted exactly as below.
  const stale = remembered ? await statisticsAreStale(db.sql, table) : undefined;
  if (remembered && !stale) return remembered;
  const total = await countAfresh(db, {
    table,
    from,
    params,
    limit,
    recountLimit,
    offered: remembered ? null : { model, where },
    stale,
  });
  return total.isEstimate ? rememberEstimate(db, key, total) : forgetEstimate(db, key, total);
}

/** A filter counted afresh: what countTotal knows of it, and whether its table's statistics are stale if known. */
interface FreshCount {
  table: string;
  from: string;
  params: unknown[];
  limit: number;
  recountLimit: number;
  /** The model and `where` a page may have offered its capped count for, or null when not to claim it. */
  offered: { model: Prisma.ModelName; where: object } | null;
  stale: boolean | undefined;
}

async function countAfresh(db: Database, count: FreshCount): Promise<Total> {
  const { table, from, params, limit, recountLimit, offered } = count;
  const claimed = offered && claimCappedCount(offered.model, offered.where, limit);
  const counted = await (claimed ?? cappedCount(db, from, params, limit));
  if (counted <= limit) return exactTotal(counted);
  let floor = limit + 1;
  if (limit < STALE_EXACT_TOTAL_LIMIT && (count.stale ?? (await statisticsAreStale(db.sql, table)))) {
    const recounted = await cappedCount(db, from, params, STALE_EXACT_TOTAL_LIMIT);
    if (recounted <= STALE_EXACT_TOTAL_LIMIT) return exactTotal(recounted);
    floor = STALE_EXACT_TOTAL_LIMIT + 1;
  }
  const [explained] = await db.sql.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) SELECT 1 ${from}`, params);
  const plan = explained!['QUERY PLAN'];
  const [root] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
  const estimate = Math.round(root!.Plan['Plan Rows']);
  if (floor <= recountLimit && estimate <= recountLimit) {
    const recounted = await cappedCount(db, from, params, recountLimit);
    if (recounted <= recountLimit) return exactTotal(recounted);
    floor = recountLimit + 1;
  }
  return { total: Math.max(floor, estimate), isEstimate: true };
}
