import { z } from 'zod';
import type { Prisma } from '../../../prisma/generated/client/client.ts';
import type { RequestContext } from '../../platform/context.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import type { ArgumentValues } from '../../platform/arguments.ts';
import { isoDate } from '../../platform/dates.ts';
import { parseUuid } from '../../platform/ids.ts';
import { definePageObject, pageSource } from '../../platform/page-object.ts';
import { pageArgument, pageSizeArgument, resolvePaging } from '../../platform/paging.ts';
import { countTotal } from '../../platform/totals.ts';
import { PageInfo, builder } from '../builder.ts';
import { FORM4_TRANSACTION_CODES } from '../form4-codes.ts';
import { insiderQuery, matchingInsiderNames } from '../insider-match.ts';
import { TICKER_FORMAT, tickerSymbol } from '../tickers.ts';
import { reads } from '../../platform/selected-fields.ts';

/** The EDGAR folder of the filing; null for a filing imported without its accession number (`local-…`). */
function filingUrl(issuerCik: string, accession: string): string | null {
  if (!/^\d{10}-\d{2}-\d{6}$/.test(accession)) return null;
  return `https://www.sec.gov/Archives/edgar/data/${Number(issuerCik)}/${accession.replace(/-/g, '')}`;
}

export const InsiderTrade = builder.prismaObject('InsiderTransaction', {
  name: 'InsiderTrade',
  description: 'One transaction of a Form 4 filing by an insider (officer, director, 10% owner) of a listed company.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The transaction’s id, a UUID.' }),
    ticker: t.exposeString('ticker', { description: 'The issuer’s ticker.' }),
    issuerCik: t.exposeString('issuerCik', { description: 'The company’s SEC CIK, ten digits.' }),
    insiderName: t.exposeString('ownerName', { description: 'As filed: Last First Middle.' }),
    insiderCik: t.exposeString('ownerCik', { description: 'The insider’s SEC CIK, ten digits.' }),
    insiderTitle: t.exposeString('ownerTitle', {
      nullable: true,
      description: 'Officer title, else Director or 10% Owner.',
    }),
    securityTitle: t.exposeString('securityTitle', { description: 'The security traded, as filed (Common Stock).' }),
    derivative: t.exposeBoolean('derivative', {
      description: 'A Table II row (option, warrant, convertible): its terms are in the option fields.',
    }),
    transactionDate: t.expose('transactionDate', { type: 'Date', description: 'The day of the transaction.' }),
    transactionCode: t.exposeString('transactionCode', {
      description: 'Form 4 code: P purchase, S sale, A award, M option exercise, F tax withholding, G gift, …',
    }),
    shares: t.exposeFloat('shares', { description: 'Shares (or derivative units) in the transaction.' }),
    pricePerShare: t.exposeFloat('pricePerShare', {
      nullable: true,
      description: 'Price per share in USD; null when none was filed (awards, gifts).',
    }),
    acquiredDisposed: t.exposeString('acquiredDisposed', { description: 'A (acquired) or D (disposed).' }),
    sharesOwnedAfter: t.exposeFloat('sharesOwnedAfter', {
      nullable: true,
      description: 'Shares the insider held after the transaction, as filed.',
    }),
    directOwnership: t.exposeBoolean('directOwnership', { description: 'False: held indirectly (trust, family).' }),
    rule10b51: t.exposeBoolean('rule10b51', { description: 'Made under a Rule 10b5-1 trading plan.' }),
    accessionNumber: t.exposeString('accessionNumber', {
      description: 'The filing’s SEC accession number, 0001234567-26-000123.',
    }),
    filingUrl: t.string({
      nullable: true,
      description: 'The filing’s EDGAR folder; null for a filing imported without an accession number.',
      extensions: reads('issuerCik', 'accessionNumber'),
      resolve: (trade) => filingUrl(trade.issuerCik, trade.accessionNumber),
    }),
    conversionOrExercisePrice: t.exposeFloat('conversionOrExercisePrice', {
      nullable: true,
      description: 'A derivative’s conversion or exercise price in USD; null otherwise.',
    }),
    exerciseDate: t.expose('exerciseDate', {
      type: 'Date',
      nullable: true,
      description: 'Null when the filing states it only in a footnote.',
    }),
    expirationDate: t.expose('expirationDate', {
      type: 'Date',
      nullable: true,
      description: 'When a derivative expires; null otherwise.',
    }),
    underlyingSecurityTitle: t.exposeString('underlyingSecurityTitle', {
      nullable: true,
      description: 'The security a derivative converts into; null otherwise.',
    }),
    underlyingShares: t.exposeFloat('underlyingShares', {
      nullable: true,
      description: 'Shares of the underlying security; null otherwise.',
    }),
  }),
});

const CODE_MESSAGE = `must be a Form 4 transaction code: ${FORM4_TRANSACTION_CODES.join(', ')}`;

const insiderFilterSpecs = {
  ticker: argument('String', tickerSymbol, { description: `Transactions of this issuer’s ticker (${TICKER_FORMAT}).` }),
  insider: argument('String', insiderQuery, {
    description: 'Part of the insider’s name, words in any order and case: scarpelli, Michael Scarpelli.',
  }),
  transactionCode: argument(
    'String',
    z
      .string()
      .max(1, CODE_MESSAGE)
      .transform((value) => value.toUpperCase())
      .pipe(z.enum(FORM4_TRANSACTION_CODES, CODE_MESSAGE)),
    { description: 'A Form 4 transaction code in either case: P, S, A, M, F, G, …' },
  ),
  from: argument('String', isoDate, { description: 'Earliest transaction date, YYYY-MM-DD.' }),
  to: argument('String', isoDate, { description: 'Latest transaction date, YYYY-MM-DD.' }),
};

const insiderFilter = defineArguments(insiderFilterSpecs, (object) =>
  object.superRefine((values, issues) => {
    const filter = values as ArgumentValues<typeof insiderFilterSpecs>;
    if (filter.from && filter.to && filter.from > filter.to) {
      issues.addIssue({ code: 'custom', path: ['from'], message: 'must not be after to' });
    }
  }),
);

/** The one place an insider trade filter becomes a Prisma `where` (the list and the connection use it). */
async function insiderTradeWhere(args: object, context: RequestContext): Promise<Prisma.InsiderTransactionWhereInput> {
  const filter = insiderFilter.parse(args);
  const names = filter.insider === undefined ? undefined : await matchingInsiderNames(context.db.sql, filter.insider);
  return {
    ticker: filter.ticker,
    transactionCode: filter.transactionCode,
    ownerName: names && { in: names },
    transactionDate: { gte: filter.from, lte: filter.to },
  };
}

const INSIDER_PAGING = { defaultPerPage: 50, maxPerPage: 200, sizeArgument: 'limit' };
// Served by the (…, transaction_date DESC, id DESC) indexes, so LIMIT stops after the page.
const INSIDER_ORDER: Prisma.InsiderTransactionOrderByWithRelationInput[] = [
  { transactionDate: 'desc' },
  { id: 'desc' },
];

const InsiderTradePage = definePageObject(builder, PageInfo, 'InsiderTradePage', InsiderTrade, 'InsiderTransaction');

const filterArgs = builder.args((t) => insiderFilter.graphql(t));

builder.queryFields((t) => ({
  insiderTrades: t.field({
    type: InsiderTradePage,
    description: 'Form 4 insider transactions, newest transaction first.',
    args: { ...filterArgs, page: pageArgument(t.arg), limit: pageSizeArgument(t.arg, INSIDER_PAGING) },
    resolve: async (_root, args, context) => {
      const paging = resolvePaging({ page: args.page, size: args.limit }, INSIDER_PAGING);
      const where = await insiderTradeWhere(args, context);
      return pageSource(where, INSIDER_ORDER, paging, () => countTotal(context.db, 'InsiderTransaction', where));
    },
  }),
  insiderTradesConnection: t.prismaConnection({
    type: InsiderTrade,
    cursor: 'id',
    description: 'The same transactions as `insiderTrades`, paged by cursor (ordered by id).',
    args: filterArgs,
    resolve: async (query, _root, args, context) =>
      context.db.prisma.insiderTransaction.findMany({ ...query, where: await insiderTradeWhere(args, context) }),
  }),
  insiderTrade: t.prismaField({
    type: InsiderTrade,
    nullable: true,
    description: 'One transaction by id; null when unknown.',
    args: { id: t.arg.id({ required: true, description: 'The transaction’s UUID.' }) },
    resolve: (query, _root, args, context) => {
      return context.db.prisma.insiderTransaction.findUnique({ ...query, where: { id: parseUuid(args.id) } });
    },
  }),
}));
