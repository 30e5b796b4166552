/** `minEquity` → `min_equity`: GraphQL argument names as the REST documents spell them. */
export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** `min_equity` → `minEquity`. */
export const camelCase = (name: string) =>
  name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

/** A REST shape as a GraphQL selection, the documented names as aliases: `{company: 'name'}` → `company: name`. */
export function selectionOf(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([alias, selection]) => (alias === selection ? alias : `${alias}: ${selection}`))
    .join(' ');
}
