import { BadRequestError } from '../../subgraphs/platform/errors.ts';

/** A JSON type, the values of a GraphQL enum (a string of that enum), or a nested object's own fields. */
export type BodyFieldType = 'string' | 'string[]' | 'boolean' | 'object' | readonly string[] | BodyFields;

export type BodyFields = Record<string, { variable: string; type: BodyFieldType; required?: boolean }>;

/** A route's JSON body → its variables, with the fields it reads (the OpenAPI document states them). */
export interface BodyReader {
  (body: Record<string, unknown>): Record<string, unknown>;
  fields: BodyFields;
  /** The input-object variable the fields are collected into (`input`), if not variables of their own. */
  into?: string;
}

const isNested = (type: BodyFieldType): type is BodyFields => typeof type === 'object' && !Array.isArray(type);

/** The problem with a value of the wrong JSON type, or undefined. */
function typeProblem(value: unknown, type: Exclude<BodyFieldType, BodyFields>): string | undefined {
  if (Array.isArray(type)) return type.includes(value as string) ? undefined : `must be one of ${type.join(', ')}`;
  if (type === 'string') return typeof value === 'string' ? undefined : 'must be a string';
  if (type === 'boolean') return typeof value === 'boolean' ? undefined : 'must be true or false';
  if (type === 'string[]') {
    return Array.isArray(value) && value.every((item) => typeof item === 'string')
      ? undefined
      : 'must be an array of strings';
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'must be a JSON object';
}

/** Reads `body` by `fields`, adding each problem to `details` under its dotted name. */
function readFields(
  body: Record<string, unknown>,
  fields: BodyFields,
  details: Record<string, string>,
  prefix: string,
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field) details[prefix + name] = 'is not a field of this request';
    else if (value === null) continue;
    else if (isNested(field.type)) {
      const problem = typeProblem(value, 'object');
      if (problem) details[prefix + name] = problem;
      else
        variables[field.variable] = readFields(
          value as Record<string, unknown>,
          field.type,
          details,
          `${prefix}${name}.`,
        );
    } else {
      const problem = typeProblem(value, field.type);
      if (problem) details[prefix + name] = problem;
      else variables[field.variable] = value;
    }
  }
  for (const [name, field] of Object.entries(fields)) {
    if (field.required && body[name] == null) details[prefix + name] ??= 'is required';
  }
  return variables;
}

/**
 * A JSON body → the operation's variables, renaming documented snake_case fields (into one input-object
 * variable when `into` names it). Like the query-string coercion this checks JSON types and presence only (so a
 * wrong type is a 400 naming the field as sent); every rule on the values stays in the resolver.
 */
export function bodyVariables(fields: BodyFields, options: { into?: string } = {}): BodyReader {
  const read = (body: Record<string, unknown>) => {
    const details: Record<string, string> = Object.create(null);
    const variables = readFields(body, fields, details, '');
    if (Object.keys(details).length > 0) throw new BadRequestError(details);
    return options.into ? { [options.into]: variables } : variables;
  };
  return Object.assign(read, { fields, into: options.into });
}
