import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { findOwnedReport, reportIds } from '../types/report.ts';
import { reportsDirectory } from './worker.ts';

export const REPORT_DOWNLOAD_ROUTE = '/api/v1/reports/:id/download';

export const REPORT_CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
} as const;

export interface ReportFileOptions {
  contextFor: (request: FastifyRequest) => RequestContext;
  dataDir: string;
}

/** Sends report `id`'s file on `reply`, or throws the API error that says why not. */
export type ReportFileSender = (request: FastifyRequest, reply: FastifyReply, id: string) => Promise<FastifyReply>;

/**
 * A report's file, streamed. A file is no GraphQL value, so it is sent by a route of its own; who may read the
 * job is decided by `findOwnedReport`, the function behind the GraphQL `report(id)` field. Not finished yet is
 * a 409; someone else's report, a 404.
 */
export function reportFileSender(options: ReportFileOptions): ReportFileSender {
  const root = resolve(reportsDirectory(options.dataDir));
  return async (request, reply, id) => {
    const job = await findOwnedReport(options.contextFor(request), id);
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
  };
}

/**
 * `GET /api/v1/reports/:id/download` on the verticals service, which its gateway forwards to after checking the
 * caller (the gateway's own route is gateway/rest/report-download.ts).
 */
export function registerReportDownload(app: FastifyInstance, send: ReportFileSender): void {
  app.get<{ Params: { id: string } }>(REPORT_DOWNLOAD_ROUTE, (request, reply) =>
    send(request, reply, request.params.id),
  );
}
