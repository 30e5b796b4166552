import { BatchWriter } from '../batch-writer.ts';
import type { UpsertTable } from '../batch-writer.ts';
import { emptyCounts, reject } from '../importer.ts';
import type { Importer } from '../importer.ts';
import { normaliseCik } from '../normalise/cik.ts';
import { normaliseTicker } from '../normalise/tickers.ts';
import { jsonObjectEntries } from '../read/json.ts';
import { convertOrReject } from '../rejects.ts';

/**
 * The profile columns this file knows (ticker, CIK, name). Sector, industry and description are written empty on
 * a new profile and never overwritten: other sources (sp500-constituents, EDGAR submissions' SIC description)
 * fill them. `updated_at` moves only when a profile changes.
 */
export const PROFILE_TABLE: UpsertTable = {
  table: 'company_profiles',
  columns: { ticker: 'text', cik: 'text', company_name: 'text', sector: 'text', industry: 'text', description: 'text' },
  key: ['ticker'],
  keep: ['sector', 'industry', 'description'],
  touch: 'updated_at',
};

/** SEC company_tickers.json: `{"0": {"cik_str": 789019, "ticker": "MSFT", "title": "MICROSOFT CORP"}, …}`. */
export const secTickersImporter: Importer = {
  source: 'sec-tickers',
  describe: 'SEC company_tickers.json (ticker ↔ CIK ↔ name) into company profiles',
  async run(files, context) {
    const counts = emptyCounts();
    const writer = new BatchWriter(context.db.sql, PROFILE_TABLE, counts);
    for (const file of files) {
      for await (const { value } of jsonObjectEntries(file)) {
        counts.read += 1;
        const row = await convertOrReject('sec-tickers', value, () => profileRow(value), context.rejects, counts);
        if (row) await writer.add(row);
      }
    }
    await writer.flush();
    context.progress(`sec-tickers: ${counts.read} tickers read`);
    return counts;
  },
};

function profileRow(value: unknown) {
  const entry = (value ?? {}) as { cik_str?: number | string; ticker?: string; title?: string };
  const ticker = normaliseTicker(entry.ticker) ?? reject('invalid_ticker', `ticker "${entry.ticker}"`);
  const cik = normaliseCik(entry.cik_str) ?? reject('invalid_cik', `cik_str "${entry.cik_str}"`);
  const name = (entry.title ?? '').trim() || reject('missing_name', 'no company title');
  return { ticker, cik, company_name: name, sector: '', industry: '', description: '' };
}
