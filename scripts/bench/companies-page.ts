import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { countTotal } from '../../subgraphs/platform/totals.ts';

/** The companies list page as the documented REST route asks for it: filters, sort by ai_score, offset page. */
export interface CompanyPageQuery {
  industry?: string;
  state?: string;
  minScore?: number;
  page: number;
  perPage: number;
}

export function companyPageQuery(params: URLSearchParams): CompanyPageQuery {
  const minScore = params.get('min_score');
  return {
    industry: params.get('industry') ?? undefined,
    state: params.get('state') ?? undefined,
    minScore: minScore === null ? undefined : Number(minScore),
    page: Number(params.get('page') ?? 1),
    perPage: Number(params.get('per_page') ?? 25),
  };
}

/**
 * The same statements the resolver sends: the page written by hand (all scalar columns, ordered by ai_score with
 * id as tie-breaker), and the total by the resolver's own counting (subgraphs/platform/totals.ts), which is
 * already SQL through `pg`: capped at 10,000, then the planner's estimate, recounted up to 50,000 when the
 * estimate is under that. Both run concurrently, as GraphQL runs them, so this line differs from the service
 * only in how the page is read and in the layers above it.
 */
export async function companiesPageViaSql(db: Database, query: CompanyPageQuery) {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (query.industry !== undefined) conditions.push(`industry = $${params.push(query.industry)}`);
  if (query.state !== undefined) conditions.push(`state = $${params.push(query.state)}`);
  if (query.minScore !== undefined) conditions.push(`ai_score >= $${params.push(query.minScore)}`);
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const [rows, total] = await Promise.all([
    db.sql.query(
      `SELECT * FROM companies ${where} ORDER BY ai_score DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.perPage, (query.page - 1) * query.perPage],
    ),
    countTotal(db, 'Company', companyWhere(query)),
  ]);
  return { data: rows, total: total.total };
}

const companyWhere = (query: CompanyPageQuery): Prisma.CompanyWhereInput => ({
  industry: query.industry,
  state: query.state,
  aiScore: { gte: query.minScore },
});

export async function companiesPageViaPrisma(db: Database, query: CompanyPageQuery) {
  const where = companyWhere(query);
  const [rows, total] = await Promise.all([
    db.prisma.company.findMany({
      where,
      orderBy: [{ aiScore: 'desc' }, { id: 'desc' }],
      skip: (query.page - 1) * query.perPage,
      take: query.perPage,
    }),
    countTotal(db, 'Company', where).then((counted) => counted.total),
  ]);
  return { data: rows, total };
}
