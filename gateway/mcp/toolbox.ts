import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext, Viewer } from '../../subgraphs/platform/context.ts';
import { ApiError, ForbiddenError } from '../../subgraphs/platform/errors.ts';
import type { ErrorBody } from '../../subgraphs/platform/errors.ts';
import { errorBody, unexpectedError } from '../../subgraphs/platform/error-body.ts';
import { logger } from '../../subgraphs/platform/logger.ts';
import { planReaches } from '../../subgraphs/platform/plans.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import type { Execution } from '../execution/execution.ts';
import { admitCall, peekCall } from '../limits/limits.ts';
import type { Admission, Limits } from '../limits/limits.ts';
import { RateLimitedError } from '../limits/rate-limit.ts';
import type { UsageMeter } from '../limits/usage-meter.ts';
import type { OpenApiDocument } from '../openapi/document.ts';
import type { JsonSchema } from '../openapi/json-schema.ts';
import { GRAPHQL_TOOL, assertReadOnlyQuery, runGraphQL } from './graphql-tool.ts';
import { RouteRefusal, renameDetails, routeInput, runRoute, shapeAnswer } from './route-tool.ts';
import { chooseVariant, readArguments } from './tool-arguments.ts';
import { TOOLS } from './tool-catalog.ts';
import type { ToolDefinition, ToolVariant } from './tool-catalog.ts';
import { labelOf, planNote } from './tool-plans.ts';
import { toolRoutes } from './tool-routes.ts';
import type { ToolRoute } from './tool-routes.ts';
import type { RouteInput } from '../rest/register.ts';
import { inputSchema, outputSchema } from './tool-schemas.ts';

/** Who calls a tool: the authenticated viewer, the execution context built for them, the HTTP request's id. */
export interface ToolCaller {
  viewer: Viewer;
  context: RequestContext;
  requestId: string;
}

export interface ToolboxDependencies {
  execution: Execution;
  limits: Limits;
  meter: UsageMeter;
  /** The OpenAPI document the service publishes: the tools' schemas are read from it. */
  document: OpenApiDocument;
}

export interface Toolbox {
  /** The tools as `tools/list` answers them. */
  readonly tools: Tool[];
  /** One tool call: always a result (errors included, `isError`), or undefined for a tool that does not exist. */
  call(
    name: string,
    args: Record<string, unknown> | undefined,
    caller: ToolCaller,
  ): Promise<CallToolResult | undefined>;
}

/** A variant above the caller's plan: the REST code and message, and which plan would do. */
class UpgradeRequired extends ForbiddenError {
  constructor(
    readonly plan: Plan,
    readonly currentPlan: Plan,
    what: string,
  ) {
    super('plan_required', `${what} requires the ${plan} plan or higher; your plan is ${currentPlan}.`);
  }
}

/** Costs in the open: the request id, what this call spent, the usage and the rate-limit state after it. */
function costMeta(requestId: string, admission: Admission | undefined, spent: number) {
  const usage = admission?.usage;
  const rateLimit = admission?.rateLimit;
  return {
    request_id: requestId,
    cost: { calls: spent },
    ...(usage
      ? {
          usage: {
            mode: usage.mode,
            calls: usage.calls,
            allowance: usage.allowance,
            remaining: usage.remaining,
            overage_calls: usage.overageCalls,
            period_end: usage.period.end,
          },
        }
      : {}),
    ...(rateLimit
      ? { rate_limit: { limit: rateLimit.limit, remaining: rateLimit.remaining, reset: rateLimit.reset } }
      : {}),
  };
}

/** A refusal or failure as the tool's error body: REST's code, message and details, and what to do next. */
function errorOf(error: unknown, variant: ToolVariant | undefined): ErrorBody & { [extra: string]: unknown } {
  if (error instanceof RouteRefusal) {
    const retryAfter = error.headers.get('retry-after');
    const body = variant ? renameDetails(error.body, variant) : error.body;
    return { ...body, ...(retryAfter ? { retry_after: Number(retryAfter) } : {}) };
  }
  if (error instanceof ApiError) {
    const body = variant ? renameDetails(errorBody(error), variant) : errorBody(error);
    if (error instanceof RateLimitedError) return { ...body, retry_after: error.state.retryAfter };
    if (error instanceof UpgradeRequired) {
      return { ...body, upgrade_required: { plan: error.plan, current_plan: error.currentPlan, url: '/billing' } };
    }
    return { ...body };
  }
  logger.error({ err: error }, 'MCP tool call failed');
  return { ...errorBody(unexpectedError(error)) };
}

const textResult = (value: unknown) => [{ type: 'text' as const, text: JSON.stringify(value) }];

/**
 * The MCP tools over the execution seam. A call is one metered call, admitted like a REST request (the plan's
 * rate limit, then a credit), then run as its route: the same parameters, errors, plan rules and answers. A dry
 * run checks the arguments and the plan and counts nothing.
 */
export function createToolbox(deps: ToolboxDependencies): Toolbox {
  const routes = toolRoutes(deps.execution, deps.document);
  const shapes = new Map([...routes].map(([key, route]) => [key, route.shape]));
  const definitions = new Map<string, ToolDefinition>(TOOLS.map((tool) => [tool.name, tool]));
  const schemas = new Map<string, { inputSchema: JsonSchema; outputSchema: JsonSchema }>(
    TOOLS.map((tool) => [
      tool.name,
      { inputSchema: inputSchema(tool, shapes), outputSchema: outputSchema(tool, shapes, deps.document) },
    ]),
  );
  schemas.set(GRAPHQL_TOOL.name, GRAPHQL_TOOL);

  const tools: Tool[] = [
    ...TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: `${tool.description}${planNote(tool, (route) => routes.get(route)!.plan)}`,
      inputSchema: schemas.get(tool.name)!.inputSchema as Tool['inputSchema'],
      outputSchema: schemas.get(tool.name)!.outputSchema as Tool['outputSchema'],
      annotations: { readOnlyHint: !tool.writes, destructiveHint: Boolean(tool.writes), openWorldHint: false },
    })),
    {
      name: GRAPHQL_TOOL.name,
      title: GRAPHQL_TOOL.title,
      description: GRAPHQL_TOOL.description,
      inputSchema: GRAPHQL_TOOL.inputSchema as Tool['inputSchema'],
      outputSchema: GRAPHQL_TOOL.outputSchema as Tool['outputSchema'],
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ];

  async function call(name: string, given: Record<string, unknown> | undefined, caller: ToolCaller) {
    const schema = schemas.get(name);
    if (!schema) return undefined;
    const tool = definitions.get(name);
    let admission: Admission | undefined;
    let spent = 0;
    let variant: ToolVariant | undefined;
    try {
      // A real call is admitted first, as a REST request is, so a refused call costs what it costs over REST; a
      // dry run counts nothing.
      const dryRun = given?.dry_run === true;
      if (!dryRun) {
        admission = await admitCall(deps.limits, deps.meter, caller.viewer);
        spent = 1;
      }
      const { options, arguments: args } = readArguments({ name, inputSchema: schema.inputSchema }, given);
      let route: ToolRoute | undefined;
      let input: RouteInput | undefined;
      if (tool) {
        variant = chooseVariant(tool, args);
        route = routes.get(variant.route)!;
        if (!planReaches(caller.viewer.plan, route.plan)) {
          const what = tool.selector ? `The ${name} tool's ${labelOf(tool, variant)}` : `The ${name} tool`;
          throw new UpgradeRequired(route.plan, caller.viewer.plan, what);
        }
        input = routeInput(tool, variant, route, args);
      } else assertReadOnlyQuery(args);
      if (dryRun) {
        admission = await peekCall(deps.limits, deps.meter, caller.viewer);
        const dry = { tool: name, ...(variant ? { route: variant.route } : {}), would_cost: { calls: 1 } };
        return success({ dry_run: dry }, costMeta(caller.requestId, admission, 0));
      }
      const answer =
        tool && route && input
          ? shapeAnswer(tool, await runRoute(route, input, caller.context), args, options, route.route.method !== 'GET')
          : await runGraphQL(deps.execution, args, options, caller.context);
      return success(answer, costMeta(caller.requestId, admission, spent));
    } catch (error) {
      const body = errorOf(error, variant);
      return {
        isError: true,
        content: textResult(body),
        _meta: { ...costMeta(caller.requestId, admission, spent), error: body },
      };
    }
  }

  return { tools, call };
}

function success(answer: Record<string, unknown>, meta: Record<string, unknown>): CallToolResult {
  return { content: textResult(answer), structuredContent: answer, _meta: meta };
}
