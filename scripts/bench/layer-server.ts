import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { execute, parse, validate } from 'graphql';
import type { DocumentNode } from 'graphql';
import { SUBGRAPHS } from '../../subgraphs/index.ts';
import type { SubgraphName } from '../../subgraphs/index.ts';
import type { RequestContext, Viewer } from '../../subgraphs/platform/context.ts';
import { openDatabase } from '../../subgraphs/platform/database.ts';
import { errorBody, unexpectedError } from '../../subgraphs/platform/error-body.ts';
import { ApiError } from '../../subgraphs/platform/errors.ts';
import { companiesPageViaPrisma, companiesPageViaSql, companyPageQuery } from './companies-page.ts';

/**
 * The layers under the gateway, each behind the same minimal node:http server so autocannon measures them the
 * way it measures the gateway:
 *   POST /graphql          one subgraph schema, executed with graphql-js over a fixed viewer (also what Hive
 *                          Gateway and our gateway in URL mode reach)
 *   GET  /sql/companies    the companies page and count as raw SQL through `pg`
 *   GET  /prisma/companies the same through Prisma (findMany, and the total as the resolver counts it)
 * Run as its own process: node --import tsx scripts/bench/layer-server.ts --subgraph verticals --port N --url …
 */
const { values } = parseArgs({
  options: { subgraph: { type: 'string' }, port: { type: 'string' }, url: { type: 'string' } },
});
const name = values.subgraph as SubgraphName;
const schema = SUBGRAPHS[name];
if (!schema || !values.port || !values.url)
  throw new Error('usage: layer-server --subgraph <name> --port <n> --url <postgresql://…>');

const db = await openDatabase({ mode: 'live', url: values.url });
// The bench key's viewer: the subgraph trusts it as it trusts the gateway's header.
const viewer: Viewer = { accountId: 'bench', plan: 'institutional', mode: 'live' };

/** GraphQL requests served, so the bench can tell how many subgraph fetches a gateway makes per request. */
let graphqlRequests = 0;

// Parse and validate once per distinct document, as any production GraphQL server does.
const documents = new Map<string, DocumentNode>();
function documentOf(query: string): DocumentNode {
  let document = documents.get(query);
  if (!document) {
    document = parse(query);
    const errors = validate(schema, document);
    if (errors.length > 0) throw new Error(errors.map((error) => error.message).join('; '));
    documents.set(query, document);
  }
  return document;
}

async function readJson(
  request: IncomingMessage,
): Promise<{ query: string; variables?: Record<string, unknown>; operationName?: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function send(response: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function handle(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname === '/health') return send(response, 200, { status: 'ok' });
  if (url.pathname === '/stats') return send(response, 200, { graphqlRequests });
  if (url.pathname === '/graphql' && request.method === 'POST') {
    graphqlRequests++;
    const body = await readJson(request);
    const contextValue: RequestContext = { viewer, db, loaders: new Map() };
    const result = await execute({
      schema,
      document: documentOf(body.query),
      variableValues: body.variables,
      operationName: body.operationName,
      contextValue,
    });
    return send(response, 200, result);
  }
  if (url.pathname === '/sql/companies')
    return send(response, 200, await companiesPageViaSql(db, companyPageQuery(url.searchParams)));
  if (url.pathname === '/prisma/companies')
    return send(response, 200, await companiesPageViaPrisma(db, companyPageQuery(url.searchParams)));
  return send(response, 404, errorBody(new ApiError('not_found', `No route ${request.method} ${url.pathname}.`)));
}

createServer((request, response) => {
  handle(request, response).catch((error: unknown) => {
    // The bench's terminal shows what failed; the body says only what any of our services would.
    process.stderr.write(`layer-server: ${String(error)}\n`);
    const unexpected = unexpectedError(error);
    send(response, unexpected.status, errorBody(unexpected));
  });
}).listen(Number(values.port), '127.0.0.1');

// A clean exit, so `--cpu-prof` writes its profile when the bench stops this process.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void db.close().finally(() => process.exit(0)));
