import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestContext } from '../platform/context.ts';
import type { Database, Mode } from '../platform/database.ts';
import { registerReportDownload, reportFileSender } from './reports/download.ts';
import type { ReportFileSender } from './reports/download.ts';
import { attachReportWorker } from './reports/worker.ts';
import type { ReportWorkerOptions } from './reports/worker.ts';

export interface VerticalsHttpOptions {
  databases: Record<Mode, Database>;
  /** DATA_DIR: report files are written under DATA_DIR/reports and read from there. */
  dataDir: string;
  contextFor: (request: FastifyRequest) => RequestContext;
  /** Report worker tuning (poll interval, stale-heartbeat timeout, batch size). */
  reportWorker?: Omit<ReportWorkerOptions, 'databases' | 'dataDir'>;
  /**
   * How the host serves the report file: the gateway through its own route, which checks the caller first
   * (gateway/rest/report-download.ts); by default a plain route, for the service its gateway forwards to.
   */
  serveDownload?: (send: ReportFileSender) => void;
}

/**
 * What verticals serves besides GraphQL, attached to whichever Fastify app hosts the subgraph (the gateway in
 * one process, or its own service): the report worker, run while the app listens, and the report download.
 */
export function attachVerticalsHttp(app: FastifyInstance, options: VerticalsHttpOptions): void {
  const { databases, dataDir } = options;
  const send = reportFileSender({ contextFor: options.contextFor, dataDir });
  if (options.serveDownload) options.serveDownload(send);
  else registerReportDownload(app, send);
  attachReportWorker(app, { ...options.reportWorker, databases, dataDir });
}
