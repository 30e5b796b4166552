import { isEnumType, isInputObjectType, isInterfaceType, isIntrospectionType, isObjectType } from 'graphql';
import { isSpecifiedScalarType } from 'graphql';
import type { GraphQLNamedType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { apiSchema } from '../../../gateway/supergraph.ts';

/** Each element of a type that introspection shows a description for, named as a client would look it up. */
function elements(type: GraphQLNamedType): { name: string; description: string | null | undefined }[] {
  const own = [{ name: type.name, description: type.description }];
  if (isObjectType(type) || isInterfaceType(type)) {
    return own.concat(
      Object.values(type.getFields()).flatMap((field) => [
        { name: `${type.name}.${field.name}`, description: field.description },
        ...field.args.map((arg) => ({ name: `${type.name}.${field.name}(${arg.name})`, description: arg.description })),
      ]),
    );
  }
  if (isInputObjectType(type)) {
    return own.concat(
      Object.values(type.getFields()).map((field) => ({ ...field, name: `${type.name}.${field.name}` })),
    );
  }
  if (isEnumType(type))
    return own.concat(type.getValues().map((value) => ({ ...value, name: `${type.name}.${value.name}` })));
  return own;
}

/**
 * Covers the API schema clients introspect through the gateway: the checked-in supergraph (schema.test.ts holds it
 * equal to the composition) without federation's `join__`/`link__` machinery, which the API schema drops, and
 * without graphql's own introspection types and built-in scalars. `_service` and `_entities` live only in the
 * subgraphs' schemas, so they are not here either.
 */
describe('the API schema', () => {
  it('describes every type, field, argument, input field and enum value', () => {
    const undescribed = Object.values(apiSchema().getTypeMap())
      .filter((type) => !isIntrospectionType(type) && !isSpecifiedScalarType(type))
      .flatMap(elements)
      .filter((element) => !element.description?.trim())
      .map((element) => element.name);
    // Joined, so the failure lists every element rather than the first few.
    expect(undescribed.join('\n')).toBe('');
  });
});
