import { z } from 'zod';
import { signalHistoryStart } from '../../platform/plans.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { builder } from '../builder.ts';
import { CONVERGENCE_EVIDENCE_LIMIT, convergenceLeadsFromDatabase } from '../convergence-query.ts';
import type { Lead } from '../convergence-query.ts';
import { CongressionalTrade, daysAgo } from './congressional-trade.ts';
import { Signal } from './signal.ts';

/** Purchases of the last 90 days (the document's window) meet signals of the last 30 days. */
export const CONVERGENCE_PURCHASE_DAYS = 90;
export const CONVERGENCE_SIGNAL_DAYS = 30;

const ScoreBreakdown = builder.objectRef<Lead['scoreBreakdown']>('ConvergenceScoreBreakdown').implement({
  description: 'The parts of a lead’s score (see docs/api.md, Markets: convergence).',
  fields: (t) => ({
    members: t.exposeInt('members', { description: '15 per distinct buying member, at most 45.' }),
    purchases: t.exposeInt('purchases', { description: '5 per purchase, at most 20.' }),
    signals: t.exposeInt('signals', { description: '10 per bullish, 4 per neutral signal, at most 35.' }),
  }),
});

export const ConvergenceLead = builder.objectRef<Lead>('ConvergenceLead').implement({
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
    purchases: t.field({
      type: [CongressionalTrade],
      description: `The evidence: the ${CONVERGENCE_EVIDENCE_LIMIT} newest purchases (congressBuys counts them all).`,
      resolve: (lead) => lead.purchases,
    }),
    signals: t.field({
      type: [Signal],
      description: `The evidence: the ${CONVERGENCE_EVIDENCE_LIMIT} newest signals (totalSignals counts them all).`,
      resolve: (lead) => lead.signals,
    }),
  }),
});

const leadArgs = defineArguments({
  limit: argument(
    'Int',
    z.number().int().min(1, 'must be from 1 to 100').max(100, 'must be from 1 to 100').default(20),
  ),
});

builder.queryFields((t) => ({
  convergenceLeads: t.field({
    type: [ConvergenceLead],
    description: 'Tickers where congressional purchases and recent signals coincide, best score first.',
    args: leadArgs.graphql(t.arg),
    resolve: (_root, args, context) => {
      const { limit } = leadArgs.parse(args);
      const planStart = signalHistoryStart(context.viewer?.plan);
      const window = new Date(Date.now() - CONVERGENCE_SIGNAL_DAYS * 86_400_000);
      return convergenceLeadsFromDatabase(context.db, {
        purchasesFrom: daysAgo(CONVERGENCE_PURCHASE_DAYS),
        signalsFrom: planStart && planStart > window ? planStart : window,
        limit,
      });
    },
  }),
}));
