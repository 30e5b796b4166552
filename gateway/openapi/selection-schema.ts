import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  Kind,
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import type {
  FieldNode,
  GraphQLField,
  GraphQLNamedType,
  GraphQLObjectType,
  GraphQLOutputType,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';
import type { JsonSchema } from './json-schema.ts';
import { nullable } from './json-schema.ts';

/** A scalar or enum as JSON Schema: the wire form of the API's own scalars (subgraphs/platform/builder.ts). */
export function namedTypeSchema(type: GraphQLNamedType): JsonSchema {
  if (type === GraphQLString || type === GraphQLID) return { type: 'string' };
  if (type === GraphQLInt) return { type: 'integer' };
  if (type === GraphQLFloat) return { type: 'number' };
  if (type === GraphQLBoolean) return { type: 'boolean' };
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((value) => value.value as string) };
  if (type.name === 'Date') return { type: 'string', format: 'date' };
  if (type.name === 'DateTime') return { type: 'string', format: 'date-time' };
  // JSON: any value.
  return {};
}

/**
 * Object types become named components (`Signal`, `CongressionalTrade`), so the typed client has names; the same
 * type selected differently gets a numbered name (`Signal2`).
 */
export class ComponentRegistry {
  readonly schemas: Record<string, JsonSchema> = {};
  /** `Signal2` → `Signal`: the names numbered here, by the type's name. */
  readonly numbered = new Map<string, string>();
  private readonly nameOf = new Map<string, string>();

  ref(typeName: string, schema: JsonSchema): JsonSchema {
    const key = `${typeName}:${JSON.stringify(schema)}`;
    let name = this.nameOf.get(key);
    if (!name) {
      name = typeName;
      for (let n = 2; Object.hasOwn(this.schemas, name); n++) name = `${typeName}${n}`;
      if (name !== typeName) this.numbered.set(name, typeName);
      this.schemas[name] = schema;
      this.nameOf.set(key, name);
    }
    return { $ref: `#/components/schemas/${name}` };
  }
}

export interface SelectionSchemaOptions {
  /** A field the caller's plan may leave out: it is then `null` (rest/plan-variants.ts). */
  mayBeOmitted?: (parent: GraphQLObjectType, field: string) => boolean;
}

/**
 * The JSON Schema of an operation's `data`, walked from its selection set against the API schema: keys are the
 * aliases (the REST shapes' snake_case names), every selected field is required (unless under `@include` or
 * `@skip`), nothing else is allowed, so a response that grows or loses a field fails its schema. The route
 * tables use inline selections only.
 */
export function selectionSchema(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  components: ComponentRegistry,
  options: SelectionSchemaOptions = {},
): JsonSchema {
  const root = schema.getRootType(operation.operation);
  if (!root) throw new Error(`the schema has no ${operation.operation} type`);

  const objectSchema = (type: GraphQLObjectType, selectionSet: SelectionSetNode): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    // A field under @include or @skip is in the answer only when its variable says so.
    const conditional = new Set<string>();
    for (const selection of selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) throw new Error('route operations select fields inline, without fragments');
      if (selection.name.value === '__typename') continue;
      const field = type.getFields()[selection.name.value];
      if (!field) throw new Error(`${type.name} has no field ${selection.name.value}`);
      const key = selection.alias?.value ?? selection.name.value;
      let fieldSchema = outputSchema(field.type, selection);
      if (options.mayBeOmitted?.(type, field.name)) fieldSchema = nullable(fieldSchema);
      properties[key] = withDescription(fieldSchema, field);
      if (selection.directives?.some((directive) => ['include', 'skip'].includes(directive.name.value)))
        conditional.add(key);
    }
    const required = Object.keys(properties).filter((key) => !conditional.has(key));
    return { type: 'object', properties, required, additionalProperties: false };
  };

  const outputSchema = (type: GraphQLOutputType, selection: FieldNode): JsonSchema => {
    if (isNonNullType(type)) return nonNull(type.ofType, selection);
    return nullable(nonNull(type, selection));
  };

  const nonNull = (type: GraphQLOutputType, selection: FieldNode): JsonSchema => {
    if (isNonNullType(type)) return nonNull(type.ofType, selection);
    if (isListType(type)) return { type: 'array', items: outputSchema(type.ofType, selection) };
    const named = getNamedType(type);
    if (isObjectType(named)) {
      if (!selection.selectionSet) throw new Error(`${named.name} needs a selection`);
      return components.ref(named.name, objectSchema(named, selection.selectionSet));
    }
    if (selection.selectionSet) throw new Error(`${named.name} is abstract; route operations select object types`);
    return namedTypeSchema(named);
  };

  return objectSchema(root, operation.selectionSet);
}

function withDescription(schema: JsonSchema, field: GraphQLField<unknown, unknown>): JsonSchema {
  if (!field.description) return schema;
  // Beside a $ref, a description would be ignored by some tools in 3.0; 3.1 allows it, and the client keeps it.
  return { ...schema, description: field.description };
}
