import { parse } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { QUERY_LIMITS } from './policy.ts';
import { measureOperation } from './query-cost.ts';
import type { OperationShape } from './query-cost.ts';

/** Shapes kept per operation (one per distinct set of variables), and documents kept by their text. */
const MAX_SHAPES_PER_OPERATION = 256;
const MAX_DOCUMENTS = 1_000;
/** Longer texts are parsed every time: a kept document's tree is many times its text (persisted queries keep 10 KiB too). */
const MAX_KEPT_TEXT = 10_240;

const shapes = new WeakMap<GraphQLSchema, WeakMap<OperationDefinitionNode, Map<string, OperationShape>>>();

/**
 * `measureOperation`, remembered per schema, operation node and variables: a shape is a pure function of the
 * three, and the same document object comes back for the same text (Apollo Server's document cache, the REST
 * tables' parsed operations, `parsedDocument` below), so a repeated request is measured once. Profiles of the
 * bench showed measuring at about 3 % of the gateway's CPU, twice per /graphql request. Callers only read a shape.
 */
export function measuredOperation(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown> = {},
): OperationShape {
  let bySchema = shapes.get(schema);
  if (!bySchema) shapes.set(schema, (bySchema = new WeakMap()));
  let byVariables = bySchema.get(operation);
  if (!byVariables) bySchema.set(operation, (byVariables = new Map()));
  const key = JSON.stringify(variables);
  let shape = byVariables.get(key);
  if (!shape) {
    shape = measureOperation(schema, operation, fragments, variables);
    if (byVariables.size >= MAX_SHAPES_PER_OPERATION) byVariables.clear();
    byVariables.set(key, shape);
  }
  return shape;
}

const documents = new Map<string, DocumentNode>();

/**
 * A /graphql document parsed as the bounds check parses it (token limit, no locations), kept by its text so a
 * repeated query is parsed once here; throws as `parse` does (nothing is kept then). Callers only read it.
 */
export function parsedDocument(query: string): DocumentNode {
  let document = documents.get(query);
  if (!document) {
    document = parse(query, { maxTokens: QUERY_LIMITS.maxTokens, noLocation: true });
    if (query.length > MAX_KEPT_TEXT) return document;
    if (documents.size >= MAX_DOCUMENTS) documents.delete(documents.keys().next().value!);
    documents.set(query, document);
  }
  return document;
}
