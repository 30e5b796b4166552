import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../subgraphs/verticals/record-type/catalog.ts';
import { wordSimilarityThreshold } from '../../subgraphs/verticals/search/query.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

/**
 * The universal search against its definition (docs/api.md, "Universal search"), read the slow and obvious way:
 * every record of every type scored, no candidate cap, no index, no vocabulary. On the sandbox no type reaches
 * the cap, so the service's top hits must be exactly these for a fixed list of queries: whole words, prefixes,
 * typos in one and in several words, folded accents, and words found nowhere.
 */
let service: TestService;

const QUERIES = [
  // tier 1, whole words
  'walker',
  'NVIDIA',
  'herzog',
  'capital llc',
  'washington avenue',
  'Berkshire Hathaway',
  'Rodríguez',
  // tier 2, prefixes
  'walk',
  'micro',
  'schow',
  'luettg',
  // tier 3, typos
  'walkr',
  'nvidai',
  'herzgo',
  'berkshire hathway',
  'jaskolsky',
  'micrsoft corporation',
  'wiegnad',
  'shanahan & kohc',
  'tillmann',
  // nowhere
  'acme',
  'zzqxv',
] as const;

const FOLDED = `lower(unaccent('public.unaccent'::regdictionary, $1::text))`;
const WORDS = `plainto_tsquery('simple', ${FOLDED})`;
const PREFIXES = `to_tsquery('simple', regexp_replace(${WORDS}::text, '''([^'' ]{3,})''', '''\\1'':*', 'g'))`;
const CONDITIONS = {
  words: (t: string) => `to_tsvector('simple', ${t}) @@ ${WORDS}`,
  prefixes: (t: string) => `to_tsvector('simple', ${t}) @@ ${PREFIXES}`,
  typos: (t: string, q: string) => `word_similarity(${FOLDED}, ${t}) >= ${wordSimilarityThreshold(q)}`,
};
const SCORE = (t: string) => `word_similarity(${FOLDED}, ${t}) * 0.5 + similarity(${FOLDED}, ${t}) * 0.3
  + CASE WHEN to_tsvector('simple', ${t}) @@ ${WORDS} THEN 0.2 + ts_rank(to_tsvector('simple', ${t}), ${WORDS}) ELSE 0 END`;

/** The top ten of the first tier with any match, as `kind_id`, by the documented ranking. */
async function referenceTopTen(q: string): Promise<string[]> {
  for (const condition of Object.values(CONDITIONS)) {
    const union = RECORD_TYPES.map((type) => {
      const t = `lower(unaccent('public.unaccent'::regdictionary, ${type.search.text}))`;
      return `SELECT '${type.kind}' AS kind, id, (${SCORE(t)})::float8 AS score
        FROM ${type.table} WHERE ${condition(t, q)}`;
    }).join(' UNION ALL ');
    const rows = await service.databases.sandbox.sql.query<{ kind: string; id: number }>(
      `SELECT kind, id FROM (${union}) hits ORDER BY score DESC, kind ASC, id ASC LIMIT 10`,
      [q],
    );
    if (rows.length > 0)
      return rows.map((row) => RECORD_TYPES.find((type) => type.kind === row.kind)!.ids.format(row.id));
  }
  return [];
}

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300 });
});
afterAll(() => service?.stop());

describe('universal search against its definition', () => {
  it.each(QUERIES)('%s: the same top ten as every record scored', async (q) => {
    const { key } = await service.createKey(); // search is limited per account per minute
    const response = await service.get(`/api/v1/search?q=${encodeURIComponent(q)}&per_page=10`, key);
    expect(response.status).toBe(200);
    expect(response.body.pagination.total_is_estimate).toBe(false);
    expect(response.body.data.map((hit: { id: string }) => hit.id)).toEqual(await referenceTopTen(q));
  });

  it('finds something for every query of the list but the two found nowhere', async () => {
    const found = await Promise.all(QUERIES.map(async (q) => (await referenceTopTen(q)).length > 0));
    expect(QUERIES.filter((_, index) => !found[index])).toEqual(['acme', 'zzqxv']);
  });
});
