/**
 * The statements of a list (service.queries) that read any of `tables`: Prisma's (`FROM "public"."signals"`) and
 * those sent through `sql.query` (`FROM signals`), so a test counting reads holds whichever path a resolver
 * takes, and does not count what the service reads in the background (usage, queues) meanwhile.
 */
export function readsOf(statements: string[], ...tables: string[]): string[] {
  const from = new RegExp(`\\bFROM\\s+(?:"public"\\.)?"?(?:${tables.join('|')})"?(?![\\w"])`, 'i');
  return statements.filter((sql) => from.test(sql));
}
