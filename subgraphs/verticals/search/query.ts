import { env } from '../../platform/config.ts';
import type { Database } from '../../platform/database.ts';
import type { RecordType } from '../record-type/define.ts';
import { HELD_WORD_SIMILARITY, QUERY_TRIGRAMS_SQL, QUERY_WORDS_SQL, typoCandidateQuery } from './typo-words.ts';
import type { QueryWord } from './typo-words.ts';

export interface SearchHitRow {
  kind: string;
  id: number;
  title: string;
  subtitle: string;
  score: number;
}

/**
 * Candidates taken per record type at most, before ranking. Ranking costs ~20-50 µs a row (unaccent, trigram
 * and full-text functions), so it runs over a capped set rather than over every match (125,000 contacts for
 * `lee` at 1M records per vertical: 10 s). A constant, not the page's depth, so every page of a query ranks
 * the same candidates and pages never overlap. Past it, `total` is a lower bound and flagged as an estimate.
 */
export const CANDIDATE_CAP = 100;

/**
 * Typo tolerance: a record matches when some run of words in its text is at least this similar to the query
 * (`word_similarity`, pg_trgm's `%>`). One wrong letter costs a short query a larger share of its trigrams, so
 * short queries get a lower bar; long ones a higher bar, which also keeps common words ("maple avenue") from
 * matching a whole table.
 */
export function wordSimilarityThreshold(query: string): number {
  if (query.length <= 8) return 0.45;
  return query.length <= 16 ? 0.6 : 0.7;
}

/**
 * The query as the planner sees it. Written out in the full-text conditions (not read from a CTE) so that, the statement
 * being planned with its parameter, PostgreSQL folds them to constants and estimates each word from the full-text
 * index's statistics: a word in a third of the names (`llc`) is found by a sequential scan that stops at the cap,
 * a rare one through the GIN index.
 */
const FOLDED = 'verticals_search_text($1::text)';
const WORDS = `plainto_tsquery('simple', ${FOLDED})`;
/** Every word of three characters or more as a prefix (`wal` finds `walker`); shorter words stay whole. */
const PREFIXES = `to_tsquery('simple', regexp_replace(${WORDS}::text, '''([^'' ]{3,})''', '''\\1'':*', 'g'))`;

/** Relevance over the folded text `t`; `q` holds the folded query and its words. */
const SCORE = `(word_similarity(q.folded, t) * 0.5 + similarity(q.folded, t) * 0.3
  + CASE WHEN to_tsvector('simple', t) @@ q.words THEN 0.2 + ts_rank(to_tsvector('simple', t), q.words) ELSE 0 END)`;

type Tier = 'words' | 'prefixes' | 'fuzzy';
/** Each tier runs only when the one before found nothing in any asked record type. */
export const TIERS: readonly Tier[] = ['words', 'prefixes', 'fuzzy'];

/**
 * The typo tier's records: holding the vocabulary words of typo-words.ts ($2, through the full-text index), then
 * the documented condition itself at the tier's threshold, written as the function so that the planner cannot
 * answer it from the records' trigram index (at 10M records that scan outlasted any budget).
 */
function tierCondition(type: RecordType, tier: Tier, threshold: number): string {
  const text = `verticals_search_text(${type.search.text})`;
  if (tier === 'fuzzy')
    return `to_tsvector('simple', ${text}) @@ $2::tsquery AND word_similarity((SELECT folded FROM q), ${text}) >= ${threshold}`;
  return `to_tsvector('simple', ${text}) @@ ${tier === 'words' ? WORDS : PREFIXES}`;
}

/** One tier's candidates of one record type, at most CANDIDATE_CAP, in whatever order the scan finds them. */
function candidates(type: RecordType, tier: Tier, threshold: number): string {
  const { text, title, subtitle } = type.search;
  return `(SELECT '${type.kind}'::text AS kind, id, ${title} AS title, ${subtitle} AS subtitle,
    verticals_search_text(${text}) AS t
    FROM ${type.table} WHERE ${tierCondition(type, tier, threshold)} LIMIT ${CANDIDATE_CAP})`;
}

/**
 * One tier of the search as one statement: the candidates of every asked record type, then the page of the
 * ranked candidates with their count and whether some record type reached the cap. The totals come in a row of
 * their own, so a page past the last still says how many hits there are.
 */
export function searchStatement(
  types: readonly RecordType[],
  tier: Tier,
  page: { skip: number; take: number; threshold: number },
): string {
  return `WITH q AS MATERIALIZED (SELECT ${FOLDED} AS folded, ${WORDS} AS words),
    found AS (${types.map((type) => candidates(type, tier, page.threshold)).join(' UNION ALL ')})
    SELECT totals.total, totals.capped, page.kind, page.id, page.title, page.subtitle, page.score
    FROM (SELECT count(*)::int AS total,
            EXISTS (SELECT 1 FROM found GROUP BY kind HAVING count(*) >= ${CANDIDATE_CAP}) AS capped FROM found) AS totals
    LEFT JOIN (SELECT kind, id, title, subtitle, ${SCORE}::float8 AS score FROM found, q
               ORDER BY score DESC, kind ASC, id ASC OFFSET ${page.skip} LIMIT ${page.take}) AS page ON true
    ORDER BY page.score DESC, page.kind ASC, page.id ASC`;
}

export interface SearchRequest {
  q: string;
  /** The record types to search, each by its model file's `search` (the search migration indexes exactly that text). */
  types: readonly RecordType[];
  skip: number;
  take: number;
}

interface SearchRow {
  total: number;
  capped: boolean;
  kind: string | null;
  id: number | null;
  title: string | null;
  subtitle: string | null;
  score: number | null;
}

/**
 * Settings of the search's transaction only, so they never leak into another query on a pooled connection: the
 * similarity of a held word ($1, typo-words.ts) and the typo tier's time budget ($2). No JIT: compiling the statement cost 70-170 ms at 1M records, more
 * than the search itself. No parallel workers and no synchronised sequential scans: a capped scan must find the
 * same candidates on every call, or page 2 could repeat page 1's hits.
 */
const SETTINGS = `SELECT set_config('pg_trgm.word_similarity_threshold', $1, true), set_config('jit', 'off', true),
  set_config('max_parallel_workers_per_gather', '0', true), set_config('synchronize_seqscans', 'off', true),
  set_config('statement_timeout', coalesce($2, current_setting('statement_timeout')), true)`;

/**
 * The typo tier checks its condition on every record holding a similar word until its cap is full; when few of
 * them pass (a query similar to common words in few records' runs) that is many records. Before the vocabulary
 * it read the trigram posting lists of every record (95 s for `acme` at 10M records per vertical). It stays best
 * effort: past SEARCH_TYPO_BUDGET_MS PostgreSQL cancels it and the search answers with what the exact tiers found
 * (nothing). The other tiers stop at their candidate caps and carry no budget.
 */
const typoBudget = (tier: Tier) => (tier === 'fuzzy' ? String(env.SEARCH_TYPO_BUDGET_MS) : null);

/** PostgreSQL's query_canceled, as Prisma reports a raw query's database error. */
export function wasCanceledByTimeout(error: unknown): boolean {
  const { meta, message } = error as { meta?: { code?: string }; message?: string };
  return meta?.code === '57014' || /statement timeout/i.test(message ?? '');
}

/** One page of ranked hits across the asked record types, the number of candidates, and whether a type was capped. */
export async function searchRecords(
  db: Database,
  request: SearchRequest,
): Promise<{ hits: SearchHitRow[]; total: number; capped: boolean }> {
  if (request.types.length === 0) return { hits: [], total: 0, capped: false };
  const page = { skip: request.skip, take: request.take, threshold: wordSimilarityThreshold(request.q) };
  let rows: SearchRow[] = [];
  // A batch transaction per tier (settings + statement): Prisma's interactive transactions cost ~8 ms more.
  for (const tier of TIERS) {
    // Prisma's raw queries run when a transaction takes them: one settings statement per transaction.
    const settings = () => db.prisma.$queryRawUnsafe(SETTINGS, String(HELD_WORD_SIMILARITY), typoBudget(tier));
    const parameters: string[] = [request.q];
    try {
      if (tier === 'fuzzy') {
        const [, words, [query]] = await db.prisma.$transaction([
          settings(),
          db.prisma.$queryRawUnsafe<QueryWord[]>(QUERY_WORDS_SQL, request.q),
          db.prisma.$queryRawUnsafe<{ trigrams: number }[]>(QUERY_TRIGRAMS_SQL, request.q),
        ]);
        const candidateWords = typoCandidateQuery(words, query?.trigrams ?? 0, page.threshold);
        if (candidateWords === null) break;
        parameters.push(candidateWords);
      }
      const [, found] = await db.prisma.$transaction([
        settings(),
        db.prisma.$queryRawUnsafe<SearchRow[]>(searchStatement(request.types, tier, page), ...parameters),
      ]);
      rows = found;
    } catch (error) {
      if (tier === 'fuzzy' && wasCanceledByTimeout(error)) break;
      throw error;
    }
    if ((rows[0]?.total ?? 0) > 0) break;
  }
  const hits = rows.filter((row) => row.kind !== null) as SearchHitRow[];
  return { hits, total: rows[0]?.total ?? 0, capped: rows[0]?.capped ?? false };
}
