/**
 * From this offset on a page reads its ids first and then only those rows (a deferred join): `OFFSET n` makes
 * PostgreSQL fetch and discard every skipped row from the table, while the ids alone come from an index-only
 * scan of the index matching filter + order + id (1M companies, offset 9,950: 32 ms plain, 2.7 ms for the ids;
 * 1M signals, offset 4,950: 13 ms plain, 1.1 ms for the ids). Below it the extra round trip costs more than the
 * skipped rows.
 */
export const DEFERRED_JOIN_FROM = 1000;

/** The part of a findMany call a page decides. */
export interface PageArgs<Where, Order> {
  where: Where;
  orderBy?: Order;
  skip?: number;
  take?: number;
}

export interface PageReaders<Where, Order, Row extends { id: number | string }> {
  /** `findMany({ ...args, select: { id: true } })`: no relations, so the ids can come from the index alone. */
  ids: (args: PageArgs<Where, Order>) => Promise<{ id: Row['id'] }[]>;
  /** `findMany({ ...query, ...args })`: the rows with whatever the GraphQL selection needs. */
  rows: (args: PageArgs<Where, Order>) => Promise<Row[]>;
}

/** One offset page in the order of `page.orderBy`: the same rows as a plain `skip`/`take`, read cheaply when deep. */
export async function findPage<Where, Order, Row extends { id: number | string }>(
  page: { where: Where; orderBy: Order; skip: number; take: number },
  read: PageReaders<Where, Order, Row>,
  from = DEFERRED_JOIN_FROM,
): Promise<Row[]> {
  const { where, orderBy: order, skip, take } = page;
  if (skip < from) return read.rows({ where, orderBy: order, skip, take });
  const ids = (await read.ids({ where, orderBy: order, skip, take })).map((row) => row.id);
  if (ids.length === 0) return [];
  // Every model's where input takes `id: { in }`; the generic Where cannot say so.
  const rows = await read.rows({ where: { id: { in: ids } } as Where });
  const position = new Map(ids.map((id, index) => [id, index]));
  return rows.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
}
