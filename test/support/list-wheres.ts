import type { Prisma } from '../../prisma/generated/client/client.ts';
import { tradeWhere } from '../../subgraphs/markets/types/congressional-trade.ts';
import { signalWhere } from '../../subgraphs/markets/types/signal.ts';
import type { RequestContext } from '../../subgraphs/platform/context.ts';
import { recordTypeNamed } from '../../subgraphs/verticals/record-type/catalog.ts';
import { leadWhere } from '../../subgraphs/verticals/types/lead.ts';

// The `where` of every list, with every filter at once and with single ones: what the SQL translations of a
// list (its total, its page read) are checked against Prisma with.

const whereOf = (name: string) => (args: object) => recordTypeNamed(name)!.where(args);
export const companyWhere = whereOf('companies');
const contactWhere = whereOf('contacts');
const propertyWhere = whereOf('properties');
const ownerWhere = whereOf('owners');
export const attorneyWhere = whereOf('attorneys');
const firmWhere = whereOf('firms');

export type ListWhereCase = [name: string, model: Prisma.ModelName, build: () => Promise<object> | object];

/**
 * `contextOf` gives the request context (viewer and database) the markets and lead lists filter by; it is read
 * when a case is built, after the test's setup.
 */
export const listWhereCases = (contextOf: () => RequestContext): ListWhereCase[] => [
  ['companies, every filter', 'Company', () => companyWhere({ industry: 'software', state: 'CA', minScore: 40 })],
  ['companies, min_score', 'Company', () => companyWhere({ minScore: 70 })],
  [
    'contacts, every filter',
    'Contact',
    () => contactWhere({ companyId: 'b2b_7', seniority: 'vp', department: 'sales', emailVerified: true }),
  ],
  ['contacts, email_verified', 'Contact', () => contactWhere({ emailVerified: false })],
  [
    'properties, every filter',
    'Property',
    () =>
      propertyWhere({
        state: 'CA',
        city: 'los angeles',
        zip: '90001',
        propertyType: 'condo',
        minEquity: 10,
        maxEquity: 90,
        minValue: 1000,
        maxValue: 5_000_000,
        ownerId: 'owner_3',
        absentee: false,
      }),
  ],
  [
    'properties, equity range and city in any case',
    'Property',
    () => propertyWhere({ minEquity: 20.5, maxEquity: 80, city: 'HOUSTON' }),
  ],
  [
    'owners, every filter',
    'Owner',
    () => ownerWhere({ ownerType: 'llc', minProperties: 2, minPortfolioValue: 100_000, absentee: true, state: 'TX' }),
  ],
  ['owners, min_properties', 'Owner', () => ownerWhere({ minProperties: 2 })],
  [
    'attorneys, every filter',
    'Attorney',
    () =>
      attorneyWhere({
        practiceArea: 'bankruptcy',
        state: 'NY',
        city: 'new york',
        barStatus: 'active',
        verified: true,
        firmId: 'firm_2',
      }),
  ],
  ['attorneys, practice_area', 'Attorney', () => attorneyWhere({ practiceArea: 'personal injury' })],
  [
    'attorneys, practice_area and state (one index key per pair)',
    'Attorney',
    () => attorneyWhere({ practiceArea: 'bankruptcy', state: 'NY' }),
  ],
  [
    'firms, every filter',
    'Firm',
    () => firmWhere({ practiceArea: 'Bankruptcy', state: 'CA', city: 'san francisco', minSize: 2, maxSize: 500 }),
  ],
  ['firms, size range', 'Firm', () => firmWhere({ minSize: 5, maxSize: 50 })],
  ['leads, every filter', 'Lead', () => leadWhere({ status: 'new', vertical: 'b2b', tag: 'hot' }, contextOf())],
  ['reports', 'ReportJob', () => ({ accountId: contextOf().viewer!.accountId, status: 'completed' })],
  [
    'signals, every filter, professional history',
    'Signal',
    () => signalWhere({ ticker: 'AAPL', signalType: 'insider_buy', sentiment: 'BULLISH' }, contextOf()),
  ],
  ['signals, plan history only', 'Signal', () => signalWhere({}, contextOf())],
  [
    'trades, every filter',
    'CongressionalTrade',
    () =>
      tradeWhere(
        {
          ticker: 'NVDA',
          chamber: 'house',
          party: 'D',
          tradeType: 'purchase',
          member: 'pelosi',
          from: '2020-01-01',
          to: '2030-12-31',
        },
        contextOf(),
      ),
  ],
  ['trades, member and days', 'CongressionalTrade', () => tradeWhere({ member: 'a', days: 3650 }, contextOf())],
  [
    'trades, committee',
    'CongressionalTrade',
    () => tradeWhere({ committee: 'armed services', days: 3650 }, contextOf()),
  ],
  ['trades, default window', 'CongressionalTrade', () => tradeWhere({}, contextOf())],
];
