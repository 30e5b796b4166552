import type { JsonSchema } from './json-schema.ts';

/**
 * The JSON Schema of what a route's `respond` makes of its operation's data, found by running `respond` itself on
 * a symbolic `data`: every value read from it is a stand-in that remembers its schema, so `data.signals.nodes`,
 * `{...entry, created}`, `page.nodes.length` and `matches.map(...)` come out as the schemas of what they are.
 * The document is thereby the code the server runs, not a description of it kept beside it.
 */
export function responseSchema(
  respond: (data: Record<string, unknown>) => unknown,
  dataSchema: JsonSchema,
  components: Record<string, JsonSchema>,
): JsonSchema {
  const symbols = new WeakMap<object, JsonSchema>();
  const mappedArrays = new WeakSet<unknown[]>();

  const resolve = (schema: JsonSchema): JsonSchema => {
    if (typeof schema.$ref === 'string') return resolve(components[schema.$ref.split('/').pop()!]!);
    // The non-null member of a nullable: respond reads through a value it knows is there (it 404s before).
    if (Array.isArray(schema.anyOf)) return resolve(schema.anyOf.find((member) => member.type !== 'null')!);
    return schema;
  };

  const symbol = (schema: JsonSchema): object => {
    const target = {};
    const proxy = new Proxy(target, {
      get(_, key) {
        const resolved = resolve(schema);
        if (key === 'length' && resolved.type === 'array') return symbol({ type: 'integer', minimum: 0 });
        if (key === 'map' && resolved.type === 'array') {
          return (mapper: (item: unknown) => unknown) => {
            const mapped = [mapper(symbol(resolved.items as JsonSchema))];
            mappedArrays.add(mapped);
            return mapped;
          };
        }
        if (typeof key !== 'string') return undefined;
        const properties = resolved.properties as Record<string, JsonSchema> | undefined;
        if (!properties || !Object.hasOwn(properties, key)) {
          throw new Error(`respond reads ${key}, which the operation does not select`);
        }
        return symbol(properties[key]!);
      },
      ownKeys: () => Object.keys((resolve(schema).properties as object | undefined) ?? {}),
      getOwnPropertyDescriptor: (_, key) => {
        const properties = resolve(schema).properties as Record<string, JsonSchema> | undefined;
        if (typeof key !== 'string' || !properties || !Object.hasOwn(properties, key)) return undefined;
        return { enumerable: true, configurable: true, writable: false, value: symbol(properties[key]!) };
      },
    });
    symbols.set(proxy, schema);
    return proxy;
  };

  const describe = (value: unknown): JsonSchema => {
    if (typeof value === 'object' && value !== null && symbols.has(value)) return symbols.get(value)!;
    if (Array.isArray(value)) {
      if (!mappedArrays.has(value)) throw new Error('respond builds an array that is not a map of the data');
      return { type: 'array', items: describe(value[0]) };
    }
    if (typeof value === 'boolean') return { type: 'boolean', const: value };
    if (typeof value === 'string') return { type: 'string', const: value };
    if (typeof value === 'number') return { type: 'number', const: value };
    if (typeof value === 'object' && value !== null) {
      const properties = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, describe(item)]));
      return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
    }
    throw new Error(`respond returns ${String(value)}, which has no schema`);
  };

  return describe(respond(symbol(dataSchema) as Record<string, unknown>));
}
