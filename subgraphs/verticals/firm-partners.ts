import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import type { Attorney, Prisma } from '../../prisma/generated/client/client.ts';
import { loaderFor } from '../platform/context.ts';
import type { RequestContext } from '../platform/context.ts';
import { selectedFieldNames } from '../platform/selection.ts';

/** Attorney fields (records/attorney.ts) that read nothing but the columns of NAME_COLUMNS_SQL. */
const NAME_FIELDS = new Set(['__typename', 'id', 'name', 'firstName', 'lastName', 'firmId', 'isPartner']);

const NAME_COLUMNS_SQL = `SELECT id, first_name AS "firstName", last_name AS "lastName", firm_id AS "firmId",
         is_partner AS "isPartner"
    FROM attorneys WHERE firm_id = ANY($1::int[]) AND is_partner ORDER BY firm_id, id`;

function byFirm(firmIds: readonly number[], partners: Pick<Attorney, 'firmId'>[]) {
  const groups = new Map<number, typeof partners>(firmIds.map((id) => [id, []]));
  for (const partner of partners) groups.get(partner.firmId!)?.push(partner);
  return firmIds.map((id) => groups.get(id)!);
}

/**
 * The partners of every firm of a response, by id, in one statement. The REST page selects only their id and
 * name: then four columns are read, not whole attorney rows (~1,300 on the first page of the largest firms, most
 * of the page's cost when Prisma built them; docs/performance.md). Any other selection reads whole rows with
 * the relations it asks for (`query`, from the Prisma plugin).
 */
export function firmPartners(
  context: RequestContext,
  query: { include?: Prisma.AttorneyInclude },
  info: GraphQLResolveInfo,
): DataLoader<number, Attorney[]> {
  const namesOnly = !query.include && [...selectedFieldNames(info)].every((name) => NAME_FIELDS.has(name));
  if (namesOnly)
    return loaderFor(
      context,
      'verticals:firmPartnerNames',
      () =>
        new DataLoader<number, Attorney[]>(async (firmIds) => {
          const rows = await context.db.sql.query<Attorney>(NAME_COLUMNS_SQL, [firmIds]);
          // Only the fields of NAME_FIELDS are resolved from these rows, and they read only these columns.
          return byFirm(firmIds, rows) as Attorney[][];
        }),
    );
  return loaderFor(
    context,
    `verticals:firmPartners:${JSON.stringify(query)}`,
    () =>
      new DataLoader<number, Attorney[]>(async (firmIds) => {
        const rows = await context.db.prisma.attorney.findMany({
          ...query,
          where: { firmId: { in: [...firmIds] }, isPartner: true },
          orderBy: [{ firmId: 'asc' }, { id: 'asc' }],
        });
        return byFirm(firmIds, rows) as Attorney[][];
      }),
  );
}
