import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CANDIDATE_CAP,
  foldedText,
  SAMPLE_CAP,
  SAMPLE_MODULUS,
  searchRecords,
  searchStatement,
  wasCanceledByTimeout,
  wordSimilarityThreshold,
} from '../../subgraphs/verticals/search/query.ts';
import { env } from '../../subgraphs/platform/config.ts';
import { PREFIXES_HELD } from '../../subgraphs/verticals/search/held-prefixes.ts';
import { RECORD_TYPES } from '../../subgraphs/verticals/record-type/catalog.ts';
import { createTestDatabases } from '../support/databases.ts';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300, liveScale: 300 });
});
afterAll(() => service?.stop());

/** Query.search is limited per account per minute: each test searches as an account of its own. */
async function searcher() {
  const { key } = await service.createKey();
  return (query: string) => service.get(`/api/v1/search?${query}`, key);
}

interface Hit {
  vertical: string;
  type: string;
  id: string;
  title: string;
  subtitle: string;
  score: number;
}

describe('GET /api/v1/search', () => {
  it('finds a firm by its name in any case, with a typo, ranked first, naming vertical, type, id and title', async () => {
    const search = await searcher();
    const [firm] = await service.databases.sandbox.sql.query<{ id: number; name: string }>(
      `SELECT id, name FROM firms WHERE length(name) > 12 ORDER BY id LIMIT 1`,
    );
    const exact = await search(`q=${encodeURIComponent(firm!.name)}`);
    expect(exact.status).toBe(200);
    expect(Object.keys(exact.body).sort()).toEqual(['data', 'pagination', 'success']);
    expect(exact.body.data[0]).toMatchObject({
      vertical: 'legal',
      type: 'firm',
      id: `firm_${firm!.id}`,
      title: firm!.name,
    });
    for (const hit of exact.body.data as Hit[]) {
      expect(Object.keys(hit)).toEqual(['vertical', 'type', 'id', 'title', 'subtitle', 'score']);
      expect(typeof hit.score).toBe('number');
    }
    const scores = exact.body.data.map((hit: Hit) => hit.score);
    expect(scores).toEqual([...scores].sort((a: number, b: number) => b - a));

    // One letter wrong, one dropped, shouting: still found.
    const word = firm!.name.split(' ')[0]!;
    const typo = `${word.slice(0, 2)}${word[3] ?? ''}${word[2] ?? ''}${word.slice(4)}`.toUpperCase();
    const fuzzy = await search(
      `q=${encodeURIComponent(`${typo} ${firm!.name.split(' ').slice(1).join(' ')}`)}&verticals=legal`,
    );
    expect(fuzzy.body.data.map((hit: Hit) => hit.id)).toContain(`firm_${firm!.id}`);
  });

  it('searches every vertical by default and only the named ones when asked', async () => {
    const search = await searcher();
    const [owner] = await service.databases.sandbox.sql.query<{ name: string }>(
      `SELECT split_part(name, ' ', 1) AS name FROM owners WHERE owner_type = 'individual' ORDER BY id LIMIT 1`,
    );
    const everywhere = await search(`q=${encodeURIComponent(owner!.name)}&per_page=100`);
    const verticals = new Set(everywhere.body.data.map((hit: Hit) => hit.vertical));
    expect(verticals.size).toBeGreaterThan(1);
    const onlyTwo = await search(`q=${encodeURIComponent(owner!.name)}&verticals=b2b,legal&per_page=100`);
    expect(onlyTwo.body.data.length).toBeGreaterThan(0);
    for (const hit of onlyTwo.body.data as Hit[]) expect(['b2b', 'legal']).toContain(hit.vertical);
    for (const hit of everywhere.body.data as Hit[]) {
      const prefix = {
        company: 'b2b',
        contact: 'contact',
        property: 'prop',
        owner: 'owner',
        attorney: 'atty',
        firm: 'firm',
      }[hit.type];
      expect(hit.id.startsWith(`${prefix}_`)).toBe(true);
    }
  });

  it('finds a property by a part of its address and a person by last name', async () => {
    const search = await searcher();
    const [property] = await service.databases.sandbox.sql.query<{ id: number; address: string }>(
      `SELECT id, address FROM properties ORDER BY id LIMIT 1`,
    );
    const response = await search(
      `q=${encodeURIComponent(property!.address.split(',')[0]!.toLowerCase())}&verticals=realestate`,
    );
    expect(response.body.data.map((hit: Hit) => hit.id)).toContain(`prop_${property!.id}`);
    const [attorney] = await service.databases.sandbox.sql.query<{ id: number; first_name: string; last_name: string }>(
      `SELECT id, first_name, last_name FROM attorneys ORDER BY id LIMIT 1`,
    );
    const byName = await search(
      `q=${encodeURIComponent(`${attorney!.first_name} ${attorney!.last_name}`)}&verticals=legal`,
    );
    expect(byName.body.data[0]).toMatchObject({
      id: `atty_${attorney!.id}`,
      type: 'attorney',
      title: `${attorney!.first_name} ${attorney!.last_name}`,
    });
  });

  it('pages through the hits without overlap', async () => {
    const search = await searcher();
    const [common] = await service.databases.sandbox.sql.query<{ name: string }>(
      `SELECT word AS name FROM ts_stat('SELECT to_tsvector(''simple'', verticals_search_text(name)) FROM companies')
       ORDER BY ndoc DESC, word LIMIT 1`,
    );
    const q = encodeURIComponent(common!.name);
    const all = await search(`q=${q}&per_page=20`);
    const total = all.body.pagination.total;
    expect(total).toBeGreaterThan(10);
    const first = await search(`q=${q}&per_page=5`);
    const second = await search(`q=${q}&per_page=5&page=2`);
    expect([...first.body.data, ...second.body.data].map((hit: Hit) => hit.id)).toEqual(
      all.body.data.slice(0, 10).map((hit: Hit) => hit.id),
    );
    expect(second.body.pagination).toMatchObject({ page: 2, per_page: 5, total, total_pages: Math.ceil(total / 5) });
    const past = await search(`q=${q}&per_page=100&page=${Math.ceil(total / 100) + 1}`);
    expect(past.body.data).toEqual([]);
  });

  it('finds whole words first, word prefixes only when no record holds the whole words, and typos last', async () => {
    const search = await searcher();
    const db = service.databases.sandbox.sql;
    await db.query(`INSERT INTO firms (name, hq_city, hq_state, size, practice_areas, website, founded_year) VALUES
      ('Quorvant Holdings', 'Austin', 'TX', 5, '{}', 'https://quorvant.test', 2001),
      ('Quorvantix Systems', 'Austin', 'TX', 5, '{}', 'https://quorvantix.test', 2002)`);
    const titles = async (q: string) =>
      ((await search(`q=${encodeURIComponent(q)}&verticals=legal`)).body.data as Hit[]).map((hit) => hit.title).sort();
    expect(await titles('quorvant')).toEqual(['Quorvant Holdings']);
    expect(await titles('QUORV')).toEqual(['Quorvant Holdings', 'Quorvantix Systems']);
    expect(await titles('quorvnt')).toContain('Quorvant Holdings');
    expect(await titles('zzqxv')).toEqual([]);
  });

  it('ranks at most CANDIDATE_CAP matches per record type: total is then a lower bound, flagged as an estimate', async () => {
    const search = await searcher();
    const db = service.databases.sandbox.sql;
    await db.query(`INSERT INTO firms (name, hq_city, hq_state, size, practice_areas, website, founded_year)
      SELECT 'Plenbrook Partners ' || n, 'Austin', 'TX', 5, '{}', 'https://plenbrook.test', 2000
      FROM generate_series(1, ${CANDIDATE_CAP + 20}) AS n`);
    await db.query(`INSERT INTO firms (name, hq_city, hq_state, size, practice_areas, website, founded_year)
      SELECT 'Sorvell Partners ' || n, 'Austin', 'TX', 5, '{}', 'https://sorvell.test', 2000 FROM generate_series(1, 7) AS n`);
    const [stored] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM firms WHERE name LIKE 'Plenbrook %'`,
    );
    expect(stored!.n).toBeGreaterThan(CANDIDATE_CAP);

    const capped = await search('q=plenbrook&verticals=legal&per_page=100');
    expect(capped.body.pagination).toMatchObject({
      total: CANDIDATE_CAP,
      total_is_estimate: true,
      total_pages: Math.ceil(CANDIDATE_CAP / 100),
    });
    const ids = new Set<string>();
    for (let page = 1; page <= Math.ceil(CANDIDATE_CAP / 30); page += 1) {
      const response = await search(`q=plenbrook&verticals=legal&per_page=30&page=${page}`);
      expect(response.body.pagination).toMatchObject({ total: CANDIDATE_CAP, total_is_estimate: true });
      for (const hit of response.body.data as Hit[]) {
        expect(hit.title.startsWith('Plenbrook Partners')).toBe(true);
        ids.add(hit.id);
      }
    }
    expect(ids.size).toBe(CANDIDATE_CAP);

    const exact = await search('q=sorvell&verticals=legal');
    expect(exact.body.pagination).toMatchObject({ total: 7, total_is_estimate: false });
    const none = await search('q=sorvell&verticals=legal&page=3&per_page=5');
    expect(none.body.data).toEqual([]);
    expect(none.body.pagination).toMatchObject({ total: 7, total_pages: 2, total_is_estimate: false });
  });

  it('takes a common word’s SAMPLE_CAP candidates from the fixed sample, the same on every page; a rarer word’s from all', async () => {
    const search = await searcher();
    const db = service.databases.sandbox.sql;
    // Enough holders that the sample (ids that are multiples of SAMPLE_MODULUS) holds more than SAMPLE_CAP.
    const holders = SAMPLE_MODULUS * (SAMPLE_CAP + 10);
    await db.query(`INSERT INTO firms (name, hq_city, hq_state, size, practice_areas, website, founded_year)
      SELECT 'Quennford Legal ' || n, 'Boise', 'ID', 5, '{}', 'https://quennford.test', 2001
      FROM generate_series(1, ${holders}) AS n`);
    await db.query(`INSERT INTO firms (name, hq_city, hq_state, size, practice_areas, website, founded_year)
      SELECT 'Marrowgate Legal ' || n, 'Boise', 'ID', 5, '{}', 'https://marrowgate.test', 2001
      FROM generate_series(1, ${CANDIDATE_CAP * 2}) AS n`);
    // Fewer holders than CANDIDATE_CAP but more than SAMPLE_CAP: every one of them is ranked, and the total is exact.
    await db.query(`INSERT INTO firms (name, hq_city, hq_state, size, practice_areas, website, founded_year)
      SELECT 'Tervane Legal ' || n, 'Boise', 'ID', 5, '{}', 'https://tervane.test', 2001
      FROM generate_series(1, ${CANDIDATE_CAP - 10}) AS n`);
    try {
      const idsOf = async (q: string, total: number, estimate: boolean) => {
        const ids: number[] = [];
        for (let page = 1; page <= Math.ceil(total / 25); page += 1) {
          const response = await search(`q=${q}&verticals=legal&per_page=25&page=${page}`);
          expect(response.body.pagination).toMatchObject({ total, total_is_estimate: estimate });
          ids.push(...(response.body.data as Hit[]).map((hit) => Number(hit.id.replace('firm_', ''))));
        }
        return ids;
      };
      const common = await idsOf('quennford', SAMPLE_CAP, true);
      expect(new Set(common).size).toBe(SAMPLE_CAP);
      expect(common.every((id) => id % SAMPLE_MODULUS === 0)).toBe(true);
      expect(await idsOf('quennford', SAMPLE_CAP, true)).toEqual(common);
      // 200 holders: the sample holds three or four of them, so the candidates come from the whole index.
      const rarer = await idsOf('marrowgate', CANDIDATE_CAP, true);
      expect(new Set(rarer).size).toBe(CANDIDATE_CAP);
      expect(rarer.filter((id) => id % SAMPLE_MODULUS !== 0).length).toBeGreaterThan(CANDIDATE_CAP / 2);
      expect(new Set(await idsOf('tervane', CANDIDATE_CAP - 10, false)).size).toBe(CANDIDATE_CAP - 10);
    } finally {
      await db.query(
        `DELETE FROM firms WHERE name LIKE 'Quennford Legal %' OR name LIKE 'Marrowgate Legal %' OR name LIKE 'Tervane Legal %'`,
      );
    }
  });

  it.each([
    ['', 'q'],
    ['q=', 'q'],
    ['q=%20%20', 'q'],
    [`q=${'a'.repeat(101)}`, 'q'],
    ['q=smith&verticals=space', 'verticals'],
    ['q=smith&per_page=101', 'per_page'],
    ['q=smith&page=0', 'page'],
    ['q=smith&page=11&per_page=100', 'page'],
    ['q=smith&sort=score', 'sort'],
  ])('answers %s with a 400 naming %s', async (query, parameter) => {
    const search = await searcher();
    const response = await search(query);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_parameter');
    expect(Object.keys(response.body.details)).toEqual([parameter]);
  });

  it('is the same search in GraphQL, with the records behind the hits', async () => {
    const { key } = await service.createKey();
    const rest = await service.get('/api/v1/search?q=law&verticals=legal', key);
    const data = await service.graphql(
      `{ search(q: "law", verticals: "legal") { nodes { id type record { __typename ... on Firm { id name } ... on Attorney { id name } } } pageInfo { total } } }`,
      {},
      key,
    );
    expect(data.search.nodes.map((hit: { id: string }) => hit.id)).toEqual(rest.body.data.map((hit: Hit) => hit.id));
    expect(data.search.pageInfo.total).toBe(rest.body.pagination.total);
    for (const hit of data.search.nodes) expect(hit.record.id).toBe(hit.id);
  });
});

describe('the time budget of the typo tier (SEARCH_TYPO_BUDGET_MS)', () => {
  it('recognises PostgreSQL cancelling a statement past its statement_timeout (PGlite enforces none)', async () => {
    const { prisma, engine } = service.databases.sandbox;
    const outcome = await prisma
      .$transaction([
        prisma.$queryRawUnsafe(`SELECT set_config('statement_timeout', '50', true)`),
        prisma.$queryRawUnsafe('SELECT pg_sleep(0.5)::text'),
      ])
      .then(
        () => 'completed',
        (error: unknown) => error,
      );
    if (engine === 'pglite') {
      // Single-threaded WASM has no timer to cancel with: there the budget does not apply (docs/api.md).
      expect(outcome).toBe('completed');
    } else {
      expect(wasCanceledByTimeout(outcome)).toBe(true);
    }
    const other = await prisma.$queryRawUnsafe('SELECT * FROM no_such_table').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(other).toBeDefined();
    expect(wasCanceledByTimeout(other)).toBe(false);
  });

  it('answers a search whose typo tier ran out of time with what the exact tiers found, not an error', async () => {
    const search = await searcher();
    const saved = env.SEARCH_TYPO_BUDGET_MS;
    env.SEARCH_TYPO_BUDGET_MS = 1;
    try {
      const response = await search('q=zqxjvw');
      expect(response.status).toBe(200);
      expect(response.body.pagination).toMatchObject({ total: 0 });
    } finally {
      env.SEARCH_TYPO_BUDGET_MS = saved;
    }
  });
});

/** A firm whose name's words no generated record holds. */
const INSERT_RARE_FIRM = `INSERT INTO firms (name, hq_city, hq_state, size, practice_areas, website, founded_year)
  VALUES ('Thrushcombe Advisory', 'Omaha', 'NE', 5, '{}', 'https://thrushcombe.test', 1999)`;

describe('the search statements’ plans', () => {
  it('the words and typo tiers are planned once per connection on PostgreSQL, the prefixes tier on every call', async () => {
    // A pool of its own: with nothing else on it, consecutive searches take the same connection.
    const store = await createTestDatabases();
    try {
      const db = store.databases.live;
      await db.sql.query(INSERT_RARE_FIRM);
      const search = (q: string) => searchRecords(db, { q, types: RECORD_TYPES, skip: 0, take: 5 });
      const statement = (tier: 'words' | 'prefixes' | 'fuzzy', q: string) =>
        searchStatement(RECORD_TYPES, tier, wordSimilarityThreshold(q));
      for (let call = 0; call < 3; call++) {
        // A typo: no record holds the word nor begins a word with it, so the words tier runs, then the typo tier.
        expect((await search('thrushcomve')).hits.map((hit) => hit.title)).toEqual(['Thrushcombe Advisory']);
        expect((await search('thrushc')).hits.map((hit) => hit.title)).toEqual(['Thrushcombe Advisory']);
      }
      const plans = await db.servingTransaction((sql) =>
        sql.query<{ statement: string; generic: number; custom: number }>(
          `SELECT statement, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements`,
        ),
      );
      const plansOf = (text: string) =>
        plans.filter((plan) => plan.statement === text).map(({ generic, custom }) => ({ generic, custom }));
      // PGlite keeps no statement prepared between calls: each is planned when it runs.
      const expected = (plan: { generic: number; custom: number }) => (db.engine === 'pglite' ? [] : [plan]);
      // Both queries begin with the words tier, whose text does not depend on the query's threshold.
      expect(plansOf(statement('words', 'thrushcomve'))).toEqual(expected({ generic: 6, custom: 0 }));
      expect(plansOf(statement('fuzzy', 'thrushcomve'))).toEqual(expected({ generic: 3, custom: 0 }));
      expect(plansOf(statement('prefixes', 'thrushc'))).toEqual(expected({ generic: 0, custom: 3 }));
    } finally {
      await store.drop();
    }
  });
});

describe('search indexes', () => {
  it('fold text outside index conditions as verticals_search_text does (query.ts foldedText)', async () => {
    const db = service.databases.sandbox.sql;
    const [definition] = await db.query<{ body: string }>(
      `SELECT prosrc AS body FROM pg_proc WHERE proname = 'verticals_search_text'`,
    );
    expect(definition!.body.trim()).toBe(`SELECT ${foldedText('value')}`);
    const samples = ['Ærøskøbing MÜLLER & Søn', 'ÉCOLE Ñandú', 'plain words', ''];
    const folded = await db.query<{ byFunction: string; byExpression: string }>(
      `SELECT verticals_search_text(s) AS "byFunction", ${foldedText('s')} AS "byExpression" FROM unnest($1::text[]) AS s`,
      [samples],
    );
    expect(folded.map((row) => row.byExpression)).toEqual(folded.map((row) => row.byFunction));
    expect(folded[0]!.byExpression).toBe('aeroskobing muller & son');
  });

  it.each(RECORD_TYPES.map((type) => [type.table, type]))(
    'the search vocabulary is kept from the searched text of %s, on insert and on update',
    async (_table, type) => {
      const triggers = await service.databases.sandbox.sql.query<{ definition: string }>(
        `SELECT pg_get_triggerdef(oid) AS definition FROM pg_trigger WHERE tgrelid = $1::regclass AND tgname LIKE '%search_words%'`,
        [type.table],
      );
      expect(triggers.map((trigger) => /AFTER (\w+)/.exec(trigger.definition)![1]).sort()).toEqual([
        'INSERT',
        'UPDATE',
      ]);
      for (const { definition } of triggers)
        expect(definition).toContain(`search_words_add('${type.search.text.replaceAll("'", "''")}')`);
    },
  );

  it.each(RECORD_TYPES.map((type) => [type.table, type]))(
    'a trigram, a full-text and a sampled full-text index serve %s',
    async (_table, type) => {
      const db = service.databases.sandbox;
      const text = `verticals_search_text(${type.search.text})`;
      const plans = await db.prisma.$transaction(async (tx) => {
        // Only bitmap scans left: on a few hundred rows a full scan of any index on the name would cost less.
        await tx.$queryRawUnsafe(
          `SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
          set_config('enable_indexonlyscan', 'off', true)`,
        );
        const trigram = await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
          `EXPLAIN SELECT id FROM ${type.table} WHERE ${text} %> 'smith'`,
        );
        const words = await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
          `EXPLAIN SELECT id FROM ${type.table} WHERE to_tsvector('simple', ${text}) @@ plainto_tsquery('simple', 'smith')`,
        );
        const sampled = await tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
          `EXPLAIN SELECT id FROM ${type.table}
            WHERE id % ${SAMPLE_MODULUS} = 0 AND to_tsvector('simple', ${text}) @@ plainto_tsquery('simple', 'smith')`,
        );
        return [trigram, words, sampled].map((plan) => plan.map((row) => row['QUERY PLAN']).join('\n'));
      });
      expect(plans[0]).toContain(`${type.table}_`);
      expect(plans[0]).toMatch(/search_trgm_idx/);
      expect(plans[1]).toMatch(/search_fts_idx/);
      expect(plans[2]).toMatch(/search_sample_idx/);
    },
  );
});

describe('the vocabulary probe before the prefixes tier (held-prefixes.ts)', () => {
  it('rules the tier out only when some query word begins no word of the vocabulary', async () => {
    const db = service.databases.sandbox.sql;
    await db.query(INSERT_RARE_FIRM);
    const held = async (q: string) =>
      (await db.query<{ held: boolean }>(`SELECT ${PREFIXES_HELD} AS held`, [q]))[0]!.held;
    const plan = await service.databases.sandbox.prisma.$transaction(async (tx) => {
      // On a few hundred words a full scan would cost less; the index is what holds at millions of them.
      await tx.$queryRawUnsafe(`SELECT set_config('enable_seqscan', 'off', true)`);
      return tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN SELECT ${PREFIXES_HELD}`, 'thrushc');
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/search_words_bytewise_idx/);
    expect(await held('thrushcombe advisory')).toBe(true);
    expect(await held('THRÜSHC ADVIS')).toBe(true);
    // Right after the last word beginning with the prefix, and past the end of the vocabulary.
    expect(await held('thrushcombf')).toBe(false);
    expect(await held('thrushc zzzzzzzz')).toBe(false);
    expect(await held('&&')).toBe(false);
    // Words of deleted records stay: the probe lets the tier run, and the tier finds nothing.
    await db.query(`DELETE FROM firms WHERE name = 'Thrushcombe Advisory'`);
    expect(await held('thrushc')).toBe(true);
    const search = await searcher();
    expect((await search('q=thrushc')).body.pagination).toMatchObject({ total: 0 });
  });
});
