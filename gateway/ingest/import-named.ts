import { link, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '../../subgraphs/platform/database.ts';
import type { ImportCounts } from '../import/importer.ts';
import { runImport } from '../import/run.ts';
import type { PlannedFile } from './source-files.ts';

/**
 * Imports the files under the names the importers read (a ticker or accession in the name): hard links in a
 * folder of the run, removed afterwards (the store keeps the files).
 */
export async function importNamed(
  db: Database,
  importer: string,
  files: { file: Pick<PlannedFile, 'name'>; path: string }[],
  folder: string,
  now: Date,
  progress: (message: string) => void,
): Promise<ImportCounts> {
  await mkdir(folder, { recursive: true });
  try {
    const paths: string[] = [];
    for (const { file, path } of files) {
      const named = join(folder, file.name);
      await link(path, named);
      paths.push(named);
    }
    const { source: _source, ...counts } = await runImport(db, importer, paths, { now, progress });
    return counts;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
