import { z } from 'zod';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { WEBHOOK_EVENT_TYPES } from './event-types.ts';
import { tickerSymbol } from '../tickers.ts';
import { SIGNAL_TYPES } from '../types/signal.ts';

/** The most endpoints one account keeps: each event is matched against every endpoint of its database. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 20;
const MAX_FILTER_VALUES = 100;

const list = <Item extends z.ZodType>(item: Item) =>
  z
    .array(item)
    .max(MAX_FILTER_VALUES, `must list at most ${MAX_FILTER_VALUES} values`)
    .transform((values) => [...new Set(values)]);

/**
 * Stored as given in `webhook_endpoints.filters` (snake_case keys, as platform/webhooks/outbox.ts matches them);
 * empty lists dropped.
 */
export const filtersRule = z
  .object({
    tickers: list(tickerSymbol).nullish(),
    signalTypes: list(z.enum(SIGNAL_TYPES, { message: `each must be one of ${SIGNAL_TYPES.join(', ')}` })).nullish(),
    chambers: list(
      z
        .string()
        .trim()
        .toLowerCase()
        .pipe(z.enum(['house', 'senate'], { message: 'each must be house or senate' })),
    ).nullish(),
    members: list(z.string().trim().min(1, 'must not be empty').max(100, 'each at most 100 characters')).nullish(),
  })
  .transform((filters) =>
    Object.fromEntries(
      Object.entries({
        tickers: filters.tickers,
        signal_types: filters.signalTypes,
        chambers: filters.chambers,
        members: filters.members,
      }).filter(([, values]) => values && values.length > 0),
    ),
  );

const eventsRule = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { message: `each must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
  .min(1, 'must name at least one event')
  .transform((events) => [...new Set(events)]);

const descriptionRule = z.string().trim().max(500, 'must be at most 500 characters');
// The shape here, so it is reported with the other fields; https-only and the addresses are checked after.
const urlRule = z
  .string()
  .trim()
  .max(2048, 'must be at most 2,048 characters')
  .refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), 'must be an https URL');

const URL_DESCRIPTION = 'An https URL whose host resolves to public addresses only.';
const EVENTS_DESCRIPTION = `The event kinds to receive: ${WEBHOOK_EVENT_TYPES.join(', ')}.`;

/** The optional fields of an endpoint a client writes, beside the URL and events. */
const settings = (FiltersInput: object) => ({
  filters: argument(FiltersInput, filtersRule, {
    description: 'Narrows the events that carry the filtered attribute; empty lists match everything.',
  }),
  description: argument('String', descriptionRule, {
    description: 'A note for the account’s own use, up to 500 characters.',
  }),
  enabled: argument('Boolean', z.boolean(), {
    description: 'Disabled endpoints receive nothing; enabling one clears what disabled it.',
  }),
});

/** A new endpoint: url and events required. */
export const createEndpointFields = (FiltersInput: object) =>
  defineArguments({
    url: argument('String', urlRule, { required: 'validated', description: URL_DESCRIPTION }),
    events: argument(['String'], eventsRule, { required: 'validated', description: EVENTS_DESCRIPTION }),
    ...settings(FiltersInput),
  });

/** A change: only the fields given. */
export const updateEndpointFields = (FiltersInput: object) =>
  defineArguments({
    url: argument('String', urlRule, { description: URL_DESCRIPTION }),
    events: argument(['String'], eventsRule, { description: EVENTS_DESCRIPTION }),
    ...settings(FiltersInput),
  });
