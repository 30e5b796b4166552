import { GraphQLIncludeDirective, GraphQLSkipDirective, Kind, getDirectiveValues } from 'graphql';
import type { FieldNode, FragmentDefinitionNode, GraphQLResolveInfo, SelectionNode, SelectionSetNode } from 'graphql';

/**
 * The field nodes selected directly under `fieldNodes`, by name (aliases of one field together), through fragments
 * and inline fragments of any type. Fields under `@skip`/`@include` count as selected: callers use this to read
 * fewer columns, and reading one too many is the safe side.
 */
export function selectedFieldNodes(
  fieldNodes: readonly FieldNode[],
  fragments: Record<string, FragmentDefinitionNode>,
): Map<string, FieldNode[]> {
  const byName = new Map<string, FieldNode[]>();
  const collect = (selectionSet: SelectionSetNode | undefined) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        const nodes = byName.get(selection.name.value);
        if (nodes) nodes.push(selection);
        else byName.set(selection.name.value, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet);
      else collect(fragments[selection.name.value]?.selectionSet);
    }
  };
  for (const node of fieldNodes) collect(node.selectionSet);
  return byName;
}

/** The names of the fields selected directly under the resolving field (selectedFieldNodes). */
export function selectedFieldNames(info: GraphQLResolveInfo): Set<string> {
  return new Set(selectedFieldNodes(info.fieldNodes, info.fragments).keys());
}

/** Whether a field or fragment is executed under its `@skip` / `@include`, with the request's variables. */
function included(node: SelectionNode, info: GraphQLResolveInfo): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, info.variableValues)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, info.variableValues)?.if !== false;
}

/**
 * Whether the field at `path` below the resolving field (`['leads', 'purchases']`) will be executed: through
 * fragments, and honouring `@skip`/`@include`, so a resolver can leave out what an operation asks for only on
 * request (`purchases @include(if: $evidence)`).
 */
export function executesPath(info: GraphQLResolveInfo, path: readonly string[]): boolean {
  const within = (selectionSet: SelectionSetNode | undefined, rest: readonly string[]): boolean =>
    (selectionSet?.selections ?? []).some((selection) => {
      if (!included(selection, info)) return false;
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== rest[0]) return false;
        return rest.length === 1 || within(selection.selectionSet, rest.slice(1));
      }
      if (selection.kind === Kind.INLINE_FRAGMENT) return within(selection.selectionSet, rest);
      return within(info.fragments[selection.name.value]?.selectionSet, rest);
    });
  return info.fieldNodes.some((node) => within(node.selectionSet, path));
}
