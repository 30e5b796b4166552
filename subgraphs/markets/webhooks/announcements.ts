import type { Database } from '../../platform/database.ts';
import { marketPublishingCtes } from './event-types.ts';
import { convergenceLeadsFromDatabase } from '../convergence-query.ts';
import type { Lead } from '../convergence-query.ts';
import { CONVERGENCE_DEFAULT_DAYS, convergenceWindow } from '../types/convergence.ts';

/**
 * The events that follow from market data rather than being a row of it: a day's briefing and changes of the
 * convergence leads. Whatever writes signals or trades calls `announceMarketChanges` after refreshing the
 * rollups (the importers and the seeder). Each compares with what was last announced and writes the new
 * state and the events in one statement, so an announcement is made once, even by two processes at once.
 */
export async function announceMarketChanges(db: Database, now = new Date()): Promise<void> {
  await announceBriefings(db, now);
  await announceConvergenceChanges(db);
}

/** A briefing older than this when it first appears (a back-filled year of trades) is recorded, not announced. */
const BRIEFING_NEWS_DAYS = 7;

/** `briefing.published` for each day that now has a briefing and had none announced, as `/api/briefings` lists it. */
export async function announceBriefings(db: Database, now: Date): Promise<number> {
  const [row] = await db.sql.query<{ announced: number }>(
    `WITH days AS (
       SELECT day, sum(signals)::int AS signals, sum(trades)::int AS trades
         FROM (SELECT day, signals, 0 AS trades FROM market_signal_dates
               UNION ALL SELECT day, 0, trades FROM market_disclosure_days WHERE day < 'infinity'
               UNION ALL SELECT date, 0, 0 FROM briefings) d
        GROUP BY day),
     fresh AS (
       INSERT INTO briefing_publications (day) SELECT day FROM days ON CONFLICT (day) DO NOTHING RETURNING day),
     ${marketPublishingCtes(`
       SELECT 'briefing.published' AS type,
              jsonb_build_object(
                'date', d.day, 'signals_count', d.signals, 'trades_count', d.trades, 'url', '/api/briefings/' || d.day,
                'headline', coalesce(b.headline, format('%s signal%s and %s congressional trade%s',
                  d.signals, CASE WHEN d.signals = 1 THEN '' ELSE 's' END,
                  d.trades, CASE WHEN d.trades = 1 THEN '' ELSE 's' END))) AS data,
              '{}'::jsonb AS attributes
         FROM fresh f JOIN days d ON d.day = f.day LEFT JOIN briefings b ON b.date = d.day
        WHERE d.day >= $1::date`)}
     SELECT count(*)::int AS announced FROM published`,
    [new Date(now.getTime() - BRIEFING_NEWS_DAYS * 86_400_000).toISOString().slice(0, 10)],
  );
  return row?.announced ?? 0;
}

/** The leads followed for changes: the most the API lists, over its default window and the whole history. */
const FOLLOWED_LEADS = 100;
/** A score change announced as `moved`: at least this many points since the score last announced. */
const SCORE_MOVE = 10;

/** A lead as `/api/leads/convergence` prints it, without the evidence lists (purchases and signals). */
function leadData(lead: Lead) {
  return {
    ticker: lead.ticker,
    company_name: lead.companyName,
    congress_buys: lead.congressBuys,
    total_signals: lead.totalSignals,
    bullish_signals: lead.bullishSignals,
    bearish_signals: lead.bearishSignals,
    purchase_amount: lead.purchaseAmount,
    congress_members: lead.congressMembers,
    score: lead.score,
    score_breakdown: lead.scoreBreakdown,
    first_purchase_date: lead.firstPurchaseDate.toISOString().slice(0, 10),
    last_purchase_date: lead.lastPurchaseDate.toISOString().slice(0, 10),
    last_signal_at: lead.lastSignalAt.toISOString(),
  };
}

/**
 * `convergence_lead.changed` for each followed lead that entered, moved by 10 or more since last announced, or
 * left. The INSERT, UPDATE and DELETE decide: a concurrent run finds the change made and announces nothing.
 */
export async function announceConvergenceChanges(db: Database): Promise<number> {
  const window = await convergenceWindow(db, CONVERGENCE_DEFAULT_DAYS, undefined, 'institutional');
  // The events carry no evidence lists (leadData), so their rows are not read.
  const leads = await convergenceLeadsFromDatabase(db, { ...window, limit: FOLLOWED_LEADS, evidence: false });
  const current = leads.map((lead) => ({ ticker: lead.ticker, score: lead.score, lead: leadData(lead) }));
  const [row] = await db.sql.query<{ announced: number }>(
    `WITH current AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(ticker text, score float8, lead jsonb)),
     entered AS (
       INSERT INTO convergence_lead_states (ticker, score, lead) SELECT ticker, score, lead FROM current
       ON CONFLICT (ticker) DO NOTHING RETURNING ticker, lead),
     moved AS (
       UPDATE convergence_lead_states s SET score = c.score, lead = c.lead, updated_at = now()
         FROM current c, convergence_lead_states before
        WHERE s.ticker = c.ticker AND before.ticker = s.ticker AND abs(s.score - c.score) >= ${SCORE_MOVE}
       RETURNING s.ticker, s.lead, before.score AS previous_score),
     left_leads AS (
       DELETE FROM convergence_lead_states s WHERE NOT EXISTS (SELECT 1 FROM current c WHERE c.ticker = s.ticker)
       RETURNING s.ticker, s.lead, s.score AS previous_score),
     changes AS (
       SELECT 'entered' AS change, ticker, lead, NULL::float8 AS previous_score FROM entered
       UNION ALL SELECT 'moved', ticker, lead, previous_score FROM moved
       UNION ALL SELECT 'left', ticker, lead, previous_score FROM left_leads),
     ${marketPublishingCtes(`
       SELECT 'convergence_lead.changed' AS type,
              jsonb_build_object('change', change, 'lead', lead, 'previous_score', previous_score) AS data,
              jsonb_build_object('ticker', ticker) AS attributes
         FROM changes`)}
     SELECT count(*)::int AS announced FROM published`,
    [JSON.stringify(current)],
  );
  return row?.announced ?? 0;
}
