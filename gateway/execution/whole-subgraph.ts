import {
  GraphQLError,
  OperationTypeNode,
  TypeInfo,
  getVariableValues,
  validate,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import type { DocumentNode, ExecutionResult, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { SUBGRAPHS } from '../../subgraphs/index.ts';
import type { SubgraphName } from '../../subgraphs/index.ts';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { executeCompiled } from './compiled-execution.ts';
import type { InFlightFetches, SubgraphResponse } from './in-flight-fetches.ts';

/** A subgraph executed in the gateway's process. */
export interface InProcessSubgraph {
  name: SubgraphName;
  schema: GraphQLSchema;
}

/** Every subgraph, in process: the one list the gateway's execution and the tests use. */
export const IN_PROCESS_SUBGRAPHS: readonly InProcessSubgraph[] = (Object.keys(SUBGRAPHS) as SubgraphName[]).map(
  (name) => ({ name, schema: SUBGRAPHS[name] }),
);

/**
 * The in-process subgraph that answers `document` whole, if one does: the document is valid against its schema,
 * selects none of its `@external`, `@requires` or `@provides` fields (values another subgraph supplies) and does
 * not introspect (`__schema`, `__type`: the answer is the API schema's, not a subgraph's). Such a document is what
 * the query planner would send that subgraph unchanged, so executing it there directly gives the planned answer
 * without planning it or shaping the result again.
 */
export function wholeSubgraphOf(
  subgraphs: readonly InProcessSubgraph[],
  document: DocumentNode,
): InProcessSubgraph | undefined {
  return subgraphs.find(
    ({ schema }) => validate(schema, document).length === 0 && !needsAnotherSchema(schema, document),
  );
}

/**
 * `wholeSubgraphOf`, remembered per document object: callers keep their parsed documents (Apollo Server's document
 * store, `parsedDocument`), so a recurring operation is decided once. `admits` is a further condition on the
 * document (`execute`'s validation against the API schema), remembered with it.
 */
export function rememberedWholeSubgraph(
  subgraphs: readonly InProcessSubgraph[],
  admits: (document: DocumentNode) => boolean = () => true,
): (document: DocumentNode) => InProcessSubgraph | undefined {
  const answering = new WeakMap<DocumentNode, InProcessSubgraph | null>();
  return (document) => {
    let subgraph = answering.get(document);
    if (subgraph === undefined) {
      subgraph = (admits(document) && wholeSubgraphOf(subgraphs, document)) || null;
      answering.set(document, subgraph);
    }
    return subgraph ?? undefined;
  };
}

const FEDERATED_FIELD_DIRECTIVES = new Set(['external', 'requires', 'provides']);
const INTROSPECTION_FIELDS = new Set(['__schema', '__type']);

/** Whether the operation introspects, or selects a field whose value, in this subgraph, comes from another one. */
function needsAnotherSchema(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let needed = false;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(field) {
        const directives = typeInfo.getFieldDef()?.astNode?.directives ?? [];
        if (
          INTROSPECTION_FIELDS.has(field.name.value) ||
          directives.some((directive) => FEDERATED_FIELD_DIRECTIVES.has(directive.name.value))
        )
          needed = true;
      },
    }),
  );
  return needed;
}

/**
 * The subgraph that answers this operation whole, with these variables, if one does: a query (mutations keep the
 * gateway's order and in-flight rules) whose document one subgraph answers whole, with variables that subgraph
 * takes (when it would not, the planned path answers with the gateway's own error).
 */
export function wholeSubgraphFor(
  subgraphOf: (document: DocumentNode) => InProcessSubgraph | undefined,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): InProcessSubgraph | undefined {
  if (operation.operation !== OperationTypeNode.QUERY) return undefined;
  const subgraph = subgraphOf(document);
  if (!subgraph || getVariableValues(subgraph.schema, operation.variableDefinitions ?? [], variables).errors)
    return undefined;
  return subgraph;
}

/** An operation for a subgraph that answers it whole, with the variables it takes (wholeSubgraphFor). */
export interface WholeOperation {
  document: DocumentNode;
  text: string;
  operationName?: string;
  variables: Record<string, unknown>;
}

/**
 * Executes a document the subgraph answers whole, sharing an identical execution in flight as planned fetches do
 * (in-flight-fetches.ts), compiled once it recurs (compiled-execution.ts). In process errors are GraphQLError objects.
 */
export async function executeWhole(
  subgraph: InProcessSubgraph,
  inFlight: InFlightFetches,
  operation: WholeOperation,
  context: RequestContext,
): Promise<ExecutionResult> {
  const { document, text, operationName, variables } = operation;
  const result = (await inFlight.fetch(
    subgraph.name,
    { kind: 'incoming operation', request: { query: text, variables, operationName }, context } as never,
    async () =>
      (await executeCompiled({
        schema: subgraph.schema,
        document,
        variableValues: variables,
        operationName,
        contextValue: context,
      })) as SubgraphResponse,
    document,
  )) as ExecutionResult;
  if (!result.errors?.length) return result;
  // As the gateway passes a subgraph's errors on: message, path and extensions, without the subgraph's locations.
  const errors = result.errors.map(
    (error) =>
      new GraphQLError(error.message, { path: error.path, extensions: error.extensions, originalError: error }),
  );
  return { ...result, errors };
}
