import { Kind } from 'graphql';
import type { GraphQLResolveInfo, SelectionSetNode } from 'graphql';

/**
 * The names of the fields selected directly under the resolving field, through fragments and inline fragments of
 * any type. A field under `@skip`/`@include` counts as selected: callers use this to read fewer columns, and
 * reading one too many is the safe side.
 */
export function selectedFieldNames(info: GraphQLResolveInfo): Set<string> {
  const names = new Set<string>();
  const collect = (selectionSet: SelectionSetNode | undefined) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) collect(selection.selectionSet);
      else collect(info.fragments[selection.name.value]?.selectionSet);
    }
  };
  for (const node of info.fieldNodes) collect(node.selectionSet);
  return names;
}
