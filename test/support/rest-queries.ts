import { OperationTypeNode, parse } from 'graphql';
import type { OperationDefinitionNode } from 'graphql';
import { marketsRoutes } from '../../gateway/rest/markets-routes.ts';
import { verticalsRoutes } from '../../gateway/rest/verticals-routes.ts';
import type { Database } from '../../subgraphs/platform/database.ts';

/** The REST routes whose operation is a query: the operations the execution-path tests compare. */
export const REST_QUERY_ROUTES = [...verticalsRoutes, ...marketsRoutes].filter(
  (route) => (parse(route.operation).definitions[0] as OperationDefinitionNode).operation === OperationTypeNode.QUERY,
);

/**
 * A value for each required variable of a route: an existing record's id (the first of its list, which
 * `listData` answers with an operation's `data`), a stored ticker, a day.
 */
export async function requiredVariables(
  path: string,
  db: Database,
  listData: (operation: string) => Promise<Record<string, unknown> | null | undefined>,
): Promise<Record<string, unknown>> {
  if (path.endsWith('/:id')) {
    const list = REST_QUERY_ROUTES.find((route) => route.path === path.slice(0, -'/:id'.length));
    const listed = list ? await listData(list.operation) : {};
    const nodes = (Object.values(listed ?? {})[0] as { nodes?: { id: string }[] } | undefined)?.nodes ?? [];
    return { id: nodes[0]?.id ?? 'unknown_1' };
  }
  if (path.includes(':ticker')) return { ticker: (await db.prisma.signal.findFirstOrThrow()).ticker };
  if (path.includes(':date')) return { date: '2026-01-05' };
  return {};
}
