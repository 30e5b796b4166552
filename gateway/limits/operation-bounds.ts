import { Kind } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, OperationDefinitionNode } from 'graphql';
import { BadRequestError } from '../../subgraphs/platform/errors.ts';
import { QUERY_LIMITS } from './policy.ts';
import type { OperationShape } from './query-cost.ts';

/**
 * The document's fragments by name, for measuring an operation. A Map: the names are the caller's, and a spread of
 * `...constructor` must find no fragment rather than Object.prototype's member.
 */
export function fragmentsOf(document: DocumentNode): ReadonlyMap<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return fragments;
}

/**
 * The operation a request runs: the one named by `operationName`, or the document's only one. Anything else is the
 * client's mistake (400), which graphql-js would otherwise leave to execution and the gateway to a 500.
 */
export function resolveOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  // An empty name names no operation, as in graphql-js; taken for no name, it reached the gateway, which answered 500.
  if (operationName != null) {
    const named = operations.find((operation) => operation.name?.value === operationName);
    if (named) return named;
    throw new BadRequestError(
      { operationName: `names no operation of the document` },
      `The document has no operation named "${operationName}".`,
    );
  }
  if (operations.length === 1) return operations[0]!;
  throw operations.length === 0
    ? new BadRequestError({ query: 'contains no operation' }, 'The document contains no operation to run.')
    : new BadRequestError(
        { operationName: `is required: the document contains ${operations.length} operations` },
        'The document contains several operations; operationName must name the one to run.',
      );
}

/** Refuses (400 invalid_parameter, `details.query`) an operation past any limit of QUERY_LIMITS, the first one found. */
export function assertWithinBounds(shape: OperationShape): void {
  const refuse = (detail: string, message: string) => {
    throw new BadRequestError({ query: detail }, message);
  };
  const { maxDepth, maxIntrospectionDepth, maxRootFields, maxAliasesPerField, maxMutations, maxCost } = QUERY_LIMITS;
  if (shape.depth > maxDepth) {
    refuse(
      `is nested ${shape.depth} levels deep; the maximum is ${maxDepth}`,
      `The query is too deep (${shape.depth} levels; at most ${maxDepth}).`,
    );
  }
  if (shape.introspectionDepth > maxIntrospectionDepth) {
    refuse(
      `nests introspection ${shape.introspectionDepth} levels deep; the maximum is ${maxIntrospectionDepth}`,
      `The introspection query is too deep (${shape.introspectionDepth} levels; at most ${maxIntrospectionDepth}).`,
    );
  }
  if (shape.rootFields > maxRootFields) {
    refuse(
      `selects ${shape.rootFields} top-level fields; the maximum is ${maxRootFields}`,
      `The operation selects too many top-level fields (${shape.rootFields}, fragments expanded; at most ${maxRootFields}).`,
    );
  }
  if (shape.mostRepeated.count > maxAliasesPerField) {
    const { name, count } = shape.mostRepeated;
    refuse(
      `selects ${name} ${count} times in one selection set; the maximum is ${maxAliasesPerField}`,
      `The query selects ${name} ${count} times in one selection set (aliases and fragments included; at most ${maxAliasesPerField}).`,
    );
  }
  if (shape.mutations > maxMutations) {
    refuse(
      `runs ${shape.mutations} mutations; the maximum is ${maxMutations}`,
      `The operation runs too many mutations (${shape.mutations}; at most ${maxMutations} in one request).`,
    );
  }
  if (shape.cost > maxCost) {
    refuse(
      `has an estimated cost of ${shape.cost}; the maximum is ${maxCost}`,
      `The query is too costly (estimated ${shape.cost}; at most ${maxCost}). Ask for smaller pages or fewer fields.`,
    );
  }
}
