import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Database } from '../../subgraphs/shared/database.ts';

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
 * The same two statements the resolver makes Prisma send (the page, all scalar columns, ordered by ai_score
 * with id as tie-breaker; and the count), written by hand and run concurrently as GraphQL runs them.
 */
export async function companiesPageViaSql(db: Database, query: CompanyPageQuery) {
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (query.industry !== undefined) conditions.push(`industry = $${params.push(query.industry)}`);
  if (query.state !== undefined) conditions.push(`state = $${params.push(query.state)}`);
  if (query.minScore !== undefined) conditions.push(`ai_score >= $${params.push(query.minScore)}`);
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  const [rows, [count]] = await Promise.all([
    db.sql.query(
      `SELECT * FROM companies ${where} ORDER BY ai_score DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, query.perPage, (query.page - 1) * query.perPage],
    ),
    db.sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM companies ${where}`, params),
  ]);
  return { data: rows, total: count?.total ?? 0 };
}

export async function companiesPageViaPrisma(db: Database, query: CompanyPageQuery) {
  const where: Prisma.CompanyWhereInput = { industry: query.industry, state: query.state, aiScore: { gte: query.minScore } };
  const [rows, total] = await Promise.all([
    db.prisma.company.findMany({
      where,
      orderBy: [{ aiScore: 'desc' }, { id: 'desc' }],
      skip: (query.page - 1) * query.perPage,
      take: query.perPage,
    }),
    db.prisma.company.count({ where }),
  ]);
  return { data: rows, total };
}
