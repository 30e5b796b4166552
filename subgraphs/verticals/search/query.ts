import type { Database } from '../../shared/database.ts';
import { RECORD_VERTICAL } from '../types/vertical-record.ts';
import type { VerticalRecordKind } from '../types/vertical-record.ts';
import { SEARCH_SOURCES } from './sources.ts';
import type { SearchSource } from './sources.ts';

export interface SearchHitRow {
  kind: VerticalRecordKind;
  id: number;
  title: string;
  subtitle: string;
  score: number;
}

/** Hits counted per record type at most; past it the total says "at least this many". */
export const COUNT_CAP = 1000;

/**
 * Typo tolerance: `%>` matches when some run of words in the text is at least this similar to the query. One
 * wrong letter costs a short query a larger share of its trigrams, so short queries get a lower bar; long ones a
 * higher bar, which also keeps common words ("maple avenue") from matching a whole table. Set per
 * transaction, so it never leaks into another query on a pooled connection.
 */
export function wordSimilarityThreshold(query: string): number {
  if (query.length <= 8) return 0.45;
  return query.length <= 16 ? 0.6 : 0.7;
}

/** A record matches on trigrams (typos, partial words) or on full-text words; both branches have an index. */
function matchCondition(source: SearchSource): string {
  const text = `verticals_search_text(${source.text})`;
  return `(${text} %> q.folded OR to_tsvector('simple', ${text}) @@ q.words)`;
}

/**
 * Relevance over the folded text `t`: trigram word similarity (the best-matching run of words), whole-text
 * similarity, and the full-text rank when every query word is present.
 */
const SCORE = `(word_similarity(q.folded, t) * 0.5 + similarity(q.folded, t) * 0.3
  + CASE WHEN to_tsvector('simple', t) @@ q.words THEN 0.2 + ts_rank(to_tsvector('simple', t), q.words) ELSE 0 END)`;

const QUERY_CTE = `WITH q AS (SELECT verticals_search_text($1::text) AS folded,
  plainto_tsquery('simple', verticals_search_text($1::text)) AS words)`;

/**
 * The best `depth` hits of one record type: each type is cut before the union, so the union stays small. The
 * folded text is computed once per match (OFFSET 0 keeps the planner from inlining it into every use).
 */
function sourceQuery(source: SearchSource, depth: number): string {
  return `(SELECT '${source.kind}' AS kind, id, title, subtitle, ${SCORE}::float8 AS score
    FROM (SELECT id, ${source.title} AS title, ${source.subtitle} AS subtitle, verticals_search_text(${source.text}) AS t
          FROM ${source.table}, q WHERE ${matchCondition(source)} OFFSET 0) AS matches, q
    ORDER BY score DESC, id ASC LIMIT ${depth})`;
}

function countQuery(source: SearchSource): string {
  return `(SELECT count(*)::int AS n FROM (SELECT 1 FROM ${source.table}, q WHERE ${matchCondition(source)}
    LIMIT ${COUNT_CAP}) AS capped)`;
}

export interface SearchRequest {
  q: string;
  kinds: readonly VerticalRecordKind[];
  skip: number;
  take: number;
}

/** One page of ranked hits across the asked record types and the number of hits (capped per type: `capped`). */
export async function searchRecords(
  db: Database,
  request: SearchRequest,
): Promise<{ hits: SearchHitRow[]; total: number; capped: boolean }> {
  const sources = SEARCH_SOURCES.filter((source) => request.kinds.includes(source.kind));
  if (sources.length === 0) return { hits: [], total: 0, capped: false };
  const depth = request.skip + request.take;
  const hitsSql = `${QUERY_CTE} SELECT * FROM (${sources.map((source) => sourceQuery(source, depth)).join(' UNION ALL ')}) AS hits
    ORDER BY score DESC, kind ASC, id ASC OFFSET ${request.skip} LIMIT ${request.take}`;
  const totalSql = `${QUERY_CTE} SELECT sum(n)::int AS total, bool_or(n >= ${COUNT_CAP}) AS capped
    FROM (${sources.map(countQuery).join(' UNION ALL ')}) AS counts`;
  const threshold = wordSimilarityThreshold(request.q);
  return db.prisma.$transaction(async (tx) => {
    await tx.$queryRawUnsafe(`SELECT set_config('pg_trgm.word_similarity_threshold', $1, true)`, String(threshold));
    const hits = await tx.$queryRawUnsafe<SearchHitRow[]>(hitsSql, request.q);
    const [count] = await tx.$queryRawUnsafe<{ total: number; capped: boolean }[]>(totalSql, request.q);
    return { hits, total: count?.total ?? 0, capped: count?.capped ?? false };
  }, { timeout: 20_000, maxWait: 10_000 });
}

export const verticalOfKind = (kind: VerticalRecordKind) => RECORD_VERTICAL[kind];
