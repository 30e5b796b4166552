import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sourceSchedule } from '../../subgraphs/data-loading.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import type { ImportCounts } from '../import/importer.ts';
import { followEdgarIndex } from './edgar-follow.ts';
import { importNamed } from './import-named.ts';
import { FetchFailure } from './http/polite-client.ts';
import type { PoliteClient, Validators } from './http/polite-client.ts';
import { PROCESS_HOLDER } from './job-lease.ts';
import { SOURCE_FILES } from './source-files.ts';
import type { PlannedFile } from './source-files.ts';
import { finishRun, startRun } from './source-runs.ts';
import type { FetchedFile, RunOutcome } from './source-runs.ts';

/** Sources whose files are read together (the members files are told apart by content): all or none. */
const IMPORTED_TOGETHER = new Set(['members']);

/** What the last good run of a URL fetched: its validators and the stored file, so a 304 can still be imported. */
type KnownFiles = Record<string, Validators & { sha256: string; path: string; name: string }>;

export interface SourceRunOptions {
  client: PoliteClient;
  /** Where the run folders of named links go (the downloads themselves are in the client's store). */
  workDir: string;
  trigger: 'schedule' | 'command';
  now?: Date;
  environment?: NodeJS.ProcessEnv;
  form4PerRun?: number;
  progress?: (message: string) => void;
}

/**
 * One run of a source: fetch every file it needs (conditional requests), then import what changed through the
 * same importer as `npm run import`, and record the run. Every fetch finishes before anything is written, so a
 * source that fails to answer, answers an error page or breaks off leaves the data as it was. The validators of
 * a URL are kept only after its file was imported: a failed import fetches the file again next time.
 */
export async function runSource(db: Database, source: string, options: SourceRunOptions): Promise<RunOutcome> {
  const schedule = sourceSchedule(source);
  const planFiles = SOURCE_FILES[source];
  if (!schedule || !planFiles) throw new Error(`unknown source "${source}"`);
  const now = options.now ?? new Date();
  const environment = options.environment ?? process.env;
  const progress = options.progress ?? (() => undefined);
  const runId = await startRun(db.sql, source, options.trigger, PROCESS_HOLDER);
  const fetched: FetchedFile[] = [];
  const known = await knownFiles(db, source);
  try {
    const planned = await planFiles({ db, now, environment });
    const toImport: { file: PlannedFile; path: string }[] = [];
    const failedDocuments: { name: string; failure: FetchFailure }[] = [];
    let changed = false;
    for (const file of planned) {
      const result = await fetchPlanned(options.client, file, known[file.url]);
      if (result instanceof FetchFailure) {
        failedDocuments.push({ name: file.name, failure: result });
        continue;
      }
      if (!result) continue;
      fetched.push(result.record);
      if (result.record.httpStatus === 200) changed = true;
      if (result.path && (result.record.httpStatus === 200 || IMPORTED_TOGETHER.has(source)))
        toImport.push({ file, path: result.path });
    }
    // A missing document is the document's failure; when every one is missing, the source (or its URL) is wrong.
    if (failedDocuments.length && failedDocuments.length === planned.length) throw failedDocuments[0]!.failure;
    progress(
      `${source}: ${fetched.length} file(s) asked, ${changed ? 'changed' : 'nothing changed'}, ${failedDocuments.length} document(s) failed`,
    );
    let counts: ImportCounts | undefined;
    if (changed) {
      counts = await importNamed(db, source, toImport, join(options.workDir, String(runId)), now, progress);
      await rememberFiles(db, source, known, fetched);
    }
    const follow =
      source === 'edgar-index'
        ? await followEdgarIndex(db, {
            client: options.client,
            environment,
            now,
            perRun: options.form4PerRun ?? 200,
            workDir: join(options.workDir, `${runId}-documents`),
            progress,
          })
        : undefined;
    fetched.push(...(follow?.fetched ?? []));
    const status =
      changed || (follow && follow.fetched.some((file) => file.httpStatus === 200)) ? 'succeeded' : 'unchanged';
    const errors = [...documentErrors(failedDocuments, planned.length), ...(follow?.errors ?? [])];
    return await finishRun(db.sql, runId, schedule, {
      status,
      fetched,
      counts: follow
        ? { index: counts ?? null, ...follow.counts }
        : planned.some((file) => file.document)
          ? { ...counts, documents_failed: failedDocuments.length }
          : counts,
      error: errors.length ? errors.slice(0, 20).join('; ') : null,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    progress(`${source}: failed: ${reason}`);
    return await finishRun(db.sql, runId, schedule, {
      status: 'failed',
      fetched,
      httpStatus: error instanceof FetchFailure ? error.httpStatus : undefined,
      error: publicReason(error),
    });
  }
}

/**
 * What a failed run shows on the public /api/stats/sources: a fetch failure says what the source did (its
 * message names no host or path); anything else is the service's own failure, whose detail (which may hold SQL
 * or file paths) goes only to the log and the command's stderr.
 */
function publicReason(error: unknown): string {
  if (error instanceof FetchFailure) return error.message;
  return 'the import failed; the server log has the detail';
}

/** The run's error lines for its failed documents: how many of how many, then each with what the source said. */
function documentErrors(failed: { name: string; failure: FetchFailure }[], planned: number): string[] {
  if (!failed.length) return [];
  const [first, ...rest] = failed.map(({ name, failure }) => `${name}: ${failure.message}`);
  return [`${failed.length} of ${planned} documents failed: ${first}`, ...rest];
}

/**
 * A file fetched, or from the store when unchanged and known (absent: optional and not published yet); a
 * document the source answered a 4xx for (a ticker it does not list) comes back as its failure.
 */
async function fetchPlanned(
  client: PoliteClient,
  file: PlannedFile,
  known: KnownFiles[string] | undefined,
): Promise<{ record: FetchedFile; path?: string } | FetchFailure | undefined> {
  try {
    // Without its stored file a 304 could not be imported: ask for the whole file again.
    const previous = known && existsSync(known.path) ? known : undefined;
    const outcome = await client.fetchFile({ url: file.url, expect: file.expect, previous });
    if (outcome.status === 'unchanged') {
      return {
        record: { url: file.url, name: file.name, httpStatus: 304, bytes: 0, sha256: known?.sha256 },
        path: known?.path,
      };
    }
    return {
      record: {
        url: file.url,
        name: file.name,
        httpStatus: 200,
        bytes: outcome.bytes,
        sha256: outcome.sha256,
        path: outcome.path,
        validators: outcome.validators,
      },
      path: outcome.path,
    };
  } catch (error) {
    if (file.optional && error instanceof FetchFailure && (error.httpStatus === 404 || error.httpStatus === 403))
      return undefined;
    if (file.document && isMissingDocument(error)) return error;
    throw error;
  }
}

/** The source answered for this document alone (404, 403, 410…): not a 429, a 5xx, an error page or no answer. */
function isMissingDocument(error: unknown): error is FetchFailure {
  const status = error instanceof FetchFailure && error.code === 'http_status' ? (error.httpStatus ?? 0) : 0;
  return status >= 400 && status < 500 && status !== 429;
}

async function knownFiles(db: Database, source: string): Promise<KnownFiles> {
  const [row] = await db.sql.query<{ validators: KnownFiles }>(`SELECT validators FROM ingest_jobs WHERE name = $1`, [
    source,
  ]);
  return row?.validators ?? {};
}

async function rememberFiles(db: Database, source: string, known: KnownFiles, fetched: FetchedFile[]) {
  const next: KnownFiles = { ...known };
  for (const file of fetched) {
    if (file.httpStatus !== 200 || !file.sha256 || !file.path) continue;
    next[file.url] = { ...file.validators, sha256: file.sha256, path: file.path, name: file.name };
  }
  await db.sql.query(
    `INSERT INTO ingest_jobs (name, validators) VALUES ($1, $2::jsonb)
     ON CONFLICT (name) DO UPDATE SET validators = excluded.validators`,
    [source, JSON.stringify(next)],
  );
}
