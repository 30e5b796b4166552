/** The event kinds an endpoint subscribes to (docs/webhooks.md "Events"). `ping` is sent by the test call only. */
export const WEBHOOK_EVENT_TYPES = [
  'signal.created',
  'congressional_trade.disclosed',
  'insider_trade.filed',
  'convergence_lead.changed',
  'watchlist.activity',
  'briefing.published',
  'report.completed',
  'report.failed',
  'credits.low',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The kinds about one ticker: each is also a `watchlist.activity` for the accounts watching that ticker. */
export const TICKER_EVENT_TYPES: readonly WebhookEventType[] = [
  'signal.created',
  'congressional_trade.disclosed',
  'insider_trade.filed',
  'convergence_lead.changed',
];

/**
 * Endpoint filters and the event attribute each one matches. A filter narrows only the events that carry its
 * attribute: `tickers` does not stop a `report.completed`, which has no ticker.
 */
export const WEBHOOK_FILTERS = {
  tickers: 'ticker',
  signal_types: 'signal_type',
  chambers: 'chamber',
  members: 'member',
} as const;

export type WebhookFilters = Partial<Record<keyof typeof WEBHOOK_FILTERS, string[]>>;

/** What a caller's event says: its kind, its `data` and the attributes filters match on. */
export interface WebhookEventInput {
  type: WebhookEventType;
  data: unknown;
  attributes: Record<string, string | number | null>;
}
