import type { FastifyInstance } from 'fastify';
import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import { createServer } from '../../gateway/server.ts';
import type { ServerOptions } from '../../gateway/server.ts';
import type { Plan } from '../../subgraphs/platform/context.ts';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';
import { createTestDatabases } from './databases.ts';
import type { TestDatabases } from './databases.ts';

export interface HttpResult<Body = any> {
  status: number;
  headers: Headers;
  body: Body;
  text: string;
}

export interface TestService {
  url: string;
  app: FastifyInstance;
  databases: Record<Mode, Database>;
  store: TestDatabases;
  /** Every SQL statement sent (Prisma's and `sql.query`'s) since the last `queries.length = 0`. */
  queries: string[];
  createKey(options?: { plan?: Plan; mode?: Mode }): Promise<{ key: string; accountId: string }>;
  request<Body = any>(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<HttpResult<Body>>;
  get<Body = any>(path: string, key?: string): Promise<HttpResult<Body>>;
  /** POST /graphql; fails the test with the operation and the body when the response has errors. */
  graphql<Data = any>(query: string, variables?: Record<string, unknown>, key?: string): Promise<Data>;
  /** POST /graphql, returning the whole body (errors included) for tests about errors. */
  graphqlRaw(query: string, variables?: Record<string, unknown>, key?: string): Promise<HttpResult>;
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** Records per vertical generated into the sandbox database (0: leave it empty). */
  sandboxScale?: number;
  /** Records per vertical generated into the live database (0: leave it empty). */
  liveScale?: number;
  /** Server options beyond the databases (limits, sessions, subgraph URLs). */
  server?: Omit<ServerOptions, 'databases'>;
}

/**
 * The whole service on fresh databases of the engine under test, listening on a free port; cleans up after
 * itself if start-up throws.
 */
export async function startTestService(options: ServiceOptions = {}): Promise<TestService> {
  const queries: string[] = [];
  const store = await createTestDatabases({ ...options, onQuery: (sql) => queries.push(sql) });
  let app: FastifyInstance | undefined;
  try {
    // Report files go to the test's own folder, removed with it.
    app = await createServer({ dataDir: store.dataDir, ...options.server, databases: store.databases });
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await app?.close();
    await store.drop();
    throw error;
  }
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let defaultKey: string | undefined;
  let defaultKeyCalls = 0;
  // The implicit key of get()/graphql() is renewed (new account, new key) well before the sandbox trial's
  // 500 calls or a plan's per-minute limit, so long test files never meet limits they do not test.
  const implicitKey = async () => {
    if (!defaultKey || ++defaultKeyCalls > 200) {
      defaultKey = (await service.createKey()).key;
      defaultKeyCalls = 1;
    }
    return defaultKey;
  };

  const service: TestService = {
    url,
    app,
    get databases() {
      return store.databases;
    },
    store,
    queries,
    async createKey({ plan = 'institutional', mode = 'sandbox' } = {}) {
      const account = await createAccount(store.databases.live, plan);
      const { key } = await createApiKey(store.databases.live, account.id, mode);
      return { key, accountId: account.id };
    },
    async request(method, path, { key, body, headers = {} } = {}) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      if ((response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
      return { status: response.status, headers: response.headers, body: parsed as never, text };
    },
    async get(path, key) {
      key ??= await implicitKey();
      return service.request('GET', path, { key });
    },
    async graphqlRaw(query, variables = {}, key) {
      key ??= await implicitKey();
      return service.request('POST', '/graphql', { key, body: { query, variables } });
    },
    async graphql(query, variables = {}, key) {
      const result = await service.graphqlRaw(query, variables, key);
      if (result.status !== 200 || result.body.errors) {
        throw new Error(
          `GraphQL operation failed (${result.status}):\n${query}\n${JSON.stringify(variables)}\n${result.text}`,
        );
      }
      return result.body.data;
    },
    async stop() {
      await app?.close();
      await store.drop();
    },
  };
  return service;
}
