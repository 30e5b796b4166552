import { z } from 'zod';
import type { CongressionalTrade as TradeRow, Signal as SignalRow } from '../../../prisma/generated/client/client.ts';
import { signalHistoryStart } from '../../shared/plans.ts';
import { parseArguments } from '../../shared/validation.ts';
import { builder } from '../builder.ts';
import { convergenceLeads } from '../convergence-score.ts';
import type { ConvergenceLead as LeadSource } from '../convergence-score.ts';
import { CURRENT_TRADES, CongressionalTrade, daysAgo } from './congressional-trade.ts';
import { Signal } from './signal.ts';

/** Purchases of the last 90 days (the document's window) meet signals of the last 30 days. */
export const CONVERGENCE_PURCHASE_DAYS = 90;
export const CONVERGENCE_SIGNAL_DAYS = 30;

const ScoreBreakdown = builder.objectRef<LeadSource<TradeRow, SignalRow>['scoreBreakdown']>('ConvergenceScoreBreakdown').implement({
  description: 'The parts of a lead’s score (see docs/api.md, Markets: convergence).',
  fields: (t) => ({
    members: t.exposeInt('members', { description: '15 per distinct buying member, at most 45.' }),
    purchases: t.exposeInt('purchases', { description: '5 per purchase, at most 20.' }),
    signals: t.exposeInt('signals', { description: '10 per bullish, 4 per neutral signal, at most 35.' }),
  }),
});

const ConvergenceLead = builder.objectRef<LeadSource<TradeRow, SignalRow>>('ConvergenceLead').implement({
  description: 'A ticker bought by members of Congress in the last 90 days that also has signals of the last 30 days.',
  fields: (t) => ({
    ticker: t.exposeString('ticker'),
    companyName: t.exposeString('companyName'),
    congressBuys: t.exposeInt('congressBuys'),
    totalSignals: t.exposeInt('totalSignals'),
    bullishSignals: t.exposeInt('bullishSignals'),
    congressMembers: t.exposeStringList('congressMembers', { description: 'Names of the buying members, sorted.' }),
    score: t.exposeInt('score', { description: '0-100: members + purchases + signals parts.' }),
    scoreBreakdown: t.field({ type: ScoreBreakdown, resolve: (lead) => lead.scoreBreakdown }),
    firstPurchaseDate: t.field({ type: 'Date', resolve: (lead) => lead.firstPurchaseDate }),
    lastPurchaseDate: t.field({ type: 'Date', resolve: (lead) => lead.lastPurchaseDate }),
    lastSignalAt: t.field({ type: 'DateTime', resolve: (lead) => lead.lastSignalAt }),
    purchases: t.field({ type: [CongressionalTrade], description: 'The evidence: the purchases, newest first.', resolve: (lead) => lead.purchases }),
    signals: t.field({ type: [Signal], description: 'The evidence: the signals, newest first.', resolve: (lead) => lead.signals }),
  }),
});

const leadArgs = z.object({ limit: z.number().int().min(1, 'must be from 1 to 100').max(100, 'must be from 1 to 100') });

builder.queryFields((t) => ({
  convergenceLeads: t.field({
    type: [ConvergenceLead],
    description: 'Tickers where congressional purchases and recent signals coincide, best score first.',
    args: { limit: t.arg.int({ required: false }) },
    resolve: async (_root, args, context) => {
      const { limit } = parseArguments(leadArgs, { limit: args.limit ?? 20 });
      const purchases = await context.db.prisma.congressionalTrade.findMany({
        where: { ...CURRENT_TRADES, tradeType: 'purchase', ticker: { not: null }, tradeDate: { gte: daysAgo(CONVERGENCE_PURCHASE_DAYS) } },
      });
      const planStart = signalHistoryStart(context.viewer?.plan);
      const window = new Date(Date.now() - CONVERGENCE_SIGNAL_DAYS * 86_400_000);
      const signals = await context.db.prisma.signal.findMany({
        where: {
          ticker: { in: [...new Set(purchases.map((purchase) => purchase.ticker!))] },
          createdAt: { gte: planStart && planStart > window ? planStart : window },
        },
      });
      return convergenceLeads(purchases, signals).slice(0, limit);
    },
  }),
}));
