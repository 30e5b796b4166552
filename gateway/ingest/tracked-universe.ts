import { MARKETS_PLAN_RULES } from '../../subgraphs/data-loading.ts';
import { PLANS, planReaches } from '../../subgraphs/platform/plans.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import type { Database } from '../../subgraphs/platform/database.ts';

/** Bounds on a run's list of companies and tickers, so a long watchlist cannot make a run unbounded. */
export const MAX_TICKERS = 200;
export const MAX_CIKS = 600;

const watchlistRule = MARKETS_PLAN_RULES.find((rule) => rule.coordinates.includes('Mutation.addWatchlistEntry'));

/** The plans whose accounts keep a watchlist today: only their watchlists steer what is fetched. */
export const WATCHLIST_PLANS: readonly Plan[] = PLANS.filter(
  (plan) => watchlistRule !== undefined && planReaches(plan, watchlistRule.plan),
);

/**
 * Each listed ticker watchlisted by an account that still exists and whose plan (read now, at fetch time, not when
 * the entry was added) includes watchlists, with how many such accounts watch it. Unlisted tickers (`ZZZZ`, junk)
 * never leave this query: a caller's choice is only a vote among tickers the reference data already lists.
 */
const WATCHED = `
  SELECT w.ticker, count(DISTINCT w.account_id)::int AS watchers
    FROM watchlist_entries w
    JOIN accounts a ON a.id::text = w.account_id AND a.plan = ANY($1::text[]) AND a.disabled_at IS NULL
   WHERE EXISTS (SELECT 1 FROM company_profiles p WHERE p.ticker = w.ticker)
   GROUP BY w.ticker`;

/**
 * The tickers whose prices a run fetches: those already priced (the service's own universe, loaded by the
 * operator or earlier runs) first, then watchlisted ones that are S&P 500 profiles, then the other watchlisted
 * listed tickers by how many accounts watch them; so no number of watchlist additions pushes a priced ticker out.
 */
export async function trackedTickers(db: Database, plans: readonly Plan[] = WATCHLIST_PLANS): Promise<string[]> {
  const rows = await db.sql.query<{ ticker: string }>(
    `WITH watched AS (${WATCHED}),
          priced AS (SELECT DISTINCT ticker FROM daily_prices)
     SELECT coalesce(priced.ticker, watched.ticker) AS ticker
       FROM priced FULL JOIN watched ON watched.ticker = priced.ticker
       LEFT JOIN company_profiles p ON p.ticker = coalesce(priced.ticker, watched.ticker)
      ORDER BY priced.ticker IS NULL, coalesce(p.sector, '') = '', watched.watchers DESC NULLS LAST, 1
      LIMIT ${MAX_TICKERS}`,
    [plans],
  );
  return rows.map((row) => row.ticker);
}

/**
 * The companies whose submissions a run fetches: the S&P 500 (profiles with a sector) first, then the companies
 * of watchlisted tickers by how many accounts watch them, so watchlists cannot push an S&P 500 company out.
 */
export async function trackedCiks(db: Database, plans: readonly Plan[] = WATCHLIST_PLANS): Promise<string[]> {
  const rows = await db.sql.query<{ cik: string }>(
    `WITH watched AS (${WATCHED})
     SELECT p.cik FROM company_profiles p LEFT JOIN watched ON watched.ticker = p.ticker
      WHERE p.cik IS NOT NULL AND (p.sector <> '' OR watched.ticker IS NOT NULL)
      GROUP BY p.cik
      ORDER BY bool_or(p.sector <> '') DESC, max(watched.watchers) DESC NULLS LAST, p.cik
      LIMIT ${MAX_CIKS}`,
    [plans],
  );
  return rows.map((row) => row.cik);
}
