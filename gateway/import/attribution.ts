import type { ImportContext, UnmatchedName } from './importer.ts';
import { MemberMatcher } from './normalise/members.ts';
import {
  loadMembers,
  markSuperseded,
  reportUnmatched,
  tradeIdentity,
  tradeKeys,
} from './sources/congressional-trades.ts';

interface UnattributedTrade {
  id: string;
  source: string;
  member_name: string;
  chamber: string;
  trade_date: string;
  ticker: string | null;
  asset_description: string;
  option_detail: string | null;
  trade_type: string;
  owner: string;
  amount_range: string;
  filing_url: string | null;
  disclosed: boolean;
  natural_key: string;
}

/**
 * Gives the trades stored without a member (imported before their member was) the member their name now
 * matches, after any members import: bioguide id, party and name, and the natural key and amendment identity
 * the trade importer computes for a matched member, so importing the trade file again finds them unchanged.
 * Only the stored name (`<first> <last>`) and the House district are known here, so the raw name's middle names
 * and initials are not. Reads the unattributed trades of one matched name at a time.
 */
export async function attributeStoredTrades(
  context: ImportContext,
  source: string,
): Promise<{ attributed: number; unmatched: UnmatchedName[] }> {
  const sql = context.db.sql;
  const matcher = new MemberMatcher(await loadMembers(sql));
  const names = await sql.query<{ member_name: string; chamber: string; state: string | null; trades: number }>(
    `SELECT member_name, chamber, left(district, 2) AS state, count(*)::int AS trades FROM congressional_trades
     WHERE bioguide_id IS NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  const unmatched: UnmatchedName[] = [];
  // Per member and chamber (a member may have disclosed from both), every stored name that matched them.
  const byMember = new Map<string, { bioguideId: string; chamber: string; state: string | null; names: string[] }>();
  for (const { member_name: name, chamber, state, trades } of names) {
    // Two representatives of one name are told apart by their state (Mark Green of Tennessee, in office until
    // 2025, is not Mark Green of Wisconsin, who left in 2007): without the district no House name is attributed.
    if (chamber === 'house' && !state) {
      unmatched.push({ name, chamber, trades, reason: 'stored without its district: import the House file again' });
      continue;
    }
    const match = matcher.match(name, chamber, state);
    if (!match) {
      unmatched.push({ name, chamber, trades, reason: matcher.unmatchedReason(name, chamber, state) ?? 'unknown' });
      continue;
    }
    const key = `${match.member.bioguideId}|${chamber}|${state ?? ''}`;
    const entry = byMember.get(key) ?? { bioguideId: match.member.bioguideId, chamber, state, names: [] };
    entry.names.push(name);
    byMember.set(key, entry);
  }
  let attributed = 0;
  const sources = new Set<string>();
  for (const { bioguideId, chamber, state, names: memberNames } of byMember.values()) {
    const member = matcher.byBioguideId(bioguideId)!;
    const trades = await sql.query<UnattributedTrade>(
      `SELECT id, source, member_name, chamber, trade_date::text AS trade_date, ticker, asset_description,
              option_detail, trade_type, owner, amount_range, filing_url, disclosure_date IS NOT NULL AS disclosed,
              natural_key
       FROM congressional_trades
       WHERE bioguide_id IS NULL AND chamber = $1 AND member_name = ANY($2::text[])
         AND left(district, 2) IS NOT DISTINCT FROM $3
       ORDER BY id`,
      [chamber, memberNames, state],
    );
    // Identical lines of one filing are told apart by their position in the file, counted per identity as the
    // importer does: the position is recovered from the stored key, so the lines keep their order.
    const ordered = trades
      .map((trade) => ({ trade, position: storedPosition(trade) }))
      .sort((a, b) => a.position - b.position || a.trade.id.localeCompare(b.trade.id));
    const occurrences = new Map<string, number>();
    const updates = ordered.map(({ trade }) => {
      const identity = identityOf(trade, bioguideId);
      const base = `${identity}|${trade.filing_url ?? ''}`;
      const occurrence = occurrences.get(base) ?? 0;
      occurrences.set(base, occurrence + 1);
      sources.add(trade.source);
      return { id: trade.id, ...tradeKeys(identity, trade.filing_url, occurrence, trade.disclosed) };
    });
    // A trade already stored under the member's key is this one imported again since: it stays as it is.
    const taken = new Set(
      (
        await sql.query<{ natural_key: string }>(
          'SELECT natural_key FROM congressional_trades WHERE natural_key = ANY($1::text[])',
          [updates.map((update) => update.natural_key)],
        )
      ).map((row) => row.natural_key),
    );
    const free = updates.filter((update) => !taken.has(update.natural_key));
    if (free.length) {
      await sql.query(
        `UPDATE congressional_trades t
         SET bioguide_id = $2, member_name = $3, party = $4, natural_key = x.natural_key, identity_key = x.identity_key
         FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, natural_key text, identity_key text)
         WHERE t.id = x.id`,
        [JSON.stringify(free), bioguideId, member.fullName, member.party],
      );
    }
    attributed += free.length;
    if (free.length < updates.length) {
      unmatched.push({
        name: memberNames.join(' / '),
        chamber,
        trades: updates.length - free.length,
        reason: `already stored attributed to ${member.fullName} (${bioguideId}): the unattributed copies stay`,
      });
    }
  }
  // The amendment identities changed: recompute which trade supersedes which.
  for (const tradeSource of sources) await markSuperseded(sql, tradeSource);
  context.progress(`${source}: ${attributed} stored trades attributed to a member they now match`);
  if (unmatched.length) reportUnmatched(context, source, unmatched);
  return { attributed, unmatched };
}

function identityOf(trade: UnattributedTrade, member: string): string {
  return tradeIdentity({
    source: trade.source,
    member,
    tradeDate: trade.trade_date,
    assetKey: trade.ticker ?? trade.asset_description.toLowerCase(),
    optionDetail: trade.option_detail,
    tradeType: trade.trade_type,
    owner: trade.owner,
    amountRange: trade.amount_range,
  });
}

// Far beyond any real filing's identical lines; a key not found by then sorts last.
const MAX_POSITION = 1_000;

/** The position among identical lines a trade stored without a member was imported at (its key says it). */
function storedPosition(trade: UnattributedTrade): number {
  const identity = identityOf(trade, trade.member_name.toLowerCase());
  for (let position = 0; position < MAX_POSITION; position += 1) {
    if (tradeKeys(identity, trade.filing_url, position, false).natural_key === trade.natural_key) return position;
  }
  return MAX_POSITION;
}
