import type { Database } from '../../subgraphs/platform/database.ts';
import { idCodec } from '../../subgraphs/platform/ids.ts';
import type { Plan } from '../../subgraphs/platform/plans.ts';
import { planReaches, ruleFor } from '../auth/plan-access.ts';

/** The ids the webhook API shows (`wh_1`, `whd_7`; subgraphs/markets/webhooks/schema.ts), so both views agree. */
const endpointIds = idCodec('wh');
const deliveryIds = idCodec('whd');

/** Deliveries shown under each endpoint, newest first; the full history is GET /api/webhooks/:id/deliveries. */
export const RECENT_DELIVERIES = 5;

/** The plan that reaches webhooks, as the plan table says (it names the lowest plan of the webhook fields). */
const WEBHOOKS_RULE = ruleFor('Query', 'webhookEndpoints');

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/**
 * The account's webhook endpoints with their latest deliveries, for the dashboard: read-only (endpoints are
 * managed through /api/webhooks), two statements whatever the number of endpoints, from the live database,
 * where a session's endpoints are. Below the plan that reaches webhooks, only which plan that is.
 */
export async function dashboardWebhooks(control: Database, accountId: string, plan: Plan) {
  const planRequired = WEBHOOKS_RULE?.plan ?? null;
  if (!planReaches(plan, WEBHOOKS_RULE)) return { available: false, plan_required: planRequired, endpoints: [] };
  const endpoints = await control.prisma.webhookEndpoint.findMany({
    where: { accountId },
    orderBy: { id: 'asc' },
    select: {
      id: true,
      url: true,
      description: true,
      events: true,
      enabled: true,
      disabledReason: true,
      verifiedUrl: true,
      suspendedReason: true,
    },
  });
  const deliveries = await control.sql.query<{
    endpoint_id: number;
    id: number;
    event_type: string;
    status: string;
    attempts: number;
    response_code: number | null;
    error: string | null;
    created_at: Date | string;
    delivered_at: Date | string | null;
  }>(
    `SELECT d.endpoint_id, d.id, ev.type AS event_type, d.status, d.attempts, d.last_status_code AS response_code,
            d.last_error AS error, d.created_at, d.delivered_at
       FROM webhook_endpoints e
       CROSS JOIN LATERAL (SELECT * FROM webhook_deliveries d
                            WHERE d.endpoint_id = e.id
                            ORDER BY d.created_at DESC, d.id DESC LIMIT $2) d
       JOIN webhook_events ev ON ev.id = d.event_id
      WHERE e.account_id = $1
      ORDER BY d.endpoint_id, d.created_at DESC, d.id DESC`,
    [accountId, RECENT_DELIVERIES],
  );
  return {
    available: true,
    plan_required: planRequired,
    endpoints: endpoints.map((endpoint) => ({
      id: endpointIds.format(endpoint.id),
      url: endpoint.url,
      description: endpoint.description,
      events: endpoint.events,
      enabled: endpoint.enabled,
      disabled_reason: endpoint.disabledReason,
      verification: endpoint.verifiedUrl === endpoint.url ? 'verified' : 'unverified',
      suspended_reason: endpoint.suspendedReason,
      recent_deliveries: deliveries
        .filter((delivery) => Number(delivery.endpoint_id) === endpoint.id)
        .map((delivery) => ({
          id: deliveryIds.format(Number(delivery.id)),
          event_type: delivery.event_type,
          status: delivery.status,
          attempts: Number(delivery.attempts),
          response_code: delivery.response_code,
          error: delivery.error,
          created_at: iso(delivery.created_at),
          delivered_at: iso(delivery.delivered_at),
        })),
    })),
  };
}
