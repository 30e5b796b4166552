import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../support/service.ts';
import type { TestService } from '../support/service.ts';

// A firm's partners are read for the whole page in one statement, by name columns alone when the selection asks
// for nothing else (subgraphs/verticals/firm-partners.ts): each path must give what the plain SQL reading gives.
let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService({ sandboxScale: 300 });
  ({ key } = await service.createKey({ mode: 'sandbox' }));
});
afterAll(() => service?.stop());

interface Partner {
  id: string;
  name: string;
}

const firmNumber = (id: string) => Number(id.replace(/^firm_/, ''));

/** The partners of a firm as SQL reads them: partners of the firm, by id. */
async function partnersBySql(firmId: string) {
  return service.databases.sandbox.sql.query<{ id: string; name: string; email: string }>(
    `SELECT 'atty_' || id AS id, first_name || ' ' || last_name AS name, email
       FROM attorneys WHERE firm_id = $1 AND is_partner ORDER BY attorneys.id`,
    [firmNumber(firmId)],
  );
}

describe('firm partners', () => {
  it.each(['per_page=100', 'sort=name&per_page=7&page=2', 'min_size=5&sort=founded_year'])(
    'GET /api/v1/legal/firms?%s lists each firm’s partners as SQL reads them, without loading attorney rows through Prisma',
    async (query) => {
      service.queries.length = 0;
      const response = await service.get(`/api/v1/legal/firms?${query}`, key);
      expect(response.status).toBe(200);
      expect(service.queries.filter((sql) => sql.includes('"attorneys"'))).toEqual([]);
      const firms = response.body.data as { id: string; partners: Partner[] }[];
      expect(firms.some((firm) => firm.partners.length > 1)).toBe(true);
      for (const firm of firms) {
        const expected = (await partnersBySql(firm.id)).map(({ id, name }) => ({ id, name }));
        expect(firm.partners, firm.id).toEqual(expected);
      }
    },
  );

  it('answers other selections of partners (whole rows, nested relations) the same way over GraphQL', async () => {
    const data = await service.graphql(
      `query { firms(perPage: 50) { nodes { id partners { id name email isPartner firm { id } } } } }`,
      {},
      key,
    );
    for (const firm of data.firms.nodes as { id: string; partners: (Partner & Record<string, unknown>)[] }[]) {
      const expected = (await partnersBySql(firm.id)).map((row) => ({
        ...row,
        isPartner: true,
        firm: { id: firm.id },
      }));
      expect(firm.partners, firm.id).toEqual(expected);
    }
  });

  it('answers a fragment of name fields alone the same way as the plain selection', async () => {
    const plain = await service.graphql(`query { firms(perPage: 30) { nodes { id partners { id name } } } }`, {}, key);
    const fragment = await service.graphql(
      `query { firms(perPage: 30) { nodes { id partners { ...Named } } } }
       fragment Named on Attorney { id ... on Attorney { name } }`,
      {},
      key,
    );
    expect(fragment).toEqual(plain);
  });
});
