import type { Plan } from '../../subgraphs/platform/plans.ts';
import type { Execution } from '../execution/execution.ts';
import type { OpenApiDocument } from '../openapi/document.ts';
import { marketsRoutes } from '../rest/markets-routes.ts';
import { routeCall } from '../rest/register.ts';
import type { RouteCall } from '../rest/register.ts';
import type { RestRoute } from '../rest/route.ts';
import { verticalsRoutes } from '../rest/verticals-routes.ts';
import { TOOLS } from './tool-catalog.ts';
import type { RouteKey } from './tool-catalog.ts';
import { lowestPlan } from './tool-plans.ts';
import { routeShape } from './tool-schemas.ts';
import type { RouteShape } from './tool-schemas.ts';

/** A route as the tools run it: its REST call, its OpenAPI shape and the lowest plan that may run it. */
export interface ToolRoute {
  route: RestRoute;
  call: RouteCall;
  shape: RouteShape;
  plan: Plan;
}

/** The REST table routes by `METHOD /path`. */
export const TABLE_ROUTES: ReadonlyMap<RouteKey, RestRoute> = new Map(
  [...verticalsRoutes, ...marketsRoutes].map((route) => [`${route.method} ${route.path}` as RouteKey, route]),
);

/** Every route a tool runs, prepared once per server. */
export function toolRoutes(execution: Execution, document: OpenApiDocument): Map<RouteKey, ToolRoute> {
  const routes = new Map<RouteKey, ToolRoute>();
  for (const key of new Set(TOOLS.flatMap((tool) => tool.variants.map((variant) => variant.route)))) {
    const route = TABLE_ROUTES.get(key);
    if (!route) throw new Error(`tool route ${key} is no REST table route`);
    routes.set(key, {
      route,
      call: routeCall(route, execution),
      shape: routeShape(document, key),
      plan: lowestPlan(route, execution.schema),
    });
  }
  return routes;
}
