import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  getNamedType,
  isEnumType,
  typeFromAST,
} from 'graphql';
import type { GraphQLNamedType, GraphQLSchema, OperationDefinitionNode } from 'graphql';

/**
 * Turns a query-string value into the GraphQL variable it feeds, by the variable's type in the schema.
 * This is a type conversion only: ranges, formats and every business rule stay in the subgraph resolvers.
 * Returns an error sentence for a value of the wrong type.
 */
export type Coerce = (raw: string) => { value: unknown } | { error: string };

const INTEGER = /^-?\d{1,15}$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;

export function coercerFor(type: GraphQLNamedType): Coerce {
  if (type === GraphQLInt) {
    // GraphQL's Int is 32-bit; a larger number is as wrong as a word.
    return (raw) =>
      INTEGER.test(raw) && Math.abs(Number(raw)) <= 2_147_483_647
        ? { value: Number(raw) }
        : { error: 'must be an integer' };
  }
  if (type === GraphQLFloat) {
    // 400 digits parse to Infinity, which GraphQL's Float refuses with its own message and no details.
    return (raw) =>
      NUMBER.test(raw) && Number.isFinite(Number(raw)) ? { value: Number(raw) } : { error: 'must be a number' };
  }
  if (type === GraphQLBoolean) {
    return (raw) =>
      raw === 'true' || raw === 'false' ? { value: raw === 'true' } : { error: 'must be true or false' };
  }
  if (type === GraphQLString || type === GraphQLID) return (raw) => ({ value: raw });
  if (isEnumType(type)) {
    const values = type.getValues().map((value) => value.name);
    return (raw) => (values.includes(raw) ? { value: raw } : { error: `must be one of ${values.join(', ')}` });
  }
  // Custom scalars (Date, DateTime) parse and validate themselves in the subgraph.
  return (raw) => ({ value: raw });
}

/** The named type of each variable an operation declares. */
export function variableTypes(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
): Map<string, GraphQLNamedType> {
  const types = new Map<string, GraphQLNamedType>();
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type as Parameters<typeof typeFromAST>[1]);
    if (type) types.set(definition.variable.name.value, getNamedType(type));
  }
  return types;
}
