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
 * The same statements the resolver sends (the page through Prisma, all scalar columns, ordered by ai_score with id
 * as tie-breaker; the total as subgraphs/platform/totals.ts counts it, capped at 10,000 and estimated past it),
 * written by hand and run concurrently as GraphQL runs them.
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
    db.sql.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM (SELECT 1 FROM companies ${where} LIMIT 10001) AS capped`,
      params,
    ),
  ]);
  if (count!.total <= 10_000) return { data: rows, total: count!.total };
  const [plan] = await db.sql.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    `EXPLAIN (FORMAT JSON) SELECT 1 FROM companies ${where}`,
    params,
  );
  return { data: rows, total: Math.max(10_001, plan!['QUERY PLAN'][0].Plan['Plan Rows']) };
}

export async function companiesPageViaPrisma(db: Database, query: CompanyPageQuery) {
  const where: Prisma.CompanyWhereInput = {
    industry: query.industry,
    state: query.state,
    aiScore: { gte: query.minScore },
  };
  const [rows, total] = await Promise.all([
    db.prisma.company.findMany({
      where,
      orderBy: [{ aiScore: 'desc' }, { id: 'desc' }],
      skip: (query.page - 1) * query.perPage,
      take: query.perPage,
    }),
    countTotal(db, 'Company', where, 10_000).then((counted) => counted.total),
  ]);
  return { data: rows, total };
}
