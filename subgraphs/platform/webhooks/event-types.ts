/**
 * The event kinds an endpoint subscribes to (docs/webhooks.md "Events"). `ping` is sent by the test call only, and
 * VERIFICATION_EVENT when the endpoint's URL is to be verified.
 */
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

/** The ping that verifies an endpoint's URL (docs/webhooks.md "Verification"): sent before anything else. */
export const VERIFICATION_EVENT = 'webhook.verification';

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The kinds about one ticker: each is also a `watchlist.activity` for the accounts watching that ticker. */
export const TICKER_EVENT_TYPES: readonly WebhookEventType[] = [
  'signal.created',
  'congressional_trade.disclosed',
  'insider_trade.filed',
  'convergence_lead.changed',
];

/** What a caller's event says: its kind, its `data` and the attributes filters match on. */
export interface WebhookEventInput {
  type: WebhookEventType;
  data: unknown;
  attributes: Record<string, string | number | null>;
}
