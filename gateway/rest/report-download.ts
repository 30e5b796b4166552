import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { STATUS_BY_CODE, isErrorCode } from '../../subgraphs/platform/errors.ts';
import { logger } from '../../subgraphs/platform/logger.ts';
import { REPORT_CONTENT_TYPES, REPORT_DOWNLOAD_ROUTE } from '../../subgraphs/index.ts';
import type { ReportFileSender } from '../../subgraphs/index.ts';
import { z } from 'zod';
import { assertPlanReaches } from '../auth/plan-access.ts';
import { subgraphRequestHeaders, subgraphUnreachable } from '../execution/subgraph-requests.ts';
import { defineRoute } from './define-route.ts';

/** The file's own headers; the gateway adds its usual ones (request id, rate limits, CORS) as on any route. */
const FILE_HEADERS = ['content-type', 'content-length', 'content-disposition'] as const;

/** Each format's file as the document states it: CSV text, or a JSON array with one object per record. */
const REPORT_FILES: Record<keyof typeof REPORT_CONTENT_TYPES, z.ZodType> = {
  csv: z.string(),
  json: z.array(z.looseObject({})),
};

/** The plan table's rule for `report(id)` decides, before any lookup: the file is that field's. */
async function requireReportPlan(request: FastifyRequest): Promise<void> {
  assertPlanReaches(request.viewer!.plan, [{ typeName: 'Query', fieldName: 'report' }]);
}

/** `GET /api/v1/reports/:id/download`: a finished report's file, wherever verticals runs. */
export const REPORT_DOWNLOAD = defineRoute({
  method: 'GET',
  path: REPORT_DOWNLOAD_ROUTE,
  tag: 'Verticals',
  operationId: 'ReportDownload',
  summary: "A finished report's file, in the format it was generated in; 409 while it is not finished.",
  access: requireReportPlan,
  params: z.strictObject({ id: z.string() }),
  errors: [409],
  response: {
    files: Object.fromEntries(
      Object.entries(REPORT_FILES).map(([format, schema]) => [
        REPORT_CONTENT_TYPES[format as keyof typeof REPORT_FILES].split(';')[0]!,
        schema,
      ]),
    ),
  },
});

/** The download with verticals in this process: its file sender behind the route (subgraphs/verticals/http.ts). */
export function serveReportDownload(app: FastifyInstance): (send: ReportFileSender) => void {
  return (send) => REPORT_DOWNLOAD.register(app, ({ params }, request, reply) => send(request, reply, params.id));
}

export interface ReportDownloadForward {
  /** VERTICALS_URL (the service's /graphql); the download is its sibling path. */
  subgraphUrl: string;
  secret: string;
  /** How long the service may take to start answering (SUBGRAPH_TIMEOUT_MS). */
  timeoutMs: number;
}

/**
 * The download when verticals runs as its own service: the plan is checked here, then the request goes to
 * that service as /graphql's do, and its answer (the streamed file, or its error body) comes back unchanged.
 */
export function forwardReportDownload(app: FastifyInstance, target: ReportDownloadForward): void {
  REPORT_DOWNLOAD.register(app, async ({ params }, request, reply) => {
    const path = REPORT_DOWNLOAD_ROUTE.slice(1).replace(':id', encodeURIComponent(params.id));
    const response = await fetchAnswer(
      new URL(path, target.subgraphUrl),
      subgraphRequestHeaders(target.secret, request.viewer),
      target.timeoutMs,
    );
    if (response.ok && response.body) {
      for (const name of FILE_HEADERS) {
        const value = response.headers.get(name);
        if (value !== null) reply.header(name, value);
      }
      return reply.status(response.status).send(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>));
    }
    const body: unknown = await response.json().catch(() => undefined);
    // Only the API's own error bodies pass; anything else (the secret refused, a proxy's page) is the service failing.
    const code = typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined;
    if (!isErrorCode(code) || STATUS_BY_CODE[code] !== response.status || code === 'unauthorized') {
      logger.warn(
        { subgraph: 'verticals', status: response.status },
        'report download refused by the verticals service',
      );
      throw subgraphUnreachable('verticals');
    }
    return reply.status(response.status).send(body);
  });
}

/** The service's response once its headers arrive; the body then streams without this deadline. */
async function fetchAnswer(url: URL, headers: Record<string, string>, timeoutMs: number): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return await fetch(url, { headers, signal: controller.signal });
  } catch (error) {
    logger.warn({ err: error, subgraph: 'verticals' }, 'subgraph unreachable');
    throw subgraphUnreachable('verticals');
  } finally {
    clearTimeout(timer);
  }
}
