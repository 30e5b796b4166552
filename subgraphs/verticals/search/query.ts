import { env } from '../../platform/config.ts';
import type { Database } from '../../platform/database.ts';
import type { RecordType } from '../record-type/define.ts';
import { PREFIXES_HELD } from './held-prefixes.ts';
import { HELD_WORD_SIMILARITY, QUERY_WORDS_SQL, typoCandidateQuery } from './typo-words.ts';
import type { QueryWordRow } from './typo-words.ts';

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

type Tier = 'words' | 'prefixes' | 'fuzzy';
/** Each tier runs only when the one before found nothing in any asked record type. */
export const TIERS: readonly Tier[] = ['words', 'prefixes', 'fuzzy'];

/**
 * Relevance over the folded text `t`; `q` holds the folded query and its words. Every candidate of the words tier
 * holds all the words (its condition is that match), so there the test is left out: the same score, without
 * building each candidate's tsvector twice (a tenth of the statement's time for `walker` at 10M records).
 */
function score(tier: Tier): string {
  const similarities = 'word_similarity(q.folded, t) * 0.5 + similarity(q.folded, t) * 0.3';
  const rank = `0.2 + ts_rank(to_tsvector('simple', t), q.words)`;
  if (tier === 'words') return `(${similarities} + ${rank})`;
  return `(${similarities} + CASE WHEN to_tsvector('simple', t) @@ q.words THEN ${rank} ELSE 0 END)`;
}

/**
 * verticals_search_text's body (migration verticals_search), for a record's text folded outside an index condition:
 * the candidates' text that ranking reads and the typo tier's similarity test. The function itself cannot be
 * inlined by the planner (declared IMMUTABLE, it calls unaccent, which is STABLE), and each call through it cost
 * ~1.5 µs more than the expression (50,000 contact names: 100-125 ms against 38 ms), several times per
 * candidate: `walker`'s words tier at 100k records per vertical took 7.0 ms with it, 5.2-6.0 without.
 * Index conditions keep the function: they must read as the indexes were built.
 * `test/verticals/search.test.ts` holds the two the same.
 */
export const foldedText = (text: string) => `lower(public.unaccent('public.unaccent'::regdictionary, ${text}))`;

/**
 * The typo tier's records: holding the vocabulary words of typo-words.ts ($4, through the full-text index), then
 * the documented condition itself at the tier's threshold, written as the function so that the planner cannot
 * answer it from the records' trigram index (at 10M records that scan outlasted any budget).
 */
function tierCondition(type: RecordType, tier: Tier, threshold: number): string {
  const text = `verticals_search_text(${type.search.text})`;
  if (tier === 'fuzzy') {
    const similarity = `word_similarity((SELECT folded FROM q), ${foldedText(type.search.text)})`;
    return `to_tsvector('simple', ${text}) @@ $4::tsquery AND ${similarity} >= ${threshold}`;
  }
  return `to_tsvector('simple', ${text}) @@ ${tier === 'words' ? WORDS : PREFIXES}`;
}

/**
 * Every tier reads each record type's fixed sample first: the records whose id is a multiple of this, through a
 * full-text index of their own (migration search_sample_indexes). A GIN index has no scan that stops after
 * CANDIDATE_CAP entries, so a word held by many records paid for every holder (`walker`: a bitmap of 127,984
 * contacts at 10M records per vertical, 20-30 ms, lossy past work_mem; `walkr`'s close words, 130 ms). The whole
 * index is read only when the sample holds fewer than SAMPLE_CAP matches, which bounds the exact tiers' bitmaps
 * to about SAMPLE_CAP × SAMPLE_MODULUS holders. The candidates of a common word are then SAMPLE_CAP of its
 * holders in the sample, the same on every call; of a word held by fewer records, CANDIDATE_CAP of all.
 */
export const SAMPLE_MODULUS = 64;

/**
 * Candidates taken from a full sample: a word held by some SAMPLE_CAP × SAMPLE_MODULUS records of a type or more.
 * Such a word's candidates are an arbitrary subset of its holders however many are taken, and every candidate costs
 * ~4 µs to gather and ~5 µs to rank: `walker` at 10M records per vertical cost PostgreSQL 5.7 ms a search with 500
 * candidates, 3.3 ms with 250. Fewer of them lower the chance that a common word's best-named holders are among
 * them (docs/api.md); a word held by at most CANDIDATE_CAP records of every type is still ranked whole.
 */
export const SAMPLE_CAP = 50;

/** Candidates of one record type, `sampled` saying whether they came from its sample (which caps them lower). */
function candidateScan(type: RecordType, condition: string, sampled: boolean): string {
  const { text, title, subtitle } = type.search;
  return `SELECT '${type.kind}'::text AS kind, id, ${title} AS title, ${subtitle} AS subtitle,
    ${foldedText(text)} AS t, ${sampled} AS sampled
    FROM ${type.table} WHERE ${condition} LIMIT ${sampled ? SAMPLE_CAP : CANDIDATE_CAP}`;
}

const sampleOf = (type: RecordType) => `sampled_${type.table}`;

/** The sample's candidates of one record type, as a CTE the type's candidates read. */
function sampledCandidates(type: RecordType, tier: Tier, threshold: number): string {
  const condition = `id % ${SAMPLE_MODULUS} = 0 AND ${tierCondition(type, tier, threshold)}`;
  return `${sampleOf(type)} AS MATERIALIZED (${candidateScan(type, condition, true)})`;
}

/**
 * One tier's candidates of one record type, in whatever order the scan finds them: the sample's SAMPLE_CAP when
 * the sample holds that many, else at most CANDIDATE_CAP of the whole table's. The uncorrelated count is a
 * one-time filter, so the scan of the branch not taken never starts.
 */
function candidates(type: RecordType, tier: Tier, threshold: number): string {
  const sampled = `(SELECT count(*) FROM ${sampleOf(type)})`;
  return `(SELECT * FROM ${sampleOf(type)} WHERE ${sampled} >= ${SAMPLE_CAP})
    UNION ALL (${candidateScan(type, `${sampled} < ${SAMPLE_CAP} AND ${tierCondition(type, tier, threshold)}`, false)})`;
}

/**
 * One tier of the search as one statement: the candidates of every asked record type, then the page of the
 * ranked candidates with their count and whether some record type reached the cap. The totals come in a row of
 * their own, so a page past the last still says how many hits there are; the words tier's also says whether the
 * prefixes tier can find anything (held-prefixes.ts). Parameters: $1 the query, $2 and $3 the
 * page's offset and size, $4 the typo tier's words (typo-words.ts). The text depends only on the record types,
 * the tier and the query's threshold, so it is prepared once per connection.
 */
export function searchStatement(types: readonly RecordType[], tier: Tier, threshold: number): string {
  return `WITH q AS MATERIALIZED (SELECT ${FOLDED} AS folded, ${WORDS} AS words),
    ${types.map((type) => `${sampledCandidates(type, tier, threshold)},`).join('\n')}
    found AS (${types.map((type) => candidates(type, tier, threshold)).join(' UNION ALL ')})
    SELECT totals.total, totals.capped, ${tier === 'words' ? PREFIXES_HELD : 'NULL::boolean'} AS prefixes_held,
      page.kind, page.id, page.title, page.subtitle, page.score
    FROM (SELECT count(*)::int AS total,
            EXISTS (SELECT 1 FROM found GROUP BY kind HAVING bool_or(sampled) OR count(*) >= ${CANDIDATE_CAP}) AS capped FROM found) AS totals
    LEFT JOIN (SELECT kind, id, title, subtitle, ${score(tier)}::float8 AS score FROM found, q
               ORDER BY score DESC, kind ASC, id ASC OFFSET $2 LIMIT $3) AS page ON true
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
  /** The words tier's: whether the prefixes tier can find anything (held-prefixes.ts). */
  prefixes_held: boolean | null;
  kind: string | null;
  id: number | null;
  title: string | null;
  subtitle: string | null;
  score: number | null;
}

/** The parameters every tier's statement begins with: the query, then the page's offset and size. */
const tierParams = (request: SearchRequest) => [request.q, request.skip, request.take];

/**
 * The words and typo tiers are planned once per connection (a generic plan), in a transaction of their own, where
 * the serving session plans every prepared statement for its parameters. Their plans do not depend on the query:
 * each record type's sample is read through its sample index, and the whole full-text index only when the sample
 * holds fewer than CANDIDATE_CAP candidates, so a custom plan was the same plan made again on every call. Planning
 * the six-branch statement was 1.9 of `walker`'s 6.3 ms at 100k records per vertical; the typo tier's statement
 * for `acme` 2.3 → 0.65 ms; never slower at 10M records and the same hits (docs/performance.md, item 22). The
 * prefixes tier keeps custom plans: for `john smith` at 10M records its generic plan was four times slower.
 */
const GENERIC_PLAN = `set_config('plan_cache_mode', 'force_generic_plan', true)`;

type TierSearch = (db: Database, request: SearchRequest, threshold: number) => Promise<SearchRow[] | null>;

const wordsTier: TierSearch = (db, request, threshold) =>
  db.servingTransaction(async (sql) => {
    await sql.query(`SELECT ${GENERIC_PLAN}`, [], { prepared: true });
    return sql.query<SearchRow>(searchStatement(request.types, 'words', threshold), tierParams(request), {
      prepared: true,
    });
  });

/** One statement, planned for its query on the serving session: no transaction. */
const prefixesTier: TierSearch = (db, request, threshold) =>
  db.sql.query<SearchRow>(searchStatement(request.types, 'prefixes', threshold), tierParams(request), {
    prepared: true,
  });

/**
 * Settings of the typo tier's transaction only, so they never leak into another query on a pooled connection: the
 * similarity of a held word ($1, typo-words.ts), the tier's time budget ($2) and generic plans. Like the exact
 * tiers, it relies on the serving session for the rest (subgraphs/platform/database.ts): no JIT (compiling this
 * statement cost 70-170 ms at 1M records, more than the search itself), no parallel workers and no synchronised
 * sequential scans (a capped scan must find the same candidates on every call, or page 2 could repeat page 1's
 * hits).
 */
const TYPO_SETTINGS = `SELECT set_config('pg_trgm.word_similarity_threshold', $1, true),
  set_config('statement_timeout', $2, true), ${GENERIC_PLAN}`;

/**
 * The typo tier checks its condition on every record holding a similar word until its cap is full; when few of
 * them pass (a query similar to common words in few records' runs) that is many records. Before the vocabulary
 * it read the trigram posting lists of every record (95 s for `acme` at 10M records per vertical). It stays best
 * effort: past SEARCH_TYPO_BUDGET_MS PostgreSQL cancels it and the search answers with what the exact tiers found
 * (nothing). The other tiers stop at their candidate caps and carry no budget.
 */
const typoTier: TierSearch = async (db, request, threshold) => {
  const settings = [String(HELD_WORD_SIMILARITY), String(env.SEARCH_TYPO_BUDGET_MS)];
  try {
    return await db.servingTransaction(async (sql) => {
      await sql.query(TYPO_SETTINGS, settings, { prepared: true });
      const words = await sql.query<QueryWordRow>(QUERY_WORDS_SQL, [request.q], { prepared: true });
      const candidateWords = typoCandidateQuery(words, words[0]?.query_trigrams ?? 0, threshold);
      if (candidateWords === null) return null;
      return sql.query<SearchRow>(
        searchStatement(request.types, 'fuzzy', threshold),
        [...tierParams(request), candidateWords],
        { prepared: true },
      );
    });
  } catch (error) {
    if (wasCanceledByTimeout(error)) return null;
    throw error;
  }
};

/** Each tier's search. `null` ends the search with what the tiers before found: the typo tier past its budget or without candidate words. */
const TIER_SEARCHES: Record<Tier, TierSearch> = { words: wordsTier, prefixes: prefixesTier, fuzzy: typoTier };

/** PostgreSQL's query_canceled, as `pg` (and Prisma, for a raw query) reports it. */
export function wasCanceledByTimeout(error: unknown): boolean {
  const { code, meta, message } = error as { code?: string; meta?: { code?: string }; message?: string };
  return code === '57014' || meta?.code === '57014' || /statement timeout/i.test(message ?? '');
}

/** One page of ranked hits across the asked record types, the number of candidates, and whether a type was capped. */
export async function searchRecords(
  db: Database,
  request: SearchRequest,
): Promise<{ hits: SearchHitRow[]; total: number; capped: boolean }> {
  if (request.types.length === 0) return { hits: [], total: 0, capped: false };
  const threshold = wordSimilarityThreshold(request.q);
  let rows: SearchRow[] = [];
  for (const tier of TIERS) {
    if (tier === 'prefixes' && rows[0]?.prefixes_held === false) continue;
    const found = await TIER_SEARCHES[tier](db, request, threshold);
    if (found === null) break;
    rows = found;
    if ((rows[0]?.total ?? 0) > 0) break;
  }
  const hits = rows.filter((row) => row.kind !== null) as SearchHitRow[];
  return { hits, total: rows[0]?.total ?? 0, capped: rows[0]?.capped ?? false };
}
