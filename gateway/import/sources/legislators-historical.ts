import { foldName } from '../../../subgraphs/data-loading.ts';
import { attributeStoredTrades } from '../attribution.ts';
import { BatchWriter } from '../batch-writer.ts';
import { emptyCounts, reject } from '../importer.ts';
import type { Importer } from '../importer.ts';
import { csvRows } from '../read/csv.ts';
import { convertOrReject } from '../rejects.ts';
import { MEMBERS_TABLE } from './members.ts';

/**
 * unitedstates/congress-legislators `legislators-historical.csv`: every former member since 1789, one row each,
 * `type`/`state`/`district`/`party` of their last term. Only members of the disclosure era are kept: those with
 * an FEC candidate id or an OpenSecrets id (both exist for members who ran from the 1980s on, so every member
 * who could have filed a STOCK Act report has one). The others, 1789 to the 1980s, are skipped: no disclosure
 * names them, and their parties (Whig, Federalist, the Jeffersonian "Republican") are not the API's D/R/I.
 */
const PARTIES: Record<string, string> = { Democrat: 'D', Republican: 'R', Independent: 'I' };

// Former members never overwrite a member in office (the current file is newer); a former member's row is
// brought up to date (the current file may have marked them former since).
const HISTORICAL_TABLE = {
  ...MEMBERS_TABLE,
  prefer: { sql: 'NOT t.in_office', incoming: () => true },
};

export const legislatorsHistoricalImporter: Importer = {
  source: 'legislators-historical',
  describe: 'legislators-historical.csv (former members; those of the disclosure era are kept)',
  async run(files, context) {
    const counts = emptyCounts();
    const writer = new BatchWriter(context.db.sql, HISTORICAL_TABLE, counts);
    const ids: string[] = [];
    let outOfEra = 0;
    for (const file of files) {
      let header: string[] | undefined;
      for await (const cells of csvRows(file)) {
        if (!header) {
          header = cells;
          if (!['bioguide_id', 'last_name', 'type', 'party'].every((column) => header!.includes(column)))
            throw new Error(`legislators-historical: ${file} has no bioguide_id/last_name/type/party header`);
          continue;
        }
        counts.read += 1;
        const record = Object.fromEntries(header.map((column, index) => [column, cells[index] ?? '']));
        if (!record.fec_ids && !record.opensecrets_id) {
          outOfEra += 1;
          counts.skipped += 1;
          continue;
        }
        const row = await convertOrReject(
          'legislators-historical',
          record,
          () => formerMemberRow(record),
          context.rejects,
          counts,
        );
        if (!row) continue;
        ids.push(row.bioguide_id);
        await writer.add(row);
      }
    }
    await writer.flush();
    const [inOffice] = await context.db.sql.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM members WHERE in_office AND bioguide_id = ANY($1::text[])',
      [ids],
    );
    context.progress(
      `legislators-historical: ${counts.read} former members read, ${outOfEra} before the disclosure era skipped, ` +
        `${inOffice?.n ?? 0} in office again (the current file's record kept)`,
    );
    const { unmatched } = await attributeStoredTrades(context, 'legislators-historical');
    if (unmatched.length) counts.unmatched = unmatched;
    return counts;
  },
};

function formerMemberRow(record: Record<string, string>) {
  const bioguideId = record.bioguide_id ?? '';
  if (!/^[A-Z]\d{6}$/.test(bioguideId)) reject('invalid_legislator', `bioguide_id "${bioguideId}"`);
  const last = record.last_name ?? '';
  const given = record.first_name ?? '';
  if (!last || !given) reject('invalid_legislator', 'first_name and last_name are required');
  if (record.type !== 'sen' && record.type !== 'rep') reject('invalid_legislator', `type "${record.type}"`);
  if (!/^[A-Z]{2}$/.test(record.state ?? '')) reject('invalid_legislator', `state "${record.state}"`);
  // The API's party has three values: a member of any other party of the era (Libertarian Justin Amash, Popular
  // Democrat Aníbal Acevedo-Vilá) is neither D nor R, so I.
  const party = record.party ? (PARTIES[record.party] ?? 'I') : reject('unknown_party', 'no party');
  const first = record.nickname || (/^[A-Z]\.$/.test(given) && record.middle_name ? record.middle_name : given);
  const district = Number.parseInt(record.district ?? '', 10);
  return {
    bioguide_id: bioguideId,
    first_name: first,
    last_name: last,
    full_name: `${first} ${last}`,
    party,
    chamber: record.type === 'sen' ? 'senate' : 'house',
    state: record.state,
    // The disclosures' form, as for current members; -1 (unknown) and senators have none.
    district: record.type === 'rep' && district >= 0 ? `${record.state}${String(district).padStart(2, '0')}` : null,
    committees: [],
    name_folded: foldName(
      [given, record.middle_name, record.nickname, last, record.full_name].filter(Boolean).join(' '),
    ),
    in_office: false,
  };
}
