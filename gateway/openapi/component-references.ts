import type { JsonSchema } from './json-schema.ts';

const PREFIX = '#/components/schemas/';

/** The names of every component `value` reaches through `$ref`, transitively (those `schemas` holds). */
export function referencedComponents(value: unknown, schemas: Record<string, JsonSchema>): Set<string> {
  const found = new Set<string>();
  const visit = (item: unknown): void => {
    if (Array.isArray(item)) item.forEach(visit);
    else if (item && typeof item === 'object') {
      for (const [key, member] of Object.entries(item)) {
        if (key === '$ref' && typeof member === 'string' && member.startsWith(PREFIX)) {
          const name = member.slice(PREFIX.length);
          if (!found.has(name) && schemas[name]) {
            found.add(name);
            visit(schemas[name]);
          }
        } else visit(member);
      }
    }
  };
  visit(value);
  return found;
}
