import type { Database } from '../../subgraphs/platform/database.ts';

/** Every statement sent through `sql` from now on, appended to `into`: to count what a call costs. */
export function recordStatements(sql: Database['sql'], into: string[]): void {
  const query = sql.query.bind(sql);
  sql.query = ((text: string, params?: unknown[]) => {
    into.push(text);
    return query(text, params);
  }) as typeof sql.query;
}
