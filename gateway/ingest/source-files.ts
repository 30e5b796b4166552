import { basename, extname } from 'node:path';
import type { Database } from '../../subgraphs/platform/database.ts';
import type { ExpectedFormat } from './http/polite-client.ts';
import { expandUrl, sourceUrlTemplate, templateUses } from './source-urls.ts';
import { trackedCiks, trackedTickers } from './tracked-universe.ts';

/** One file a run fetches, and the name the importer reads it under (some take a ticker or accession from it). */
export interface PlannedFile {
  url: string;
  name: string;
  expect: ExpectedFormat;
  /** A 404 (or SEC's 403 for a file not there) means "not published yet", not a failed run. */
  optional?: boolean;
  /**
   * One of many documents of a source (a ticker's prices, a company's submissions): a 4xx answer for it is a
   * failed document, counted in the run, not a failed run (gateway/ingest/run-source.ts).
   */
  document?: boolean;
}

export interface PlanContext {
  db: Database;
  now: Date;
  environment: NodeJS.ProcessEnv;
}

const MEMBER_FILES = ['legislators-current.yaml', 'committees-current.yaml', 'committee-membership-current.yaml'];
const FRED_SERIES = ['CPIAUCSL', 'UNRATE', 'FEDFUNDS', 'DGS2', 'DGS10'];
/** The EDGAR index days a run asks for: today and the business days before it (a 304 each once fetched). */
const EDGAR_INDEX_DAYS = 3;

/** The files of one run of each source (the fetch side of subgraphs/markets/sources/catalog.ts). */
export const SOURCE_FILES: Readonly<Record<string, (context: PlanContext) => Promise<PlannedFile[]>>> = {
  members: async ({ environment }) =>
    expandOver(
      'members',
      environment,
      'yaml',
      ['file'],
      MEMBER_FILES.map((file) => ({ file })),
      ({ file }) => file!,
    ),
  'legislators-historical': async ({ environment }) => single('legislators-historical', environment, 'csv'),
  'sec-tickers': async ({ environment }) => single('sec-tickers', environment, 'json'),
  'sp500-constituents': async ({ environment }) => single('sp500-constituents', environment, 'csv'),
  'senate-trades': async ({ environment }) => single('senate-trades', environment, 'json'),
  'house-trades': async ({ environment }) => single('house-trades', environment, 'json'),
  prices: async ({ db, environment }) => {
    const tickers = listSetting(environment.INGEST_PRICES_TICKERS) ?? (await trackedTickers(db));
    return expandOver(
      'prices',
      environment,
      'csv',
      ['ticker', 'ticker_lower'],
      tickers.map((ticker) => ({ ticker, ticker_lower: ticker.toLowerCase() })),
      ({ ticker }) => `${ticker}.csv`,
    ).map(asDocument);
  },
  'sec-submissions': async ({ db, environment }) => {
    const ciks = listSetting(environment.INGEST_SEC_SUBMISSIONS_CIKS) ?? (await trackedCiks(db));
    return submissionFiles(environment, ciks);
  },
  'edgar-index': async ({ now, environment }) =>
    expandOver(
      'edgar-index',
      environment,
      'text',
      ['yyyymmdd', 'yyyy', 'qtr'],
      businessDaysUpTo(now, EDGAR_INDEX_DAYS).map((day) => ({
        yyyymmdd: day.replaceAll('-', ''),
        yyyy: day.slice(0, 4),
        qtr: String(Math.ceil(Number(day.slice(5, 7)) / 3)),
      })),
      ({ yyyymmdd }) => `form.${yyyymmdd}.idx`,
    ).map((file) => ({ ...file, optional: true })),
  'treasury-yields': async ({ now, environment }) => {
    const year = now.getUTCFullYear();
    // In the first days of January the new year's file is nearly empty: last year's closes the gap.
    const years = now.getUTCMonth() === 0 && now.getUTCDate() <= 10 ? [year - 1, year] : [year];
    return expandOver(
      'treasury-yields',
      environment,
      'csv',
      ['yyyy'],
      years.map((yyyy) => ({ yyyy: String(yyyy) })),
      ({ yyyy }) => `treasury-${yyyy}.csv`,
    );
  },
  fred: async ({ environment }) =>
    expandOver(
      'fred',
      environment,
      'csv',
      ['series'],
      (listSetting(environment.INGEST_FRED_SERIES) ?? FRED_SERIES).map((series) => ({ series })),
      ({ series }) => `${series}.csv`,
    ),
};

/** The submissions documents of these CIKs (also fetched by the EDGAR index run for the 8-Ks it lists). */
export function submissionFiles(environment: NodeJS.ProcessEnv, ciks: readonly string[]): PlannedFile[] {
  return expandOver(
    'sec-submissions',
    environment,
    'json',
    ['cik'],
    ciks.map((cik) => ({ cik: cik.padStart(10, '0') })),
    ({ cik }) => `CIK${cik}.json`,
  ).map(asDocument);
}

/**
 * A Form 4 still to fetch: `path` is its place under EDGAR's Archives (the index's file name,
 * `edgar/data/<cik>/<accession>.txt`, or a submissions document's primary document, whose XSL rendering folder
 * `xslF345X05/` is dropped to get the XML itself); named by its accession, which the form4 importer reads.
 */
export function form4File(environment: NodeJS.ProcessEnv, path: string, accession: string): PlannedFile {
  const raw = path.replace(/\/xsl[^/]+\//, '/');
  return {
    url: expandUrl(sourceUrlTemplate('form4', environment), { path: raw }),
    name: `${accession}${extname(raw) || '.txt'}`,
    expect: 'text',
  };
}

function single(source: string, environment: NodeJS.ProcessEnv, expect: ExpectedFormat): PlannedFile[] {
  const url = sourceUrlTemplate(source, environment);
  return [{ url, name: fileNameOf(url, source), expect }];
}

/**
 * One file per set of values, or, when a mirror's URL names one file (no placeholder of the source), that file
 * once under its own name.
 */
function expandOver(
  source: string,
  environment: NodeJS.ProcessEnv,
  expect: ExpectedFormat,
  keys: string[],
  values: Record<string, string>[],
  name: (values: Record<string, string>) => string,
): PlannedFile[] {
  const template = sourceUrlTemplate(source, environment);
  if (!templateUses(template, ...keys)) return single(source, environment, expect);
  return values.map((value) => ({ url: expandUrl(template, value), name: name(value), expect }));
}

function fileNameOf(url: string, source: string): string {
  const last = basename(new URL(url).pathname);
  return last && last !== '/' ? last : source;
}

function listSetting(value: string | undefined): string[] | undefined {
  const items = value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items?.length ? items : undefined;
}

function asDocument(file: PlannedFile): PlannedFile {
  return { ...file, document: true };
}

/** `count` weekdays ending today (UTC), oldest first, as YYYY-MM-DD. */
export function businessDaysUpTo(now: Date, count: number): string[] {
  const days: string[] = [];
  for (let day = new Date(now); days.length < count; day = new Date(day.getTime() - 86_400_000)) {
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.unshift(day.toISOString().slice(0, 10));
  }
  return days;
}
