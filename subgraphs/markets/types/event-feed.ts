import { z } from 'zod';
import { accountOf } from '../../platform/context.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { builder } from '../builder.ts';
import { EVENT_RETENTION_DAYS } from '../../platform/webhooks/worker.ts';
import { decodeEventCursor, readEvents } from '../events/event-log.ts';
import type { LoggedEvent } from '../events/event-log.ts';
import { TICKER_FORMAT, tickerSymbol } from '../tickers.ts';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/event-types.ts';

export const FeedEvent = builder.objectRef<LoggedEvent>('FeedEvent').implement({
  description: 'One event of the log: what its webhook delivers (`{type, timestamp, data}`), its id and its cursor.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The event’s id, `msg_…`: the `webhook-id` its deliveries carry.' }),
    cursor: t.exposeString('cursor', { description: 'Pass as `startingAfter` to read the events after this one.' }),
    type: t.exposeString('type', { description: `The kind: ${WEBHOOK_EVENT_TYPES.join(', ')}.` }),
    timestamp: t.field({
      type: 'DateTime',
      description: 'When the change was written.',
      resolve: (event) => new Date((JSON.parse(event.body) as { timestamp: string }).timestamp),
    }),
    data: t.field({
      type: 'JSON',
      description: 'The event’s data, as its webhook carries it (docs/webhooks.md "Events").',
      resolve: (event) => (JSON.parse(event.body) as { data: unknown }).data,
    }),
  }),
});

interface EventPageSource {
  events: LoggedEvent[];
  hasMore: boolean;
}

const EventPage = builder.objectRef<EventPageSource>('EventPage').implement({
  description: 'A page of the event log, oldest first.',
  fields: (t) => ({
    events: t.field({ type: [FeedEvent], description: 'The events, oldest first.', resolve: (page) => page.events }),
    hasMore: t.exposeBoolean('hasMore', { description: 'Whether more events follow now (read on at once).' }),
    nextCursor: t.string({
      nullable: true,
      description: 'The last event’s cursor, for the next read; null on an empty page (keep the one you sent).',
      resolve: (page) => page.events.at(-1)?.cursor ?? null,
    }),
  }),
});

const eventArguments = defineArguments({
  startingAfter: argument('String', z.string().max(200, 'is not a cursor this feed gave'), {
    description: `The cursor of the last event read (\`next_cursor\`); none: from the oldest kept (${EVENT_RETENTION_DAYS} days).`,
  }),
  types: argument(
    'String',
    z
      .string()
      .max(500, 'must be at most 500 characters')
      .transform((value) =>
        value
          .split(',')
          .map((type) => type.trim())
          .filter(Boolean),
      ),
    {
      description: `Comma-separated event types (all the plan reaches by default): ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
    },
  ),
  ticker: argument('String', tickerSymbol, { description: `Events about this ticker (${TICKER_FORMAT}).` }),
  member: argument('String', z.string().min(1).max(100, 'must be at most 100 characters'), {
    description: 'Congressional trades of this member, by the name the event carries (any case).',
  }),
  limit: argument(
    'Int',
    z.number().int().min(1, 'must be from 1 to 100').max(100, 'must be from 1 to 100').default(50),
    {
      description: 'How many events, 1-100 (default 50).',
    },
  ),
});

builder.queryFields((t) => ({
  events: t.field({
    type: EventPage,
    description:
      'The event log after a cursor, oldest first: every new signal, trade, filing, briefing and convergence change, ' +
      'and the caller’s own report and credit events, as their webhooks deliver them (docs/events.md).',
    args: eventArguments.graphql(t.arg),
    resolve: async (_root, args, context) => {
      const parsed = eventArguments.parse(args);
      return readEvents(context.db.sql, {
        after: parsed.startingAfter ? decodeEventCursor(parsed.startingAfter) : undefined,
        types: parsed.types,
        tickers: parsed.ticker ? [parsed.ticker] : undefined,
        members: parsed.member ? [parsed.member] : undefined,
        limit: parsed.limit,
        plan: context.viewer!.plan,
        accountId: accountOf(context),
      });
    },
  }),
}));
