import { endpointActive } from '../../platform/webhooks/endpoint-standing.ts';
import { NEW_EVENT_ID, envelope, publishingCtes } from '../../platform/webhooks/outbox.ts';
import type { DerivedEvents } from '../../platform/webhooks/outbox.ts';

/**
 * The event kinds an endpoint subscribes to (docs/webhooks.md "Events"), listed here because this subgraph serves
 * the endpoints' API: its own, then the verticals' reports' and the gateway's `credits.low`. `ping` is sent by the
 * test call only, and the kernel's VERIFICATION_EVENT when the endpoint's URL is to be verified.
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

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The kinds about one ticker: each is also a `watchlist.activity` for the accounts watching that ticker. */
export const TICKER_EVENT_TYPES: readonly WebhookEventType[] = [
  'signal.created',
  'congressional_trade.disclosed',
  'insider_trade.filed',
  'convergence_lead.changed',
];

/**
 * A `watchlist.activity` for every account watching the ticker of a ticker event just published (when that
 * account listens for it): what the markets' publishers add to the outbox's statement (publishingCtes).
 */
export const WATCHLIST_ACTIVITY: DerivedEvents = {
  name: 'watched',
  sql: `INSERT INTO webhook_events (id, type, body, attributes)
      SELECT ${NEW_EVENT_ID}, 'watchlist.activity',
             ${envelope(`'watchlist.activity'`, `jsonb_build_object('ticker', p.attributes->>'ticker', 'event', p.body::jsonb || jsonb_build_object('id', p.id))`)},
             p.attributes || jsonb_build_object('account_id', l.account_id)
        FROM published p
        JOIN watchlist_entries l ON l.ticker = p.attributes->>'ticker'
       WHERE p.type IN (${TICKER_EVENT_TYPES.map((type) => `'${type}'`).join(', ')})
         AND EXISTS (SELECT 1 FROM webhook_endpoints w
                      WHERE w.account_id = l.account_id AND ${endpointActive('w')} AND 'watchlist.activity' = ANY (w.events))
      RETURNING id, type, attributes`,
};

/** The outbox's common table expressions (publishingCtes) for an event of the markets, with its watchlist activity. */
export const marketPublishingCtes = (source: string) => publishingCtes(source, [WATCHLIST_ACTIVITY]);
