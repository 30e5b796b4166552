import type { GraphQLResolveInfo } from 'graphql';
import { z } from 'zod';
import { signalHistoryStart } from '../signal-history.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { isoDate } from '../../platform/dates.ts';
import { executesPath } from '../../platform/selection.ts';
import type { Plan, RequestContext } from '../../platform/context.ts';
import type { Database } from '../../platform/database.ts';
import { builder } from '../builder.ts';
import {
  CONVERGENCE_EVIDENCE_LIMIT,
  convergenceLeadsFromDatabase,
  newestSignalDate,
  newestTradeDate,
} from '../convergence-query.ts';
import type { Lead } from '../convergence-query.ts';
import { CongressionalTrade, daysAgo } from './congressional-trade.ts';
import { Signal } from './signal.ts';

/** The document's window: purchases and signals of the last 90 days. */
export const CONVERGENCE_DEFAULT_DAYS = 90;
export const CONVERGENCE_MAX_DAYS = 730;
const DAY_MS = 86_400_000;

const ScoreBreakdown = builder.objectRef<Lead['scoreBreakdown']>('ConvergenceScoreBreakdown').implement({
  description: 'The evidence points of a lead’s score (see docs/api.md, Markets: convergence leads).',
  fields: (t) => ({
    members: t.exposeFloat('members', { description: '2 × log2(distinct buying members): 0 for one member.' }),
    purchases: t.exposeFloat('purchases', { description: 'log2(1 + purchased dollars / 15,000).' }),
    signals: t.exposeFloat('signals', {
      description:
        '2 × tone × log2(1 + signals), tone = (bullish − bearish + ¼ neutral) / signals; negative when bearish.',
    }),
  }),
});

export const ConvergenceLead = builder.objectRef<Lead>('ConvergenceLead').implement({
  description: 'A ticker bought by members of Congress within the window that also has signals within it.',
  fields: (t) => ({
    ticker: t.exposeString('ticker', { description: 'The ticker bought and signalled.' }),
    companyName: t.exposeString('companyName', { description: 'The company’s name.' }),
    congressBuys: t.exposeInt('congressBuys', {
      description: 'Congressional purchases in force traded in the window.',
    }),
    totalSignals: t.exposeInt('totalSignals', { description: 'Signals of the ticker in the window.' }),
    bullishSignals: t.exposeInt('bullishSignals', { description: 'Of them, bullish.' }),
    bearishSignals: t.exposeInt('bearishSignals', { description: 'Of them, bearish.' }),
    purchaseAmount: t.exposeFloat('purchaseAmount', {
      description: 'The purchases’ disclosed buckets, midpoints summed, in dollars (an open bucket counts its floor).',
    }),
    congressMembers: t.exposeStringList('congressMembers', { description: 'Names of the buying members, sorted.' }),
    score: t.exposeFloat('score', { description: '0-100, one decimal: a logistic curve of the breakdown’s points.' }),
    scoreBreakdown: t.field({
      type: ScoreBreakdown,
      description: 'The points the score is made of.',
      resolve: (lead) => lead.scoreBreakdown,
    }),
    firstPurchaseDate: t.field({
      type: 'Date',
      description: 'Trade date of the window’s first purchase.',
      resolve: (lead) => lead.firstPurchaseDate,
    }),
    lastPurchaseDate: t.field({
      type: 'Date',
      description: 'Trade date of the window’s last purchase.',
      resolve: (lead) => lead.lastPurchaseDate,
    }),
    lastSignalAt: t.field({
      type: 'DateTime',
      description: 'When the newest counted signal was recorded.',
      resolve: (lead) => lead.lastSignalAt,
    }),
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

export interface WindowSource {
  from: Date;
  to: Date;
  days: number;
  basis: 'as_of' | 'newest_trade' | 'newest_signal';
  signalsFrom: Date;
  signalsUntil: Date | null;
}

const ConvergenceWindow = builder.objectRef<WindowSource>('ConvergenceWindow').implement({
  description: 'What a convergence answer counted: purchases traded from `from` to `to`, signals from `signalsFrom`.',
  fields: (t) => ({
    from: t.field({ type: 'Date', description: '`to` minus `days`, inclusive.', resolve: (window) => window.from }),
    to: t.field({ type: 'Date', description: 'Inclusive.', resolve: (window) => window.to }),
    days: t.exposeInt('days', { description: 'The window’s length in days.' }),
    basis: t.exposeString('basis', {
      description:
        '`as_of` when given; else `newest_trade`: the newest trade date in force (today without trades), or `newest_signal`: the newest signal’s day, when the signals end before the trades.',
    }),
    signalsFrom: t.field({
      type: 'DateTime',
      description: 'First instant of a counted signal: `from`, or the start of the caller’s signal history if later.',
      resolve: (window) => window.signalsFrom,
    }),
    signalsUntil: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'End of the counted signals (exclusive): midnight after `to` with `asOf`; null by default, through the newest signal.',
      resolve: (window) => window.signalsUntil,
    }),
  }),
});

interface ConvergenceSource {
  window: WindowSource;
  leads: Lead[];
}

const Convergence = builder.objectRef<ConvergenceSource>('Convergence').implement({
  description: 'Convergence leads with the window they were counted over.',
  fields: (t) => ({
    window: t.field({
      type: ConvergenceWindow,
      description: 'The dates the leads were counted over.',
      resolve: (answer) => answer.window,
    }),
    leads: t.field({
      type: [ConvergenceLead],
      description: 'The leads, best score first.',
      resolve: (answer) => answer.leads,
    }),
  }),
});

const leadArgs = defineArguments({
  limit: argument(
    'Int',
    z.number().int().min(1, 'must be from 1 to 100').max(100, 'must be from 1 to 100').default(20),
    { description: 'How many leads, 1-100 (default 20).' },
  ),
  days: argument(
    'Int',
    z
      .number()
      .int()
      .min(1, `must be from 1 to ${CONVERGENCE_MAX_DAYS}`)
      .max(CONVERGENCE_MAX_DAYS, `must be from 1 to ${CONVERGENCE_MAX_DAYS}`)
      .default(CONVERGENCE_DEFAULT_DAYS),
    { description: `Window length in days before its last day (${CONVERGENCE_DEFAULT_DAYS} by default).` },
  ),
  asOf: argument('String', isoDate, {
    description:
      'The window’s last day, YYYY-MM-DD; by default the newest trade date in force, or the newest signal’s day if earlier.',
  }),
});

/**
 * The window of `days` ending `asOf` (by default the newest day both purchases and signals reach: the newest trade
 * date in force, or the newest signal's day when the signals end earlier), its signals cut to the plan's history
 * (none for the webhook events, which are computed for the whole history).
 */
export async function convergenceWindow(
  db: Database,
  days: number,
  asOf: Date | undefined,
  plan: Plan | undefined,
): Promise<WindowSource> {
  const [newestTrade, newestSignal] = asOf
    ? [null, null]
    : await Promise.all([newestTradeDate(db), newestSignalDate(db)]);
  // A trade dated in the future (a typo the importers reject, but stored data may hold) does not move the window.
  const today = daysAgo(0);
  const tradesEnd = newestTrade && newestTrade < today ? newestTrade : today;
  // A lead needs both sides: when the signal feed ends before the trades (a source behind, or imported files of
  // different dates), the window ends on the newest signal's day instead of counting days no signal reaches.
  const signalsBehind = newestSignal !== null && newestSignal < tradesEnd;
  const to = asOf ?? (signalsBehind ? newestSignal : tradesEnd);
  const from = new Date(to.getTime() - days * DAY_MS);
  const planStart = signalHistoryStart(plan);
  const signalsFrom = planStart && planStart > from ? planStart : from;
  // Trades are disclosed weeks late, so the newest trade date lags the signals: by default the signals that
  // followed the last purchases count too; a window `asOf` a day sees nothing after that day.
  const signalsUntil = asOf ? new Date(to.getTime() + DAY_MS) : null;
  const basis = asOf ? 'as_of' : signalsBehind ? 'newest_signal' : 'newest_trade';
  return { from, to, days, basis, signalsFrom, signalsUntil };
}

/**
 * The window of the arguments, its signals cut to the caller's plan history, and the leads in it; their evidence
 * rows only when the operation executes `purchases` or `signals` under `leadsPath`.
 */
async function convergence(
  args: object,
  context: RequestContext,
  info: GraphQLResolveInfo,
  leadsPath: string[],
): Promise<ConvergenceSource> {
  const { limit, days, asOf } = leadArgs.parse(args);
  const window = await convergenceWindow(context.db, days, asOf, context.viewer?.plan);
  const evidence = ['purchases', 'signals'].some((field) => executesPath(info, [...leadsPath, field]));
  return { window, leads: await convergenceLeadsFromDatabase(context.db, { ...window, limit, evidence }) };
}

builder.queryFields((t) => ({
  convergence: t.field({
    type: Convergence,
    description: 'Tickers where congressional purchases and signals of one window coincide, best score first.',
    args: leadArgs.graphql(t.arg),
    resolve: (_root, args, context, info) => convergence(args, context, info, ['leads']),
  }),
  convergenceLeads: t.field({
    type: [ConvergenceLead],
    description: 'The leads of `convergence` alone (same arguments).',
    args: leadArgs.graphql(t.arg),
    resolve: async (_root, args, context, info) => (await convergence(args, context, info, [])).leads,
  }),
}));
