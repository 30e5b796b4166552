import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { ConflictError, NotFoundError } from '../../subgraphs/platform/errors.ts';
import { formatId } from '../../subgraphs/platform/ids.ts';
import { assertPlanReaches } from '../auth/plan-access.ts';
import { reportsDirectory } from '../../subgraphs/verticals/reports/worker.ts';
import { findOwnedReport } from '../../subgraphs/verticals/types/report.ts';

const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' } as const;

/**
 * `GET /api/v1/reports/:id/download` streams a finished report file. A file is no GraphQL value, so this is
 * a route of its own; who may read the job is decided by `findOwnedReport`, the function behind the GraphQL
 * `report(id)` field, and so is the plan it needs (403 below it). Not finished yet is a 409; someone else's
 * report, a 404.
 */
export function registerReportDownload(
  app: FastifyInstance,
  deps: { contextFor: (request: FastifyRequest) => RequestContext; dataDir: string },
): void {
  const root = resolve(reportsDirectory(deps.dataDir));
  app.get<{ Params: { id: string } }>('/api/v1/reports/:id/download', async (request, reply) => {
    // The file is `report(id)`'s: the plan table's rule for that field decides, before any lookup.
    assertPlanReaches(request.viewer!.plan, [{ typeName: 'Query', fieldName: 'report' }]);
    const job = await findOwnedReport(deps.contextFor(request), request.params.id);
    if (!job) throw new NotFoundError('The report');
    if (job.status !== 'completed' || !job.filePath) {
      throw new ConflictError(`Report ${formatId('report', job.id)} is ${job.status}; it can be downloaded once completed.`);
    }
    const path = resolve(join(root, job.filePath));
    // A file path comes from the database: never follow one outside the reports directory.
    const size = path.startsWith(root + sep) ? await stat(path).then((info) => info.size, () => undefined) : undefined;
    if (size === undefined) throw new NotFoundError('The report file');
    const format = job.format === 'json' ? 'json' : 'csv';
    return reply
      .type(CONTENT_TYPES[format])
      .header('content-length', size)
      .header('content-disposition', `attachment; filename="${formatId('report', job.id)}.${format}"`)
      .send(createReadStream(path));
  });
}
