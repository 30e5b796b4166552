import { BadRequestError } from '../../subgraphs/platform/errors.ts';

/** A JSON type, or the values of a GraphQL enum (a string of that enum). */
type JsonType = 'string' | 'string[]' | 'boolean' | 'object' | readonly string[];

/** The problem with a value of the wrong JSON type, or undefined. */
function typeProblem(value: unknown, type: JsonType): string | undefined {
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

/**
 * A JSON body → the operation's variables, renaming documented snake_case fields. Like the query-string
 * coercion this checks JSON types and presence only (so a wrong type is a 400 naming the field as sent);
 * every rule on the values stays in the resolver.
 */
export function bodyVariables(fields: Record<string, { variable: string; type: JsonType; required?: boolean }>) {
  return (body: Record<string, unknown>) => {
    const details: Record<string, string> = Object.create(null);
    const variables: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(body)) {
      const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
      if (!field) details[name] = 'is not a field of this request';
      else if (value === null) continue;
      else {
        const problem = typeProblem(value, field.type);
        if (problem) details[name] = problem;
        else variables[field.variable] = value;
      }
    }
    for (const [name, field] of Object.entries(fields)) {
      if (field.required && body[name] == null) details[name] ??= 'is required';
    }
    if (Object.keys(details).length > 0) throw new BadRequestError(details);
    return variables;
  };
}
