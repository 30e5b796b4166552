import type { Database } from '../../subgraphs/platform/database.ts';
import type { ImportCounts } from '../import/importer.ts';
import { FetchFailure } from './http/polite-client.ts';
import type { PoliteClient } from './http/polite-client.ts';
import { importNamed } from './import-named.ts';
import { form4File, submissionFiles } from './source-files.ts';
import type { PlannedFile } from './source-files.ts';
import type { FetchedFile } from './source-runs.ts';

/** Form 4 documents imported per importer call: each call refreshes the rollups and statistics once. */
const FORM4_BATCH = 50;
/**
 * Runs in which a listed document answered but could not be used (a 404, an error page, a cut body) before it is
 * left. Documents not yet tried come first, so a few that never answer cannot hold up the rest of the list.
 */
const MAX_FETCH_ATTEMPTS = 5;

export interface FollowResult {
  fetched: FetchedFile[];
  counts: { form4: ImportCounts | null; 'sec-submissions': ImportCounts | null; documents_failed: number };
  /** One line per document that could not be fetched; it stays listed and is tried again on a later run. */
  errors: string[];
}

/**
 * After an EDGAR daily index import: the documents it listed. Each Form 4 still to fetch (not yet tried first,
 * then newest first, at most `perRun`) is fetched and imported by the form4 importer (insider trades and signals);
 * for each listed 8-K of a company with a profile, the company's submissions document is fetched and imported
 * (the 8-K's items and signal come from there), and the 8-K is then recorded as fetched. An 8-K that has its items
 * came from a submissions document already (the daily sec-submissions run), so it is not asked for again. A
 * document that fails is logged and tried again on a later run, until its MAX_FETCH_ATTEMPTS-th unusable answer;
 * it does not fail the run (the index itself was imported).
 */
export async function followEdgarIndex(
  db: Database,
  options: {
    client: PoliteClient;
    environment: NodeJS.ProcessEnv;
    now: Date;
    perRun: number;
    workDir: string;
    progress: (message: string) => void;
  },
): Promise<FollowResult> {
  const result: FollowResult = {
    fetched: [],
    counts: { form4: null, 'sec-submissions': null, documents_failed: 0 },
    errors: [],
  };
  const form4s = await db.sql.query<{ url: string; accession_number: string }>(
    `SELECT url, accession_number FROM filings
      WHERE form_type IN ('4', '4/A') AND fetched_at IS NULL AND fetch_attempts < $2
      ORDER BY fetch_attempts, filed_at DESC, accession_number LIMIT $1`,
    [options.perRun, MAX_FETCH_ATTEMPTS],
  );
  const { fetched: documents, unusable: unusableForm4s } = await fetchAll(
    options,
    form4s.map((row) => ({
      ...form4File(options.environment, archivePath(row.url), row.accession_number),
      key: row.accession_number,
    })),
    result,
  );
  await db.sql.query(
    `UPDATE filings SET fetch_attempts = fetch_attempts + 1 WHERE accession_number = ANY($1::text[])`,
    [unusableForm4s],
  );
  for (let start = 0; start < documents.length; start += FORM4_BATCH) {
    const counts = await importNamed(
      db,
      'form4',
      documents.slice(start, start + FORM4_BATCH),
      `${options.workDir}-form4-${start}`,
      options.now,
      options.progress,
    );
    result.counts.form4 = add(result.counts.form4, counts);
  }

  const eightKs = await db.sql.query<{ cik: string }>(
    `SELECT f.cik FROM filings f
      WHERE f.form_type IN ('8-K', '8-K/A') AND f.fetched_at IS NULL AND cardinality(f.items) = 0
        AND f.fetch_attempts < $2 AND EXISTS (SELECT 1 FROM company_profiles p WHERE p.cik = f.cik)
      GROUP BY f.cik ORDER BY min(f.fetch_attempts), f.cik LIMIT $1`,
    [options.perRun, MAX_FETCH_ATTEMPTS],
  );
  const ciks = eightKs.map((row) => row.cik);
  const { fetched: submissions, unusable: unusableCiks } = await fetchAll(
    options,
    submissionFiles(options.environment, ciks).map((file, index) => ({ ...file, key: ciks[index]! })),
    result,
  );
  await db.sql.query(
    `UPDATE filings SET fetch_attempts = fetch_attempts + 1
      WHERE form_type IN ('8-K', '8-K/A') AND fetched_at IS NULL AND cik = ANY($1::text[])`,
    [unusableCiks],
  );
  if (submissions.length) {
    result.counts['sec-submissions'] = await importNamed(
      db,
      'sec-submissions',
      submissions,
      `${options.workDir}-submissions`,
      options.now,
      options.progress,
    );
    await db.sql.query(
      `UPDATE filings SET fetched_at = now()
        WHERE form_type IN ('8-K', '8-K/A') AND fetched_at IS NULL AND cik = ANY($1::text[])`,
      // A mirror of one submissions file answers for every CIK asked.
      [submissions.length === 1 && !submissions[0]!.cik ? ciks : submissions.map((file) => file.cik)],
    );
  }
  options.progress(
    `edgar-index: ${documents.length} Form 4 and ${submissions.length} submissions documents imported, ${result.counts.documents_failed} failed`,
  );
  return result;
}

/** Consecutive fetches that got no answer (or none in time) after which a host is taken to be down this run. */
const UNREACHABLE_IN_A_ROW = 3;

/**
 * Fetches each file in turn (the client paces the host); failures are counted, not thrown. When the host stops
 * answering, the rest wait for the next run rather than each spending its retries. `unusable` holds the keys of
 * the documents that answered but could not be used (a host that did not answer says nothing of the document).
 */
async function fetchAll(
  options: { client: PoliteClient },
  files: (PlannedFile & { key: string })[],
  result: FollowResult,
): Promise<{ fetched: { file: { name: string }; path: string; cik: string }[]; unusable: string[] }> {
  const fetched = [];
  const unusable: string[] = [];
  let unreachable = 0;
  for (const [index, file] of files.entries()) {
    if (unreachable >= UNREACHABLE_IN_A_ROW) {
      result.errors.push(`${files.length - index} documents left for the next run: the host did not answer`);
      break;
    }
    try {
      const outcome = await options.client.fetchFile({ url: file.url, expect: file.expect });
      unreachable = 0;
      if (outcome.status !== 'fetched') continue;
      result.fetched.push({
        url: file.url,
        name: file.name,
        httpStatus: 200,
        bytes: outcome.bytes,
        sha256: outcome.sha256,
      });
      fetched.push({ file, path: outcome.path, cik: /CIK(\d{10})\.json$/.exec(file.name)?.[1] ?? '' });
    } catch (error) {
      if (!(error instanceof FetchFailure)) throw error;
      const answered = error.code !== 'network' && error.code !== 'timeout';
      unreachable = answered ? 0 : unreachable + 1;
      if (answered) unusable.push(file.key);
      result.counts.documents_failed += 1;
      result.errors.push(`${file.name}: ${error.message}`);
    }
  }
  return { fetched, unusable };
}

/** `https://www.sec.gov/Archives/edgar/data/…/x.txt` → `edgar/data/…/x.txt` (the index's own file name). */
function archivePath(url: string): string {
  return url.replace(/^https:\/\/www\.sec\.gov\/Archives\//, '');
}

function add(total: ImportCounts | null, counts: ImportCounts): ImportCounts {
  if (!total) return counts;
  return {
    read: total.read + counts.read,
    inserted: total.inserted + counts.inserted,
    updated: total.updated + counts.updated,
    skipped: total.skipped + counts.skipped,
    rejected: total.rejected + counts.rejected,
  };
}
