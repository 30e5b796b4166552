import type { SqlClient } from '../../../subgraphs/platform/database.ts';
import { BatchWriter } from '../batch-writer.ts';
import type { Row } from '../batch-writer.ts';
import { emptyCounts, reject } from '../importer.ts';
import type { Importer } from '../importer.ts';
import { ACCESSION_PATTERN, normaliseCik } from '../normalise/cik.ts';
import { checkPlausibleDate, parseDate } from '../normalise/dates.ts';
import { textLines } from '../read/lines.ts';
import { convertOrReject } from '../rejects.ts';
import { FILINGS_TABLE } from '../sec/tables.ts';

/**
 * A filing with several filers (a Form 4's issuer and reporting owner, co-registrants of an 8-K) is listed once
 * per filer. The filing keeps the filer with a ticker (the issuer), then the lowest CIK: the same choice in any
 * order, so importing twice changes nothing. The other lines count as skipped.
 */
const PREFER_LISTED_COMPANY = {
  sql: `(EXCLUDED.ticker IS NOT NULL) > (t.ticker IS NOT NULL)
        OR ((EXCLUDED.ticker IS NOT NULL) = (t.ticker IS NOT NULL) AND EXCLUDED.cik <= t.cik)`,
  incoming(incoming: Row, existing: Row): boolean {
    const rank = (row: Row) => (row.ticker ? 1 : 0);
    return (
      rank(incoming) > rank(existing) ||
      (rank(incoming) === rank(existing) && String(incoming.cik) <= String(existing.cik))
    );
  },
};

/**
 * An EDGAR daily form index (`form.YYYYMMDD.idx`): a free-text preamble, a header line naming the fixed-width
 * columns (Form Type, Company Name, CIK, Date Filed, File Name), a rule of dashes, then one filing a line. Each
 * filing is recorded with `fetched_at` null: a queue of documents to fetch later. Items, and a `fetched_at`
 * already set, are never overwritten by a later index.
 */
export const edgarIndexImporter: Importer = {
  source: 'edgar-index',
  describe: 'EDGAR daily form.*.idx listing → filings to fetch later',
  async run(files, context) {
    const counts = emptyCounts();
    const writer = new BatchWriter(
      context.db.sql,
      { ...FILINGS_TABLE, keep: ['items', 'fetched_at'], prefer: PREFER_LISTED_COMPANY },
      counts,
    );
    const tickers = await tickersByCik(context.db.sql);
    for (const file of files) {
      let columns: number[] | null = null;
      let inBody = false;
      for await (const line of textLines(file)) {
        if (!inBody) {
          if (/^Form Type\s+Company Name\s+CIK\s+Date Filed\s+File Name/.test(line)) {
            columns = ['Company Name', 'CIK', 'Date Filed', 'File Name'].map((name) => line.indexOf(name));
          } else if (columns && /^-{20,}$/.test(line.trim())) {
            inBody = true;
          }
          continue;
        }
        if (line.trim() === '') continue;
        counts.read += 1;
        const row = await convertOrReject(
          'edgar-index',
          { line },
          () => filingRow(line, columns!, tickers, context.now),
          context.rejects,
          counts,
        );
        if (row) await writer.add(row);
      }
      if (!columns)
        throw new Error(`${file}: no "Form Type  Company Name  CIK  Date Filed  File Name" header: not a form index`);
    }
    await writer.flush();
    context.progress(`edgar-index: ${counts.read} filings listed`);
    return counts;
  },
};

function filingRow(line: string, [company, cik, date, file]: number[], tickers: Map<string, string>, now: Date) {
  // The file name runs to the end of the line; the other columns sit at the header's offsets.
  const fields = [
    line.slice(0, company),
    line.slice(company, cik),
    line.slice(cik, date),
    line.slice(date, file),
    line.slice(file),
  ].map((field) => field.trim());
  const [formType, companyName, rawCik, rawDate, fileName] = fields as [string, string, string, string, string];
  const accession =
    ACCESSION_PATTERN.exec(fileName)?.[1] ?? reject('malformed_index_line', `no accession number in "${fileName}"`);
  const normalisedCik = normaliseCik(rawCik) ?? reject('malformed_index_line', `CIK "${rawCik}"`);
  if (!formType || !companyName) reject('malformed_index_line', 'missing form type or company name');
  const compactDate = /^(\d{4})(\d{2})(\d{2})$/.exec(rawDate);
  const filedAt = checkPlausibleDate(
    parseDate(compactDate ? `${compactDate[1]}-${compactDate[2]}-${compactDate[3]}` : rawDate, 'Date Filed'),
    'Date Filed',
    now,
    '1993-01-01',
  );
  return {
    accession_number: accession,
    cik: normalisedCik,
    company_name: companyName,
    ticker: tickers.get(normalisedCik) ?? null,
    form_type: formType,
    filed_at: filedAt,
    items: [],
    url: `https://www.sec.gov/Archives/${fileName}`,
    fetched_at: null,
  };
}

/** One ticker per CIK (the first in alphabetical order when a company has several share classes). */
async function tickersByCik(sql: SqlClient) {
  const rows = await sql.query<{ cik: string; ticker: string }>(
    'SELECT cik, min(ticker) AS ticker FROM company_profiles WHERE cik IS NOT NULL GROUP BY cik',
  );
  return new Map(rows.map((row) => [row.cik, row.ticker]));
}
