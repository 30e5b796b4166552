import { Kind, parse } from 'graphql';
import type { OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import { errorBodyOf } from '../../subgraphs/platform/error-body.ts';
import type { Execution } from '../execution/execution.ts';
import type { JsonSchema } from '../openapi/json-schema.ts';
import { fitToBudget } from './answer-budget.ts';
import { RouteRefusal } from './route-tool.ts';
import type { CallOptions } from './tool-arguments.ts';
import { COMMON_ARGUMENTS } from './tool-schemas.ts';

export const GRAPHQL_TOOL = {
  name: 'graphql',
  title: 'GraphQL query',
  description:
    'A read-only GraphQL query against the whole API (the `graphql_schema` resource has its SDL), for what the ' +
    'other tools do not cover: several areas in one answer, or fields they leave out. Queries only; the same ' +
    'depth, breadth and cost bounds, plan rules and credits as over HTTP.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1, maxLength: 20_000, description: 'One GraphQL query document.' },
      variables: { type: 'object', description: 'The query’s variables.' },
      operation_name: { type: 'string', description: 'Which operation to run, when the document has several.' },
      max_tokens: COMMON_ARGUMENTS.max_tokens!,
      dry_run: COMMON_ARGUMENTS.dry_run!,
    },
    required: ['query'],
    additionalProperties: false,
  } as JsonSchema,
  outputSchema: {
    type: 'object',
    properties: {
      data: { type: ['object', 'null'], description: 'The query’s data, as over /graphql.' },
      errors: { type: 'array', items: { type: 'object' }, description: 'Errors of fields that failed beside data.' },
      truncated: { type: 'object' },
    },
  } as JsonSchema,
};

/** Refuses what is not one readable query document (a 400 naming `query`, as /graphql would say it). */
export function assertReadOnlyQuery({ query, variables, operation_name: operationName }: Record<string, unknown>) {
  if (typeof query !== 'string' || query.length === 0) throw new BadRequestError({ query: 'is required' });
  if (variables !== undefined && (typeof variables !== 'object' || variables === null || Array.isArray(variables))) {
    throw new BadRequestError({ variables: 'must be a JSON object' });
  }
  if (operationName !== undefined && typeof operationName !== 'string') {
    throw new BadRequestError({ operation_name: 'must be a string' });
  }
  let operations: OperationDefinitionNode[];
  try {
    operations = parse(query, { maxTokens: 20_000 }).definitions.filter(
      (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
    );
  } catch {
    // The execution reports the syntax error in GraphQL's words.
    return;
  }
  if (operations.some((operation) => operation.operation !== 'query')) {
    throw new BadRequestError({ query: 'runs queries only: this tool changes nothing (the other tools do)' });
  }
}

/** Runs a query (checked by `assertReadOnlyQuery`) through the execution seam; with no data at all, its first error is the tool's refusal. */
export async function runGraphQL(
  execution: Execution,
  args: Record<string, unknown>,
  options: CallOptions,
  context: RequestContext,
) {
  const { query, variables, operation_name: operationName } = args;
  const { result, headers } = await execution.execute(
    {
      query: query as string,
      variables: variables as Record<string, unknown> | undefined,
      operationName: operationName as string | undefined,
    },
    context,
  );
  const [first] = result.errors ?? [];
  if (first && (result.data === undefined || result.data === null)) {
    throw new RouteRefusal(errorBodyOf(first).body, new Map(headers));
  }
  const answer = { data: result.data ?? null, ...(result.errors ? { errors: result.errors } : {}) };
  const fitted = fitToBudget(answer, options.budgetTokens, undefined);
  return { ...fitted.answer, ...(fitted.truncated ? { truncated: fitted.truncated } : {}) };
}
