import { fileURLToPath } from 'node:url';

/** Byte-exact copies of real public files, in the repository; sources and licences in test/fixtures/real/SOURCES.md. */
export const DATA = fileURLToPath(new URL('../fixtures/real/', import.meta.url));

export const REAL_FILES = {
  members: ['legislators-current.yaml', 'committees-current.yaml', 'committee-membership-current.yaml'].map(
    (name) => `${DATA}congress_members/${name}`,
  ),
  senate: `${DATA}congress_trades/senate-stock-watcher-data/all_transactions.json`,
  /** The senate file's first 1,500 records (test/fixtures/real/SOURCES.md). */
  senateSlice: `${DATA}congress_trades/senate-first-1500.json`,
  house: `${DATA}congress_trades/capitol-watch-data/house_transactions.json`,
  tickers: `${DATA}sec_edgar/company_tickers.json`,
  submissions: `${DATA}sec_edgar/company_submission.json`,
  /** SEC submissions recorded on 2026-03-05 (Apple, Microsoft, NVIDIA, Tesla), laid out as data.sec.gov serves them. */
  recentSubmissions: ['0000320193', '0000789019', '0001045810', '0001318605'].map(
    (cik) => `${DATA}sec_edgar/submissions/CIK${cik}.json`,
  ),
  form4: `${DATA}sec_edgar/form4.snow.xml`,
  index: `${DATA}sec_edgar/form.20200318.idx`,
  yields: [`${DATA}treasury_yields/yield-curve-rates-1990-2023.csv`, `${DATA}treasury_yields/daily-treasury-rates.csv`],
  formerMembers: `${DATA}congress_members/legislators-historical.csv`,
  sp500: `${DATA}companies/sp500-constituents.csv`,
  fortune1000: `${DATA}companies/fortune1000.csv`,
  prices: ['AAPL', 'NVDA'].map((ticker) => `${DATA}prices/${ticker}.US_D1.csv`),
  fred: ['FEDFUNDS', 'CPIAUCSL', 'UNRATE', 'DGS2', 'DGS10'].map((series) => `${DATA}fred/${series}.csv`),
};

/** "Today" for the plausibility checks: the day the data snapshot was taken, so the tests do not age. */
export const SNAPSHOT_DAY = new Date('2026-11-21T12:00:00Z');
