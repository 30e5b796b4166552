import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { SqlClient } from '../../../subgraphs/platform/database.ts';
import { BatchWriter } from '../batch-writer.ts';
import { emptyCounts, reject } from '../importer.ts';
import type { Importer } from '../importer.ts';
import { filingFolderUrl, normaliseCik } from '../normalise/cik.ts';
import { checkPlausibleDate, parseDate } from '../normalise/dates.ts';
import { normaliseTicker } from '../normalise/tickers.ts';
import { assessEightK, parseItems } from '../sec/eight-k-items.ts';
import { FILINGS_TABLE, SIGNALS_TABLE } from '../sec/tables.ts';
import { convertOrReject } from '../rejects.ts';
import { PROFILE_TABLE } from './sec-tickers.ts';
import { deriveEarningsPreviews } from '../derive/earnings-previews.ts';
import { describeSignalCounts } from '../derive/derived-signals.ts';

/**
 * An EDGAR submissions JSON (data.sec.gov/submissions/CIK##########.json). Its `filings.recent` holds at most
 * a thousand filings as parallel arrays, so the document is read whole (a few hundred kilobytes; the arrays
 * cannot be streamed row by row). 8-Ks become filings and `sec_filing` signals; Form 4s become filings to
 * fetch later (the form4 importer reads their XML); other forms are counted as skipped.
 */
const submission = z.object({
  cik: z.union([z.string(), z.number()]),
  name: z.string(),
  tickers: z.array(z.string()).default([]),
  sicDescription: z.string().optional(),
  filings: z.object({
    recent: z.object({
      accessionNumber: z.array(z.string()),
      filingDate: z.array(z.string()),
      acceptanceDateTime: z.array(z.string()).optional(),
      form: z.array(z.string()),
      items: z.array(z.string()).optional(),
      primaryDocument: z.array(z.string()).optional(),
    }),
  }),
});

const KEPT_FORMS = new Set(['8-K', '8-K/A', '4', '4/A']);

export const secSubmissionsImporter: Importer = {
  source: 'sec-submissions',
  describe: 'EDGAR submissions JSON: 8-K → filings + sec_filing signals, Form 4 → filings to fetch',
  async run(files, context) {
    const counts = emptyCounts();
    const signalCounts = emptyCounts();
    const filings = new BatchWriter(context.db.sql, FILINGS_TABLE, counts);
    const signals = new BatchWriter(context.db.sql, SIGNALS_TABLE, signalCounts);
    for (const file of files) {
      const parsed = submission.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (!parsed.success)
        throw new Error(
          `${file}: not an EDGAR submissions document (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`,
        );
      const company = parsed.data;
      const cik = normaliseCik(company.cik) ?? reject('invalid_cik', String(company.cik));
      const ticker = normaliseTicker(company.tickers[0]);
      await writeProfiles(context.db.sql, company.tickers, cik, company.name, company.sicDescription ?? '');
      const recent = company.filings.recent;
      for (let index = 0; index < recent.accessionNumber.length; index += 1) {
        counts.read += 1;
        const form = recent.form[index] ?? '';
        if (!KEPT_FORMS.has(form)) {
          counts.skipped += 1;
          continue;
        }
        const record = Object.fromEntries(Object.entries(recent).map(([column, values]) => [column, values?.[index]]));
        const rows = await convertOrReject(
          'sec-submissions',
          record,
          () => {
            const accession = recent.accessionNumber[index]!;
            const filedAt = checkPlausibleDate(
              parseDate(recent.filingDate[index], 'filingDate'),
              'filingDate',
              context.now,
              '1993-01-01',
            );
            const items = form.startsWith('8-K') ? parseItems(recent.items?.[index]) : [];
            const folder = filingFolderUrl(cik, accession);
            const url = recent.primaryDocument?.[index] ? `${folder}/${recent.primaryDocument[index]}` : folder;
            const filing = {
              accession_number: accession,
              cik,
              company_name: company.name,
              ticker,
              form_type: form,
              filed_at: filedAt,
              items,
              url,
              fetched_at: null,
            };
            if (!form.startsWith('8-K')) return { filing, signal: null };
            if (!ticker) return reject('no_ticker', `${company.name} has no ticker, so its 8-K cannot be a signal`);
            const assessment = assessEightK(company.name, ticker, items);
            const acceptedAt = recent.acceptanceDateTime?.[index];
            return {
              filing,
              signal: {
                ticker,
                company_name: company.name,
                signal_type: 'sec_filing',
                filing_type: form,
                ai_summary: assessment.summary,
                materiality_score: assessment.materiality,
                sentiment: assessment.sentiment,
                urgent: assessment.urgent,
                source_url: url,
                source_key: `8-K:${accession}`,
                created_at: acceptedAt && !Number.isNaN(Date.parse(acceptedAt)) ? acceptedAt : `${filedAt}T00:00:00Z`,
              },
            };
          },
          context.rejects,
          counts,
        );
        if (!rows) continue;
        await filings.add(rows.filing);
        if (rows.signal) await signals.add(rows.signal);
      }
    }
    await filings.flush();
    await signals.flush();
    context.progress(`sec-submissions: sec_filing signals ${describeSignalCounts(signalCounts)}`);
    // The next results filing of every company with an Item 2.02 history, this file's and those stored before.
    const previews = await deriveEarningsPreviews(context.db.sql, context.now);
    context.progress(`sec-submissions: earnings_preview signals ${describeSignalCounts(previews)}`);
    return counts;
  },
};

/**
 * The company's tickers get its CIK, name and SIC description (as industry) on their profiles. The SIC
 * description only fills an empty industry: a GICS sub-industry (sp500-constituents) takes precedence, whichever
 * ran first (docs/data-sources.md, "Company profiles").
 */
async function writeProfiles(sql: SqlClient, tickers: string[], cik: string, name: string, industry: string) {
  const table = { ...PROFILE_TABLE, keep: ['sector', 'description'], fillEmpty: ['industry'] };
  const writer = new BatchWriter(sql, table, emptyCounts());
  for (const raw of tickers) {
    const ticker = normaliseTicker(raw);
    if (ticker) await writer.add({ ticker, cik, company_name: name, sector: '', industry, description: '' });
  }
  await writer.flush();
}
