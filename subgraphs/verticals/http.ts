import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { RequestContext } from '../platform/context.ts';
import type { Database, Mode } from '../platform/database.ts';
import { registerReportDownload } from './reports/download.ts';
import { attachReportWorker } from './reports/worker.ts';
import type { ReportWorkerOptions } from './reports/worker.ts';

export interface VerticalsHttpOptions {
  databases: Record<Mode, Database>;
  /** DATA_DIR: report files are written under DATA_DIR/reports and read from there. */
  dataDir: string;
  contextFor: (request: FastifyRequest) => RequestContext;
  /** Report worker tuning (poll interval, stale-heartbeat timeout, batch size). */
  reportWorker?: Omit<ReportWorkerOptions, 'databases' | 'dataDir'>;
  /** Runs before the download looks anything up: the host's access rule (the gateway's plan check). */
  beforeDownload?: preHandlerAsyncHookHandler;
}

/**
 * What verticals serves besides GraphQL, attached to whichever Fastify app hosts the subgraph (the gateway in
 * one process, or its own service): the report worker, run while the app listens, and the report download.
 */
export function attachVerticalsHttp(app: FastifyInstance, options: VerticalsHttpOptions): void {
  const { databases, dataDir } = options;
  registerReportDownload(app, { contextFor: options.contextFor, dataDir, preHandler: options.beforeDownload });
  attachReportWorker(app, { ...options.reportWorker, databases, dataDir });
}
