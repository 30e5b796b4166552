import type { Database } from '../../platform/database.ts';
import { isoTimestamp } from '../../platform/webhooks/outbox.ts';
import { marketPublishingCtes } from './event-types.ts';

/**
 * The events of the market tables, as SELECTs over `written r`: the rows an import's upsert returned, with
 * `r.inserted` true for new ones (gateway/import/batch-writer.ts). `data` is the record as the list route returns
 * it (docs/webhooks.md "Events"); the attributes are what endpoint filters match on.
 */

const SIGNAL_DATA = `jsonb_build_object(
  'id', r.id, 'ticker', r.ticker, 'company_name', r.company_name, 'signal_type', r.signal_type,
  'filing_type', r.filing_type, 'ai_summary', r.ai_summary, 'materiality_score', r.materiality_score,
  'sentiment', r.sentiment, 'urgent', r.urgent, 'source_url', r.source_url, 'created_at', ${isoTimestamp('r.created_at')})`;

export const SIGNAL_CREATED = `SELECT 'signal.created' AS type, ${SIGNAL_DATA} AS data,
    jsonb_build_object('ticker', r.ticker, 'signal_type', r.signal_type) AS attributes
  FROM written r WHERE r.inserted`;

// jsonb_build_object takes at most 100 arguments: the trade is built in two halves.
const TRADE_DATA = `jsonb_build_object(
  'id', r.id, 'member_name', r.member_name, 'bioguide_id', r.bioguide_id, 'party', r.party, 'chamber', r.chamber,
  'ticker', r.ticker, 'asset_description', r.asset_description, 'asset_type', r.asset_type,
  'option_detail', r.option_detail, 'trade_type', r.trade_type, 'owner', r.owner) || jsonb_build_object(
  'amount_range', r.amount_range, 'amount_low', r.amount_low, 'amount_high', r.amount_high,
  'trade_date', r.trade_date, 'disclosure_date', r.disclosure_date, 'disclosure_lag_days', r.disclosure_lag_days,
  'late', r.late, 'source', r.source, 'filing_url', r.filing_url)`;

/**
 * A trade is disclosed once: a later filing that repeats it (an amendment, the same identity) is a correction
 * and no event, whether it came in an earlier import (the NOT EXISTS reads the table as it was before this
 * statement) or in this same batch (DISTINCT ON keeps the first of an identity).
 */
export const CONGRESSIONAL_TRADE_DISCLOSED = `SELECT DISTINCT ON (coalesce(r.identity_key, r.id::text))
    'congressional_trade.disclosed' AS type, ${TRADE_DATA} AS data,
    jsonb_build_object('ticker', r.ticker, 'chamber', r.chamber, 'member', r.bioguide_id,
                       'member_name', r.member_name) AS attributes
  FROM written r
  WHERE r.inserted
    AND (r.identity_key IS NULL
         OR NOT EXISTS (SELECT 1 FROM congressional_trades o WHERE o.identity_key = r.identity_key))
  ORDER BY coalesce(r.identity_key, r.id::text), r.disclosure_date, r.filing_url`;

const INSIDER_TRADE_DATA = `jsonb_build_object(
  'id', r.id, 'ticker', r.ticker, 'issuer_cik', r.issuer_cik, 'insider_name', r.owner_name,
  'insider_cik', r.owner_cik, 'insider_title', r.owner_title, 'security_title', r.security_title,
  'derivative', r.derivative, 'transaction_date', r.transaction_date, 'transaction_code', r.transaction_code,
  'shares', r.shares, 'price_per_share', r.price_per_share, 'acquired_disposed', r.acquired_disposed) || jsonb_build_object(
  'shares_owned_after', r.shares_owned_after, 'direct_ownership', r.direct_ownership, 'rule_10b5_1', r.rule_10b5_1,
  'accession_number', r.accession_number,
  'filing_url', CASE WHEN r.accession_number ~ '^\\d{10}-\\d{2}-\\d{6}$' AND r.issuer_cik ~ '^\\d+$'
    THEN 'https://www.sec.gov/Archives/edgar/data/' || r.issuer_cik::bigint || '/' || replace(r.accession_number, '-', '')
  END,
  'conversion_or_exercise_price', r.conversion_or_exercise_price, 'exercise_date', r.exercise_date,
  'expiration_date', r.expiration_date, 'underlying_security_title', r.underlying_security_title,
  'underlying_shares', r.underlying_shares)`;

export const INSIDER_TRADE_FILED = `SELECT 'insider_trade.filed' AS type, ${INSIDER_TRADE_DATA} AS data,
    jsonb_build_object('ticker', r.ticker) AS attributes
  FROM written r WHERE r.inserted`;

/** The market tables and their events, for writers that add rows without the batch writer (the seeder's COPY). */
export const MARKET_TABLE_EVENTS = {
  signals: SIGNAL_CREATED,
  congressional_trades: CONGRESSIONAL_TRADE_DISCLOSED,
  insider_transactions: INSIDER_TRADE_FILED,
} as const;

/**
 * The events of every row of the market tables, as if each had just been written: the sandbox seeder's after a
 * reseed (`npm run seed -- --reset`) under existing endpoints. Without an enabled endpoint nothing would
 * receive them, and nothing is written.
 */
export async function publishSeededMarketEvents(db: Database): Promise<number> {
  const [listening] = await db.sql.query<{ any: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE enabled) AS any',
  );
  if (!listening?.any) return 0;
  let published = 0;
  for (const [table, events] of Object.entries(MARKET_TABLE_EVENTS)) {
    const [row] = await db.sql.query<{ n: number }>(
      `WITH written AS (SELECT t.*, true AS inserted FROM ${table} t), ${marketPublishingCtes(events)}
       SELECT count(*)::int AS n FROM published`,
    );
    published += row?.n ?? 0;
  }
  return published;
}
