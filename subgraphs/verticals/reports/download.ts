import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { RequestContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { findOwnedReport, reportIds } from '../types/report.ts';
import { reportsDirectory } from './worker.ts';

export const REPORT_DOWNLOAD_ROUTE = '/api/v1/reports/:id/download';

export const REPORT_CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
} as const;

export interface ReportDownloadOptions {
  contextFor: (request: FastifyRequest) => RequestContext;
  dataDir: string;
  /** The host's access rule, run before any lookup (the gateway's plan check; a subgraph service trusts its gateway's). */
  preHandler?: preHandlerAsyncHookHandler;
}

/**
 * `GET /api/v1/reports/:id/download` streams a finished report file. A file is no GraphQL value, so this is
 * a route of its own; who may read the job is decided by `findOwnedReport`, the function behind the GraphQL
 * `report(id)` field. Not finished yet is a 409; someone else's report, a 404.
 */
export function registerReportDownload(app: FastifyInstance, options: ReportDownloadOptions): void {
  const root = resolve(reportsDirectory(options.dataDir));
  app.get<{ Params: { id: string } }>(
    REPORT_DOWNLOAD_ROUTE,
    { preHandler: options.preHandler },
    async (request, reply) => {
      const job = await findOwnedReport(options.contextFor(request), request.params.id);
      if (!job) throw new NotFoundError('The report');
      if (job.status !== 'completed' || !job.filePath) {
        throw new ConflictError(
          `Report ${reportIds.format(job.id)} is ${job.status}; it can be downloaded once completed.`,
        );
      }
      const path = resolve(join(root, job.filePath));
      // A file path comes from the database: never follow one outside the reports directory.
      const size = path.startsWith(root + sep)
        ? await stat(path).then(
            (info) => info.size,
            () => undefined,
          )
        : undefined;
      if (size === undefined) throw new NotFoundError('The report file');
      const format = job.format === 'json' ? 'json' : 'csv';
      return reply
        .type(REPORT_CONTENT_TYPES[format])
        .header('content-length', size)
        .header('content-disposition', `attachment; filename="${reportIds.format(job.id)}.${format}"`)
        .send(createReadStream(path));
    },
  );
}
