import { Kind, parse, valueFromASTUntyped } from 'graphql';
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { planReaches, ruleFor } from '../auth/plan-access.ts';
import type { BodyFieldType, BodyFields, BodyReader } from '../rest/body-variables.ts';
import { ANONYMOUS_PLAN } from '../rest/plan-variants.ts';
import type { RestRoute } from '../rest/route.ts';
import { variableTypes } from '../rest/variables.ts';
import { inputFieldRules, variableRules } from './argument-rules.ts';
import type { JsonSchema } from './json-schema.ts';
import { nullable } from './json-schema.ts';
import { responseSchema } from './response-shape.ts';
import type { ComponentRegistry } from './selection-schema.ts';
import { namedTypeSchema } from './selection-schema.ts';
import { selectionSchema } from './selection-schema.ts';

/** What the document needs of one REST table route, derived from the route and the operation it runs. */
export interface RouteDescription {
  operationId: string;
  summary?: string;
  parameters: { name: string; in: 'query' | 'path'; required: boolean; schema: JsonSchema }[];
  body?: JsonSchema;
  /** Success statuses and the body's schema (a string for an HTML answer). */
  statuses: number[];
  response: JsonSchema;
  contentType: string;
}

function operationOf(route: RestRoute): OperationDefinitionNode {
  const operation = parse(route.operation).definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation?.name) throw new Error(`${route.method} ${route.path}: the operation needs a name`);
  return operation;
}

/** `AI_SCORE_DESC`, `AI_SCORE_ASC` → `-ai_score`, `ai_score`: the sort values as the query string spells them. */
function sortValues(enumValues: unknown[]): string[] {
  return enumValues.map((value) => {
    const text = String(value);
    return text.endsWith('_DESC') ? `-${text.slice(0, -5).toLowerCase()}` : text.slice(0, -4).toLowerCase();
  });
}

function parametersOf(route: RestRoute, schema: GraphQLSchema, operation: OperationDefinitionNode) {
  const types = variableTypes(schema, operation);
  const rules = variableRules(schema, operation);
  const nonNull = new Set(
    (operation.variableDefinitions ?? [])
      .filter((definition) => definition.type.kind === Kind.NON_NULL_TYPE)
      .map((definition) => definition.variable.name.value),
  );
  // A default the operation itself gives (`$evidence: Boolean = false`): no argument rule declares it.
  const declaredDefaults = new Map(
    (operation.variableDefinitions ?? [])
      .filter((definition) => definition.defaultValue)
      .map((definition) => [definition.variable.name.value, valueFromASTUntyped(definition.defaultValue!)]),
  );
  const describe =
    (where: 'query' | 'path') =>
    ([name, variable]: [string, string]) => {
      // The GraphQL type says the type and the enum; the subgraph's rule adds ranges, patterns and the default.
      const typed = namedTypeSchema(types.get(variable)!);
      const declared: JsonSchema = declaredDefaults.has(variable) ? { default: declaredDefaults.get(variable) } : {};
      const described: JsonSchema = route.descriptions?.[name] ? { description: route.descriptions[name] } : {};
      const parameterSchema: JsonSchema = { ...described, ...declared, ...rules.get(variable), ...typed };
      if (name === 'sort' && Array.isArray(typed.enum)) parameterSchema.enum = sortValues(typed.enum);
      return { name, in: where, required: where === 'path' || nonNull.has(variable), schema: parameterSchema };
    };
  return [
    ...Object.entries(route.params ?? {}).map(describe('path')),
    ...Object.entries(route.query ?? {}).map(describe('query')),
  ];
}

function fieldTypeSchema(type: BodyFieldType, rule: JsonSchema | undefined): JsonSchema {
  if (Array.isArray(type)) return { ...rule, type: 'string', enum: [...type] };
  if (typeof type === 'object') return fieldsSchema(type as BodyFields, () => undefined);
  const base: JsonSchema =
    type === 'string[]' ? { type: 'array', items: { type: 'string' } } : { type: type === 'object' ? 'object' : type };
  return { ...rule, ...base, ...(type === 'string[]' && rule?.items ? { items: rule.items } : {}) };
}

/** A body's fields as an object schema; `null` is accepted for an optional field and means "not given". */
function fieldsSchema(fields: BodyFields, ruleOf: (variable: string) => JsonSchema | undefined): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, field]) => {
      const schema = fieldTypeSchema(field.type, ruleOf(field.variable));
      return [name, field.required ? schema : nullable(schema)];
    }),
  );
  const required = Object.entries(fields)
    .filter(([, field]) => field.required)
    .map(([name]) => name);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

function bodyOf(body: BodyReader, schema: GraphQLSchema, operation: OperationDefinitionNode): JsonSchema {
  if (!body.into) {
    const rules = variableRules(schema, operation);
    return fieldsSchema(body.fields, (variable) => rules.get(variable));
  }
  const inputType = variableTypes(schema, operation).get(body.into);
  if (!inputType) throw new Error(`the operation declares no $${body.into}`);
  const rules = inputFieldRules(inputType.name);
  return fieldsSchema(body.fields, (field) => rules.get(field));
}

/** Describes one table route: everything comes from the route, its operation and the API schema. */
export function describeTableRoute(
  route: RestRoute,
  schema: GraphQLSchema,
  components: ComponentRegistry,
): RouteDescription {
  const operation = operationOf(route);
  const dataSchema = selectionSchema(schema, operation, components, {
    // Fields above the caller's plan are null for anonymous and lower-plan callers (rest/plan-variants.ts).
    mayBeOmitted: route.omitFieldsAbovePlan
      ? (parent, field) => !planReaches(ANONYMOUS_PLAN, ruleFor(parent.name, field))
      : undefined,
  });
  const status = route.status ?? 200;
  return {
    operationId: operation.name!.value,
    parameters: parametersOf(route, schema, operation),
    body: route.body && bodyOf(route.body, schema, operation),
    statuses: route.createdWhen ? [201, status] : [status],
    response: responseSchema(route.respond, dataSchema, components.schemas),
    contentType: route.contentType?.split(';')[0] ?? 'application/json',
  };
}
