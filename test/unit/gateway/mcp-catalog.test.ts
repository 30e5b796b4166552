import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../gateway/openapi/document.ts';
import { ROUTES_WITHOUT_TOOL, TOOLS } from '../../../gateway/mcp/tool-catalog.ts';
import type { RouteKey } from '../../../gateway/mcp/tool-catalog.ts';
import { argumentFor, inputSchema, outputSchema, parameterFor, routeShape } from '../../../gateway/mcp/tool-schemas.ts';
import type { RouteShape } from '../../../gateway/mcp/tool-schemas.ts';

const document = openApiDocument();
const METHODS = ['get', 'post', 'patch', 'delete', 'put'];

/** `GET /api/watchlist/:ticker` for the document's `/api/watchlist/{ticker}` get. */
const documentedRoutes = Object.entries(document.paths).flatMap(([path, operations]) =>
  Object.keys(operations)
    .filter((method) => METHODS.includes(method))
    .map((method) => `${method.toUpperCase()} ${path.replace(/\{([A-Za-z_]+)\}/g, ':$1')}` as RouteKey),
);
const toolRoutes = new Set(TOOLS.flatMap((tool) => tool.variants.map((variant) => variant.route)));
const shapes = new Map<RouteKey, RouteShape>([...toolRoutes].map((route) => [route, routeShape(document, route)]));

/** The JSON types a schema admits, through `anyOf` and type lists. */
const typesOf = (schema: Record<string, unknown>): unknown[] =>
  ((schema.anyOf as Record<string, unknown>[] | undefined) ?? [schema]).flatMap((member) => [member.type].flat());

describe('the tools and the documented routes', () => {
  it('give every documented route a tool or a stated reason, and no route both', () => {
    expect(documentedRoutes.filter((route) => !toolRoutes.has(route) && !ROUTES_WITHOUT_TOOL[route])).toEqual([]);
    expect([...toolRoutes].filter((route) => ROUTES_WITHOUT_TOOL[route])).toEqual([]);
    // A reason for a route that is gone is a stale line.
    expect(Object.keys(ROUTES_WITHOUT_TOOL).filter((route) => !documentedRoutes.includes(route as RouteKey))).toEqual(
      [],
    );
  });

  it('take every parameter and body field of each route, of the route’s type, and nothing else', () => {
    for (const tool of TOOLS) {
      const schema = inputSchema(tool, shapes);
      const properties = schema.properties as Record<string, Record<string, unknown>>;
      const own = new Set<string>([
        'fields',
        'cursor',
        'max_tokens',
        'dry_run',
        ...(tool.selector ? [tool.selector.name] : []),
      ]);
      for (const variant of tool.variants) {
        const shape = shapes.get(variant.route)!;
        const routeParameters = [...shape.path, ...shape.query, ...(shape.body?.properties ?? [])];
        for (const [parameter, routeSchema] of routeParameters) {
          const argument = argumentFor(variant, parameter);
          expect(parameterFor(variant, argument)).toBe(parameter);
          own.add(argument);
          const toolSchema = properties[argument];
          expect(toolSchema, `${tool.name}.${argument} (${variant.route})`).toBeDefined();
          const types = typesOf(toolSchema!);
          for (const type of typesOf(routeSchema)) expect(types, `${tool.name}.${argument}`).toContain(type);
          for (const value of (routeSchema.enum as unknown[] | undefined) ?? []) {
            expect(toolSchema!.enum, `${tool.name}.${argument}`).toContain(value);
          }
        }
      }
      expect(Object.keys(properties).sort(), tool.name).toEqual([...own].sort());
    }
  });

  it('answer what their routes answer, and say when the answer was cut', () => {
    for (const tool of TOOLS.filter((candidate) => candidate.variants.length === 1)) {
      const route = shapes.get(tool.variants[0]!.route)!;
      const schema = outputSchema(tool, shapes, document);
      expect(Object.keys(schema.properties as object).sort()).toEqual(
        [...Object.keys(route.response.properties as object), 'dry_run', 'next_cursor', 'truncated'].sort(),
      );
      expect(JSON.stringify(schema)).not.toContain('#/components/');
    }
  });

  it('stay within what clients show a model: about fifteen tools', () => {
    expect(TOOLS.length + 1).toBeLessThanOrEqual(15);
    expect(new Set(TOOLS.map((tool) => tool.name)).size).toBe(TOOLS.length);
  });
});
