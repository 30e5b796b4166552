import { BatchWriter } from '../batch-writer.ts';
import type { UpsertTable } from '../batch-writer.ts';
import { emptyCounts, reject } from '../importer.ts';
import type { Importer } from '../importer.ts';
import { normaliseCik } from '../normalise/cik.ts';
import { normaliseTicker } from '../normalise/tickers.ts';
import { columnPositions } from '../read/csv-header.ts';
import { csvRows } from '../read/csv.ts';
import { convertOrReject } from '../rejects.ts';

/**
 * What the S&P 500 list adds to a profile. It owns sector (GICS sector), industry (GICS sub-industry, over the SEC
 * SIC description), headquarters, founded and the composed description; the name and CIK stay SEC's
 * (company_tickers.json) and are written only on a profile SEC does not know (docs/data-sources.md).
 */
const SP500_PROFILE_TABLE: UpsertTable = {
  table: 'company_profiles',
  columns: {
    ticker: 'text',
    cik: 'text',
    company_name: 'text',
    sector: 'text',
    industry: 'text',
    headquarters: 'text',
    founded: 'text',
    description: 'text',
  },
  key: ['ticker'],
  keep: ['company_name'],
  fillOnly: ['cik'],
  touch: 'updated_at',
};

const COLUMNS = {
  symbol: { headings: ['Symbol'] },
  security: { headings: ['Security'] },
  sector: { headings: ['GICS Sector'] },
  subIndustry: { headings: ['GICS Sub-Industry'] },
  headquarters: { headings: ['Headquarters Location'], optional: true },
  cik: { headings: ['CIK'], optional: true },
  founded: { headings: ['Founded'], optional: true },
} as const;

type Positions = Record<keyof typeof COLUMNS, number>;

/** datasets/s-and-p-500-companies `constituents.csv`: one row a constituent, class shares dotted (`BRK.B`). */
export const sp500ConstituentsImporter: Importer = {
  source: 'sp500-constituents',
  describe: 'S&P 500 constituents CSV (GICS sector, sub-industry, HQ, CIK, founded) into company profiles',
  async run(files, context) {
    const counts = emptyCounts();
    const writer = new BatchWriter(context.db.sql, SP500_PROFILE_TABLE, counts);
    for (const file of files) {
      let positions: Positions | null = null;
      for await (const row of csvRows(file)) {
        if (!positions) {
          positions = columnPositions(file, row, COLUMNS, 'an S&P 500 constituents CSV');
          continue;
        }
        counts.read += 1;
        const at = positions;
        const profile = await convertOrReject(
          'sp500-constituents',
          row,
          () => profileRow(row, at),
          context.rejects,
          counts,
        );
        if (profile) await writer.add(profile);
      }
    }
    await writer.flush();
    context.progress(`sp500-constituents: ${counts.read} constituents read`);
    return counts;
  },
};

function cell(row: string[], index: number): string {
  return index < 0 ? '' : (row[index] ?? '').trim();
}

function profileRow(row: string[], at: Positions) {
  const symbol = cell(row, at.symbol);
  const ticker = normaliseTicker(symbol) ?? reject('invalid_ticker', `Symbol "${symbol}"`);
  const name = cell(row, at.security) || reject('missing_name', `${ticker} has no Security name`);
  const sector = cell(row, at.sector) || reject('missing_sector', `${ticker} has no GICS Sector`);
  const industry = cell(row, at.subIndustry) || reject('missing_industry', `${ticker} has no GICS Sub-Industry`);
  const rawCik = cell(row, at.cik);
  const cik = rawCik === '' ? null : (normaliseCik(rawCik) ?? reject('invalid_cik', `CIK "${rawCik}"`));
  // The list writes "none" for a company without a single headquarters.
  const location = cell(row, at.headquarters);
  const headquarters = location === '' || /^none$/i.test(location) ? null : location;
  const founded = cell(row, at.founded) || null;
  return {
    ticker,
    cik,
    company_name: name,
    sector,
    industry,
    headquarters,
    founded,
    description: describeCompany({ name, ticker, sector, industry, headquarters, founded }),
  };
}

/**
 * A description made of the row's facts only, nothing added: "3M (MMM) is an S&P 500 company in Industrials —
 * Industrial Conglomerates, headquartered in Saint Paul, Minnesota, founded 1902."
 */
export function describeCompany(facts: {
  name: string;
  ticker: string;
  sector: string;
  industry: string;
  headquarters: string | null;
  founded: string | null;
}): string {
  const parts = [`${facts.name} (${facts.ticker}) is an S&P 500 company in ${facts.sector} — ${facts.industry}`];
  if (facts.headquarters) parts.push(`headquartered in ${facts.headquarters}`);
  if (facts.founded) parts.push(`founded ${facts.founded}`);
  return `${parts.join(', ')}.`;
}
