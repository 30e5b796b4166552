/**
 * A case-insensitive exact match for a Prisma `where`. Prisma sends `equals` with `mode: 'insensitive'` to
 * PostgreSQL as ILIKE, where `%` and `_` are wildcards: `city=%` matched every row. Escaping them (and ILIKE's
 * escape character `\`) keeps the filter an exact match; the totals translator sends the same ILIKE, so pages
 * and totals agree.
 */
export function equalsIgnoringCase(value: string) {
  return { equals: value.replace(/[\\%_]/g, '\\$&'), mode: 'insensitive' as const };
}
