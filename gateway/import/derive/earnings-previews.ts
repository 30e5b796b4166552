import type { SqlClient } from '../../../subgraphs/platform/database.ts';
import { BatchWriter } from '../batch-writer.ts';
import { emptyCounts } from '../importer.ts';
import type { ImportCounts } from '../importer.ts';
import { DERIVED_SIGNALS_TABLE } from './derived-signals.ts';
import { expectedReport } from './report-cadence.ts';
import type { ExpectedReport, ReportFiling } from './report-cadence.ts';

/**
 * `earnings_preview` signals: for each company with Item 2.02 8-Ks in `filings` (sec-submissions writes their
 * items), its next results filing expected from its own cadence (report-cadence.ts), dated 14 days before the
 * expected day, so it reads as a preview. One signal per latest report (`earnings_preview:<its accession>`): a new
 * Item 2.02 filing makes the next one; rerunning on the same filings writes nothing.
 */

/** The preview is dated this many days before the expected report. */
export const PREVIEW_DAYS = 14;
/**
 * A company that went on filing more than this many days past its expected date without a new Item 2.02 has
 * broken its cadence (a changed fiscal year, a delisting, an acquisition): no preview.
 */
export const STALE_AFTER_DAYS = 30;

const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

interface ResultsFiling {
  cik: string;
  ticker: string | null;
  company_name: string;
  accession_number: string;
  filed_at: string;
  url: string;
}

const named = (filing: ReportFiling) => `${filing.accession} of ${filing.filedAt}`;

function summary(company: string, ticker: string, report: ExpectedReport): string {
  const lead = `${company} (${ticker}): next results 8-K (Item 2.02) expected about ${report.expected}, ${report.gapDays} days after its latest, ${named(report.latest)}`;
  if (report.method === 'year_ago') {
    const [counterpart, successor] = report.basis;
    return `${lead}, as ${named(successor!)} followed ${named(counterpart!)} a year earlier.`;
  }
  return `${lead}: the median gap between its last ${report.basis.length} Item 2.02 reports (${report.basis.map((filing) => filing.accession).join(', ')}).`;
}

/** The preview of each company whose history allows one and whose preview date has come by `now`. */
export async function earningsPreviewSignals(sql: SqlClient, now: Date) {
  const filings = await sql.query<ResultsFiling>(
    `SELECT cik, ticker, company_name, accession_number, filed_at::text AS filed_at, url FROM filings
      WHERE form_type = '8-K' AND '2.02' = ANY (items) ORDER BY cik, filed_at, accession_number`,
  );
  const newest = new Map(
    (
      await sql.query<{ cik: string; newest: string }>(
        `SELECT cik, max(filed_at)::text AS newest FROM filings WHERE cik = ANY ($1) GROUP BY cik`,
        [[...new Set(filings.map((filing) => filing.cik))]],
      )
    ).map((row) => [row.cik, row.newest]),
  );
  const byCompany = new Map<string, ResultsFiling[]>();
  for (const filing of filings) {
    const history = byCompany.get(filing.cik) ?? [];
    if (history.length === 0) byCompany.set(filing.cik, history);
    history.push(filing);
  }
  const signals = [];
  for (const [cik, history] of byCompany) {
    const report = expectedReport(history.map((row) => ({ accession: row.accession_number, filedAt: row.filed_at })));
    if (!report) continue;
    const latest = history.find((row) => row.accession_number === report.latest.accession)!;
    if (!latest.ticker) continue;
    if (addDays(report.expected, STALE_AFTER_DAYS).toISOString().slice(0, 10) < newest.get(cik)!) continue;
    const previewAt = addDays(report.expected, -PREVIEW_DAYS);
    const createdAt = previewAt > addDays(latest.filed_at, 1) ? previewAt : addDays(latest.filed_at, 1);
    if (createdAt > now) continue;
    signals.push({
      ticker: latest.ticker,
      company_name: latest.company_name,
      signal_type: 'earnings_preview',
      filing_type: '8-K',
      ai_summary: summary(latest.company_name, latest.ticker, report),
      materiality_score: report.method === 'year_ago' ? 55 : 45,
      sentiment: 'NEUTRAL',
      urgent: false,
      source_url: latest.url,
      source_key: `earnings_preview:${latest.accession_number}`,
      created_at: createdAt.toISOString(),
    });
  }
  return signals;
}

/** Writes the previews due; the counts are of signals (inserted, updated, unchanged). */
export async function deriveEarningsPreviews(sql: SqlClient, now: Date): Promise<ImportCounts> {
  const counts = emptyCounts();
  const writer = new BatchWriter(sql, DERIVED_SIGNALS_TABLE, counts);
  for (const row of await earningsPreviewSignals(sql, now)) {
    counts.read += 1;
    await writer.add(row);
  }
  await writer.flush();
  return counts;
}
