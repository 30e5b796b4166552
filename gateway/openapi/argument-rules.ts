import { Kind, TypeInfo, getNamedType, isInputObjectType, isObjectType, visit, visitWithTypeInfo } from 'graphql';
import type { GraphQLArgument, GraphQLInputField, GraphQLSchema, OperationDefinitionNode, ValueNode } from 'graphql';
import { z } from 'zod';
import { ARGUMENT_RULE } from '../../subgraphs/platform/arguments.ts';
import { SUBGRAPHS } from '../../subgraphs/index.ts';
import type { JsonSchema } from './json-schema.ts';

/** Where a variable lands: an argument of a field, or a field of an input object. */
type Place =
  { kind: 'argument'; type: string; field: string; argument: string } | { kind: 'input'; type: string; field: string };

/** For each variable of an operation, the argument or input field it feeds (the first, if several). */
function placesOf(schema: GraphQLSchema, operation: OperationDefinitionNode): Map<string, Place> {
  const places = new Map<string, Place>();
  const typeInfo = new TypeInfo(schema);
  const note = (value: ValueNode, place: Place) => {
    if (value.kind === Kind.VARIABLE && !places.has(value.name.value)) places.set(value.name.value, place);
  };
  visit(
    operation,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const parent = typeInfo.getParentType();
        const field = typeInfo.getFieldDef();
        if (parent && field) {
          note(node.value, { kind: 'argument', type: parent.name, field: field.name, argument: node.name.value });
        }
      },
      ObjectField(node) {
        const input = typeInfo.getParentInputType();
        const named = input && getNamedType(input);
        if (named && isInputObjectType(named))
          note(node.value, { kind: 'input', type: named.name, field: node.name.value });
      },
    }),
  );
  return places;
}

/** The argument or input field at a place, in the subgraph that defines it (its extensions hold the zod rule). */
function definitionAt(place: Place): GraphQLArgument | GraphQLInputField | undefined {
  for (const subgraph of Object.values(SUBGRAPHS)) {
    const type = subgraph.getType(place.type);
    if (place.kind === 'argument' && type && isObjectType(type)) {
      const argument = type.getFields()[place.field]?.args.find((candidate) => candidate.name === place.argument);
      if (argument) return argument;
    }
    if (place.kind === 'input' && type && isInputObjectType(type)) {
      const field = type.getFields()[place.field];
      if (field) return field;
    }
  }
  return undefined;
}

/** The rule's schema, with the description and default the schema declares (subgraphs/platform/arguments.ts puts the rule there). */
function definitionSchema(definition: GraphQLArgument | GraphQLInputField | undefined): JsonSchema | undefined {
  const rule = definition?.extensions[ARGUMENT_RULE] as z.ZodType | undefined;
  if (!rule && definition?.defaultValue === undefined && !definition?.description) return undefined;
  return {
    ...(definition?.description ? { description: definition.description } : {}),
    ...(rule ? ruleSchema(rule) : {}),
    ...(definition?.defaultValue !== undefined ? { default: definition.defaultValue } : {}),
  };
}

/** The rule of each field of an input type (a JSON body's fields collected into one `input` variable). */
export function inputFieldRules(typeName: string): Map<string, JsonSchema> {
  const rules = new Map<string, JsonSchema>();
  for (const subgraph of Object.values(SUBGRAPHS)) {
    const type = subgraph.getType(typeName);
    if (!type || !isInputObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const schema = definitionSchema(field);
      if (schema) rules.set(field.name, schema);
    }
  }
  return rules;
}

/** What JSON Schema can say of a zod rule as a client sends it: ranges, lengths, patterns, formats, defaults. */
export function ruleSchema(rule: z.ZodType): JsonSchema {
  const { $schema: _, ...schema } = z.toJSONSchema(rule, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return schema;
}

/**
 * The JSON Schema of each variable's rule, where the subgraph that owns its argument declared one. The type
 * and enum come from GraphQL (openapi/table-route.ts); this adds what only the rule knows.
 */
export function variableRules(schema: GraphQLSchema, operation: OperationDefinitionNode): Map<string, JsonSchema> {
  const rules = new Map<string, JsonSchema>();
  for (const [variable, place] of placesOf(schema, operation)) {
    const schema = definitionSchema(definitionAt(place));
    if (schema) rules.set(variable, schema);
  }
  return rules;
}
