/**
 * Where each source is fetched from. The default is the official public location; `INGEST_<SOURCE>_URL` (the
 * source name upper-cased, dashes as underscores) points a source at a mirror. A URL is a template: `{file}`,
 * `{ticker}`, `{cik}`, `{series}`, `{yyyy}`, `{qtr}`, `{yyyymmdd}`, `{path}` expand over the files a run needs
 * (docs/data-sources.md "Live ingestion"); a template without the source's placeholder names one file.
 */
export const DEFAULT_SOURCE_URLS: Readonly<Record<string, string>> = {
  members: 'https://unitedstates.github.io/congress-legislators/{file}',
  'legislators-historical': 'https://unitedstates.github.io/congress-legislators/legislators-historical.csv',
  'sec-tickers': 'https://www.sec.gov/files/company_tickers.json',
  'sp500-constituents': 'https://raw.githubusercontent.com/datasets/s-and-p-500-companies/main/data/constituents.csv',
  prices: 'https://stooq.com/q/d/l/?s={ticker_lower}.us&i=d',
  'senate-trades': 'https://senate-stock-watcher-data.s3-us-west-2.amazonaws.com/aggregate/all_transactions.json',
  'house-trades': 'https://raw.githubusercontent.com/IcarusxFell/capitol-watch-data/main/data/house_transactions.json',
  'sec-submissions': 'https://data.sec.gov/submissions/CIK{cik}.json',
  'edgar-index': 'https://www.sec.gov/Archives/edgar/daily-index/{yyyy}/QTR{qtr}/form.{yyyymmdd}.idx',
  // The documents the EDGAR index lists (`{path}`: the index's file name, `edgar/data/<cik>/<accession>.txt`).
  form4: 'https://www.sec.gov/Archives/{path}',
  'treasury-yields':
    'https://home.treasury.gov/resource-center/data-chart-center/interest-rates/daily-treasury-rates.csv/{yyyy}/all?type=daily_treasury_yield_curve&field_tdr_date_value={yyyy}&page&_format=csv',
  fred: 'https://fred.stlouisfed.org/graph/fredgraph.csv?id={series}',
};

export function sourceUrlVariable(source: string): string {
  return `INGEST_${source.toUpperCase().replaceAll('-', '_')}_URL`;
}

/** The configured URL template of a source. */
export function sourceUrlTemplate(source: string, environment: NodeJS.ProcessEnv = process.env): string {
  const configured = environment[sourceUrlVariable(source)]?.trim();
  const template = configured || DEFAULT_SOURCE_URLS[source];
  if (!template) throw new Error(`no URL for source "${source}"`);
  return template;
}

/** The template with `values` filled in; a placeholder it does not name is an error (a mistyped mirror URL). */
export function expandUrl(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_match, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`URL template ${template}: unknown placeholder {${key}}`);
    return encodeURIComponent(value).replaceAll('%2F', '/');
  });
}

/** Whether the template expands over `key` (else it names one file, as a mirror of a single file does). */
export function templateUses(template: string, ...keys: string[]): boolean {
  return keys.some((key) => template.includes(`{${key}}`));
}
