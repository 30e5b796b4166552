import { getNamedType, isInputObjectType } from 'graphql';
import type { GraphQLArgument, GraphQLField, GraphQLInputField, GraphQLInputType } from 'graphql';
import { camelCase, snakeCase } from '../../subgraphs/platform/names.ts';
import { apiSchema } from '../supergraph.ts';
import type { RestRoute } from './route.ts';

/**
 * A REST route that runs one root field of the API schema. Its operation text, variable declarations and
 * parameter maps follow from the field's arguments, so an argument is written once, in the subgraph:
 * - a path parameter `:ticker` feeds the argument `ticker`, or the field `ticker` of its `input` argument;
 * - a body's variables are arguments, or fields of the `input` argument (`into: 'input'` passes it whole);
 * - every other argument is a query parameter under its snake_case name (`tradeType` → `trade_type`).
 */
export interface FieldRouteSpec extends Omit<RestRoute, 'method' | 'operation' | 'query' | 'params'> {
  method?: RestRoute['method'];
  /** The root field: a query field, else a mutation field. */
  field: string;
  /** The key its data comes under (`watchlist: watchlistPage`), when not the field's name. */
  alias?: string;
  /** The field's selection, without braces; empty for a scalar field. */
  selection: string;
  /** The operation's name, the route's `operationId`: the PascalCase response key unless the document names it. */
  operationName?: string;
  /** Query parameters the document names otherwise than the argument's snake_case name: parameter → argument. */
  renamed?: Record<string, string>;
  /** Second names a query parameter is also accepted under (`type` for `signal_type`): name → argument. */
  alsoAccepted?: Record<string, string>;
  /**
   * Variables the selection uses beyond the arguments, with type and default (`'Boolean = false'`) and what the
   * parameter does (no argument describes it).
   */
  extraVariables?: Record<string, { type: string; description: string }>;
  /** Root fields selected beside the main one, in the route's variables (`view: ticker(symbol: $ticker) { ticker }`). */
  alongside?: string;
}

const pascalCase = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** `/api/watchlist/:ticker` → `['ticker']`. */
const pathParameters = (path: string) => [...path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!);

function rootField(name: string): { kind: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> } {
  const schema = apiSchema();
  const query = schema.getQueryType()?.getFields()[name];
  if (query) return { kind: 'query', field: query };
  const mutation = schema.getMutationType()?.getFields()[name];
  if (mutation) return { kind: 'mutation', field: mutation };
  throw new Error(`the API schema has no root field ${name}`);
}

/** The fields of the field's `input` argument, which variables that are no argument of their own feed. */
function inputFields(field: GraphQLField<unknown, unknown>): Record<string, GraphQLInputField> {
  const input = field.args.find((arg) => arg.name === 'input');
  const type = input && getNamedType(input.type);
  return type && isInputObjectType(type) ? type.getFields() : {};
}

/** Builds the route's operation and parameter maps from its field's arguments (see `FieldRouteSpec`). */
export function fieldRoute(spec: FieldRouteSpec): RestRoute {
  const {
    field: name,
    alias,
    selection,
    operationName,
    renamed,
    alsoAccepted,
    extraVariables,
    alongside,
    ...rest
  } = spec;
  const { kind, field } = rootField(name);
  const where = `${spec.method ?? 'GET'} ${spec.path}`;
  const args = new Map<string, GraphQLArgument>(field.args.map((arg) => [arg.name, arg]));
  const inside = inputFields(field);
  const declared = new Map<string, GraphQLInputType | string>();
  const passedInInput: string[] = [];
  const feed = (variable: string) => {
    if (declared.has(variable)) return;
    const argument = args.get(variable);
    const inputField = Object.hasOwn(inside, variable) ? inside[variable] : undefined;
    if (!argument && !inputField) throw new Error(`${where}: ${name} has no argument or input field ${variable}`);
    declared.set(variable, (argument ?? inputField)!.type);
    if (!argument) passedInInput.push(variable);
  };

  const params = Object.fromEntries(pathParameters(spec.path).map((parameter) => [parameter, camelCase(parameter)]));
  Object.values(params).forEach(feed);
  const body = spec.body;
  if (body?.into) feed(body.into);
  else Object.values(body?.fields ?? {}).forEach((bodyField) => feed(bodyField.variable));

  const parameterOf = new Map(Object.entries(renamed ?? {}).map(([parameter, argument]) => [argument, parameter]));
  const query: Record<string, string> = {};
  for (const arg of field.args) {
    if (declared.has(arg.name) || (arg.name === 'input' && passedInInput.length > 0)) continue;
    if (isInputObjectType(getNamedType(arg.type))) throw new Error(`${where}: nothing feeds ${name}'s ${arg.name}`);
    feed(arg.name);
    query[parameterOf.get(arg.name) ?? snakeCase(arg.name)] = arg.name;
    for (const [second, argument] of Object.entries(alsoAccepted ?? {}))
      if (argument === arg.name) query[second] = argument;
  }
  const descriptions: Record<string, string> = {};
  for (const [variable, { type, description }] of Object.entries(extraVariables ?? {})) {
    declared.set(variable, type);
    query[snakeCase(variable)] = variable;
    descriptions[snakeCase(variable)] = description;
  }
  for (const argument of [...Object.values(renamed ?? {}), ...Object.values(alsoAccepted ?? {})]) {
    if (!args.has(argument)) throw new Error(`${where}: ${name} has no argument ${argument}`);
  }

  const declarations = [...declared].map(([variable, type]) => `$${variable}: ${String(type)}`).join(', ');
  const passed = [
    ...field.args.filter((arg) => declared.has(arg.name)).map((arg) => `${arg.name}: $${arg.name}`),
    ...(passedInInput.length
      ? [`input: { ${passedInInput.map((variable) => `${variable}: $${variable}`).join(', ')} }`]
      : []),
  ].join(', ');
  const key = alias ?? name;
  const operation = [
    `${kind} ${operationName ?? pascalCase(key)}${declarations ? `(${declarations})` : ''} {`,
    `  ${alias ? `${alias}: ` : ''}${name}${passed ? `(${passed})` : ''}${selection ? ` { ${selection} }` : ''}`,
    ...(alongside ? [`  ${alongside}`] : []),
    '}',
  ].join('\n');
  return {
    ...rest,
    method: spec.method ?? 'GET',
    operation,
    ...(Object.keys(query).length ? { query } : {}),
    ...(Object.keys(params).length ? { params } : {}),
    ...(Object.keys(descriptions).length ? { descriptions } : {}),
  };
}
