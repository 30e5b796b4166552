import { z } from 'zod';
import { accountOf } from '../../platform/context.ts';
import type { RequestContext } from '../../platform/context.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { builder } from '../builder.ts';
import { decodeEventCursor } from '../events/event-log.ts';
import type { LoggedEvent } from '../events/event-log.ts';
import { eventStream } from '../events/event-stream.ts';
import { TICKER_FORMAT, tickerSymbol } from '../tickers.ts';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/event-types.ts';
import { FeedEvent } from './event-feed.ts';
import { CongressionalTrade } from './congressional-trade.ts';
import { Signal } from './signal.ts';

builder.subscriptionType({
  description:
    'Live events from the log, served by the gateway over GraphQL over SSE (`/graphql/stream`) and over WebSocket ' +
    '(graphql-ws on `/graphql`). Each delivered event is one metered call; docs/events.md.',
});

const since = argument('String', z.string().max(200, 'is not a cursor this feed gave'), {
  description:
    'Replay the events after this cursor (an event’s `cursor`), then go on live without a gap or a duplicate; none: live from now.',
});
const tickers = argument(['String'], z.array(tickerSymbol).max(50, 'must name at most 50 tickers'), {
  description: `Only events about these tickers (${TICKER_FORMAT}); none: any.`,
});
const members = argument(['String'], z.array(z.string().min(1).max(100)).max(50, 'must name at most 50 members'), {
  description: 'Only congressional trades of these members: bioguide ids or names as disclosed, any case; none: any.',
});

const eventArguments = defineArguments({
  types: argument(['String'], z.array(z.string().max(60)).max(20, 'must name at most 20 types'), {
    description: `Only these kinds (all the plan reaches by default): ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
  }),
  tickers,
  members,
  since,
});
const tradeArguments = defineArguments({ tickers, members, since });
const signalArguments = defineArguments({ tickers, since });

interface StreamArguments {
  types?: string[];
  tickers?: string[];
  members?: string[];
  since?: string;
}

const streamOf = (context: RequestContext, args: StreamArguments) => {
  const since = context.resumeAfter ?? args.since;
  return eventStream(context.db, {
    types: args.types,
    tickers: args.tickers,
    members: args.members,
    since: since ? decodeEventCursor(since) : undefined,
    plan: context.viewer!.plan,
    accountId: accountOf(context),
  });
};

/** The id of the record an event carries (its webhook body's `data.id`). */
const recordId = (event: LoggedEvent) => (JSON.parse(event.body) as { data: { id: string } }).data.id;

builder.subscriptionFields((t) => ({
  events: t.field({
    type: FeedEvent,
    description:
      'Every new event the caller may read, as `GET /api/events` lists it, from now or after `since`. The key is ' +
      'checked on every event: a revoked key’s stream ends at once.',
    args: eventArguments.graphql(t.arg),
    subscribe: (_root, args, context) => streamOf(context, eventArguments.parse(args)),
    resolve: (event: LoggedEvent) => event,
  }),
  congressionalTradeAdded: t.field({
    type: CongressionalTrade,
    description: 'Each newly disclosed congressional trade (the `congressional_trade.disclosed` event), as a record.',
    args: tradeArguments.graphql(t.arg),
    subscribe: (_root, args, context) =>
      streamOf(context, { ...tradeArguments.parse(args), types: ['congressional_trade.disclosed'] }),
    resolve: (event: LoggedEvent, _args, context) =>
      context.db.prisma.congressionalTrade.findUniqueOrThrow({ where: { id: recordId(event) } }),
  }),
  signalCreated: t.field({
    type: Signal,
    description: 'Each new signal (the `signal.created` event), as a record.',
    args: signalArguments.graphql(t.arg),
    subscribe: (_root, args, context) =>
      streamOf(context, { ...signalArguments.parse(args), types: ['signal.created'] }),
    resolve: (event: LoggedEvent, _args, context) =>
      context.db.prisma.signal.findUniqueOrThrow({ where: { id: recordId(event) } }),
  }),
}));
