import { createHash } from 'node:crypto';
import type { SqlClient } from '../../../subgraphs/platform/database.ts';
import { STOCK_ACT_DEADLINE_DAYS, CONGRESSIONAL_TRADE_DISCLOSED } from '../../../subgraphs/data-loading.ts';
import { BatchWriter } from '../batch-writer.ts';
import type { UpsertTable } from '../batch-writer.ts';
import { emptyCounts, reject } from '../importer.ts';
import type { ImportContext, ImportCounts, UnmatchedName } from '../importer.ts';
import { checkPlausibleDate, daysBetween, parseDate } from '../normalise/dates.ts';
import { MemberMatcher, displayName } from '../normalise/members.ts';
import type { MemberIdentity } from '../normalise/members.ts';
import { parseOptionSymbol, normaliseTicker } from '../normalise/tickers.ts';
import {
  classifyAsset,
  cleanDescription,
  normaliseOwner,
  normaliseTradeType,
  parseAmount,
} from '../normalise/trade-fields.ts';
import { convertOrReject } from '../rejects.ts';

/** One disclosed transaction as the Senate and House files have it, before normalisation. */
export interface DisclosedTrade {
  memberName: string;
  /** The member's Bioguide id, when the source carries one: it wins over the name. */
  bioguideId?: string | null;
  /** `MO04`: the House files' district, which gives the state. */
  district?: string | null;
  transactionDate: string | null | undefined;
  disclosureDate?: string | null;
  owner: string | null | undefined;
  ticker: string | null | undefined;
  assetDescription: string | null | undefined;
  assetType?: string | null;
  type: string | null | undefined;
  amount: string | null | undefined;
  filingUrl: string | null | undefined;
}

// The STOCK Act took effect in 2012; the earliest electronic Senate reports carry 2012 trades and late House
// reports reach back a few years, so anything before 2008 is a parse error such as the House file's 1935.
const EARLIEST_TRADE = '2008-01-01';

const TRADES_TABLE: UpsertTable = {
  table: 'congressional_trades',
  columns: {
    bioguide_id: 'text',
    member_name: 'text',
    party: 'text',
    chamber: 'text',
    ticker: 'text',
    asset_description: 'text',
    asset_type: 'text',
    option_detail: 'text',
    trade_type: 'text',
    owner: 'text',
    amount_range: 'text',
    amount_low: 'float8',
    amount_high: 'float8',
    trade_date: 'date',
    disclosure_date: 'date',
    disclosure_lag_days: 'int',
    late: 'boolean',
    source: 'text',
    filing_url: 'text',
    natural_key: 'text',
    identity_key: 'text',
    district: 'text',
  },
  key: ['natural_key'],
  insertOnly: { id: 'gen_random_uuid()' },
  events: CONGRESSIONAL_TRADE_DISCLOSED,
};

/**
 * Imports a stream of disclosed trades of one chamber: normalises each, rejects the impossible ones, upserts the
 * rest on their natural key, then marks amended trades as superseded.
 */
export async function importTrades(
  source: 'senate-trades' | 'house-trades',
  chamber: 'senate' | 'house',
  records: AsyncIterable<{ raw: unknown; trade: DisclosedTrade }>,
  context: ImportContext,
): Promise<ImportCounts> {
  const counts = emptyCounts();
  const matcher = new MemberMatcher(await loadMembers(context.db.sql));
  const knownTickers = await loadTickers(context.db.sql);
  if (matcher.size === 0)
    context.progress(`${source}: no members loaded yet (import "members" first): trades keep bioguide_id null`);
  const writer = new BatchWriter(context.db.sql, TRADES_TABLE, counts, async () => {
    context.progress(
      `${source}: ${counts.read} read, ${counts.inserted} inserted, ${counts.updated} updated, ${counts.rejected} rejected`,
    );
  });
  // Position of a transaction among identical ones in the same filing, so two equal lines stay two trades.
  const occurrences = new Map<string, number>();
  const unmatched = new Map<string, UnmatchedName>();
  for await (const { raw, trade } of records) {
    counts.read += 1;
    const row = await convertOrReject(
      source,
      raw,
      () => tradeRow(source, chamber, trade, matcher, knownTickers, context.now),
      context.rejects,
      counts,
    );
    if (!row) continue;
    // Keyed by a short hash, so the map stays small beside a file of any size (20 bytes a distinct trade).
    const baseKey = createHash('sha1').update(row.base).digest('base64');
    const occurrence = occurrences.get(baseKey) ?? 0;
    occurrences.set(baseKey, occurrence + 1);
    if (!row.values.bioguide_id) {
      const name = row.values.member_name;
      const entry = unmatched.get(name) ?? {
        name,
        chamber,
        trades: 0,
        reason: matcher.unmatchedReason(trade.memberName.trim(), chamber, row.state) ?? 'unknown',
      };
      entry.trades += 1;
      unmatched.set(name, entry);
    }
    // Without a disclosure date there is no telling which of two filings came later: no amendment link.
    await writer.add({
      ...row.values,
      ...tradeKeys(row.identity, row.values.filing_url, occurrence, row.values.disclosure_date !== null),
    });
  }
  await writer.flush();
  const superseded = await markSuperseded(context.db.sql, source);
  if (unmatched.size) {
    counts.unmatched = [...unmatched.values()].sort((a, b) => b.trades - a.trades || a.name.localeCompare(b.name));
    reportUnmatched(context, source, counts.unmatched);
  }
  context.progress(`${source}: ${superseded} trades superseded by a later amendment`);
  return counts;
}

function tradeRow(
  source: string,
  chamber: 'senate' | 'house',
  trade: DisclosedTrade,
  matcher: MemberMatcher,
  knownTickers: ReadonlySet<string>,
  now: Date,
) {
  if (/pdf disclosed filing/i.test(trade.assetType ?? '')) {
    reject('scanned_filing', 'a scanned paper filing: the report lists no transaction fields, only a link to the scan');
  }
  const memberName = (trade.memberName ?? '').trim();
  if (!memberName) reject('missing_member', 'the record names no member');
  const tradeDate = checkPlausibleDate(
    parseDate(trade.transactionDate, 'transaction_date'),
    'transaction_date',
    now,
    EARLIEST_TRADE,
  );
  const disclosureDate =
    trade.disclosureDate === undefined || trade.disclosureDate === null
      ? null
      : checkPlausibleDate(parseDate(trade.disclosureDate, 'disclosure_date'), 'disclosure_date', now, EARLIEST_TRADE);
  if (disclosureDate && disclosureDate < tradeDate) {
    reject('disclosed_before_trade', `disclosure_date ${disclosureDate} is before transaction_date ${tradeDate}`);
  }
  const tradeType = normaliseTradeType(trade.type);
  const owner = normaliseOwner(trade.owner);
  const amount = parseAmount(trade.amount);
  const description = cleanDescription(trade.assetDescription);
  const disclosedTicker = normaliseTicker(trade.ticker, knownTickers);
  const option = disclosedTicker ? parseOptionSymbol(disclosedTicker) : null;
  // An option's ticker is its underlying stock's, so the ticker filter finds it; the contract goes in option_detail.
  const ticker = option ? option.underlying : disclosedTicker;
  if (!ticker && !description) reject('missing_asset', 'neither a ticker nor an asset description');
  const asset = classifyAsset(trade.assetType, description, disclosedTicker);
  const state = /^[A-Z]{2}/.exec(trade.district ?? '')?.[0] ?? null;
  const member: MemberIdentity | undefined =
    (trade.bioguideId ? matcher.byBioguideId(trade.bioguideId.trim().toUpperCase()) : undefined) ??
    matcher.match(memberName, chamber, state)?.member;
  const lag = disclosureDate ? daysBetween(tradeDate, disclosureDate) : null;
  const filingUrl = (trade.filingUrl ?? '').trim() || null;
  const assetKey = ticker ?? description.toLowerCase();
  // A later filing that repeats a transaction (same member, day, asset, type, owner and amount bucket) is an
  // amendment of it. Without the amount, two real trades of one stock on one day would collapse into one.
  const identity = tradeIdentity({
    source,
    member: member?.bioguideId ?? displayName(memberName).toLowerCase(),
    tradeDate,
    assetKey,
    optionDetail: asset.optionDetail,
    tradeType,
    owner,
    amountRange: amount.range,
  });
  return {
    state,
    identity,
    base: `${identity}|${filingUrl ?? ''}`,
    values: {
      bioguide_id: member?.bioguideId ?? null,
      member_name: member?.fullName ?? displayName(memberName),
      party: member?.party ?? null,
      chamber,
      ticker,
      asset_description: description || ticker!,
      asset_type: asset.assetType,
      option_detail: asset.optionDetail,
      trade_type: tradeType,
      owner,
      amount_range: amount.range,
      amount_low: amount.low,
      amount_high: amount.high,
      trade_date: tradeDate,
      disclosure_date: disclosureDate,
      disclosure_lag_days: lag,
      late: lag !== null && lag > STOCK_ACT_DEADLINE_DAYS,
      source,
      filing_url: filingUrl,
      district: trade.district?.trim() || null,
    },
  };
}

/** The parts of a trade's identity; `member` is the bioguide id, else the lower-cased display name. */
export interface TradeIdentityParts {
  source: string;
  member: string;
  tradeDate: string;
  /** The ticker, else the lower-cased asset description. */
  assetKey: string;
  optionDetail: string | null;
  tradeType: string;
  owner: string;
  amountRange: string;
}

export function tradeIdentity(parts: TradeIdentityParts): string {
  return [
    parts.source,
    parts.member,
    parts.tradeDate,
    parts.assetKey,
    parts.optionDetail ?? '',
    parts.tradeType,
    parts.owner,
    parts.amountRange,
  ].join('|');
}

/** The natural key and amendment identity of the `occurrence`-th identical line of one filing. */
export function tradeKeys(identity: string, filingUrl: string | null, occurrence: number, disclosed: boolean) {
  return {
    natural_key: hash(`${identity}|${filingUrl ?? ''}|${occurrence}`),
    identity_key: disclosed ? hash(`${identity}|${occurrence}`) : null,
  };
}

/** The unmatched names on stderr, one a line with their trades and the reason. */
export function reportUnmatched(context: ImportContext, source: string, unmatched: readonly UnmatchedName[]): void {
  context.progress(`${source}: ${unmatched.length} names match no member (bioguide_id and party left null):`);
  for (const entry of unmatched) {
    context.progress(`  ${entry.name} (${entry.chamber}, ${entry.trades} trades): ${entry.reason}`);
  }
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 40);
}

/** The tickers of company profiles (sec-tickers), which tell `BRKB` is `BRK-B`. */
async function loadTickers(sql: SqlClient): Promise<Set<string>> {
  const rows = await sql.query<{ ticker: string }>('SELECT ticker FROM company_profiles');
  return new Set(rows.map((row) => row.ticker));
}

export async function loadMembers(sql: SqlClient): Promise<MemberIdentity[]> {
  const rows = await sql.query<{
    bioguide_id: string;
    full_name: string;
    last_name: string;
    chamber: string;
    state: string;
    party: string;
    name_folded: string | null;
    in_office: boolean;
  }>('SELECT bioguide_id, full_name, last_name, chamber, state, party, name_folded, in_office FROM members');
  return rows.map((row) => ({
    bioguideId: row.bioguide_id,
    fullName: row.full_name,
    lastName: row.last_name,
    chamber: row.chamber,
    state: row.state,
    party: row.party,
    nameFolded: row.name_folded ?? row.full_name.toLowerCase(),
    inOffice: row.in_office,
  }));
}

/**
 * Within each identity (member, date, asset, type, owner, amount, position), the trade from the latest filing stands and
 * the others point to it: later disclosure date first, then the higher House document number. One statement
 * for the whole source, so it also corrects links after a file is imported again or out of order.
 */
export async function markSuperseded(sql: SqlClient, source: string): Promise<number> {
  await sql.query(
    `WITH ranked AS (
       SELECT id, first_value(id) OVER (
         PARTITION BY identity_key
         ORDER BY disclosure_date DESC,
                  COALESCE((regexp_match(filing_url, '(\\d+)\\D*$'))[1], '0')::numeric DESC,
                  filing_url DESC, id
       ) AS latest
       FROM congressional_trades WHERE source = $1 AND identity_key IS NOT NULL
     )
     UPDATE congressional_trades t
     SET superseded_by_id = NULLIF(r.latest, t.id)
     FROM ranked r
     WHERE r.id = t.id AND t.superseded_by_id IS DISTINCT FROM NULLIF(r.latest, t.id)`,
    [source],
  );
  const rows = await sql.query<{ superseded: number }>(
    'SELECT count(*)::int AS superseded FROM congressional_trades WHERE source = $1 AND superseded_by_id IS NOT NULL',
    [source],
  );
  return rows[0]?.superseded ?? 0;
}
