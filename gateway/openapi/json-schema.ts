/** A JSON Schema (2020-12, OpenAPI 3.1's dialect), as plain data. */
export type JsonSchema = Record<string, unknown>;

/** The schema or `null`: `type: [T, 'null']` for a scalar, `anyOf` for a reference or an object. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && !schema.$ref && !schema.properties && !schema.items) {
    const { enum: values, ...rest } = schema;
    return {
      ...rest,
      type: [schema.type, 'null'],
      ...(Array.isArray(values) ? { enum: [...values, null] } : {}),
    };
  }
  if (Object.keys(schema).length === 0) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}
