import { bodyVariables } from './body-variables.ts';
import { PAGE_INFO, offsetTotals } from './envelopes.ts';
import type { OffsetPage } from './envelopes.ts';
import type { RestRoute } from './route.ts';

// The REST form of the webhook API (docs/webhooks.md "Endpoints"): snake_case, as the /api routes print.
const ENDPOINT_FIELDS = `id url description events enabled disabled_reason: disabledReason verification
  verified_at: verifiedAt suspended_reason: suspendedReason
  failing_since: failingSince previous_secret_expires_at: previousSecretExpiresAt created_at: createdAt
  updated_at: updatedAt filters { tickers signal_types: signalTypes chambers members }`;

const DELIVERY_FIELDS = `id event_id: eventId event_type: eventType status attempts response_code: responseCode
  latency_ms: latencyMs error next_attempt_at: nextAttemptAt last_attempt_at: lastAttemptAt
  delivered_at: deliveredAt created_at: createdAt`;

/** The body's JSON types checked (the filters' too), renamed to the input's fields; the rules stay in the resolver. */
const endpointInput = bodyVariables(
  {
    url: { variable: 'url', type: 'string' },
    events: { variable: 'events', type: 'string[]' },
    filters: {
      variable: 'filters',
      type: {
        tickers: { variable: 'tickers', type: 'string[]' },
        signal_types: { variable: 'signalTypes', type: 'string[]' },
        chambers: { variable: 'chambers', type: 'string[]' },
        members: { variable: 'members', type: 'string[]' },
      },
    },
    description: { variable: 'description', type: 'string' },
    enabled: { variable: 'enabled', type: 'boolean' },
  },
  { into: 'input' },
);

const queued = (field: string) => (data: Record<string, unknown>) => ({
  delivery: (data[field] as { delivery: unknown }).delivery,
});

export const webhookRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/api/webhooks',
    operation: `mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
      createWebhookEndpoint(input: $input) { secret endpoint { ${ENDPOINT_FIELDS} } }
    }`,
    body: endpointInput,
    status: 201,
    // The secret beside the endpoint's fields: this answer is the only one that shows it.
    respond: (data) => {
      const { secret, endpoint } = data.createWebhookEndpoint as { secret: string; endpoint: object };
      return { ...endpoint, secret };
    },
  },
  {
    method: 'GET',
    path: '/api/webhooks',
    operation: `query WebhookEndpoints { webhookEndpoints { ${ENDPOINT_FIELDS} } }`,
    respond: (data) => {
      const webhooks = data.webhookEndpoints as unknown[];
      return { webhooks, count: webhooks.length };
    },
  },
  {
    method: 'GET',
    path: '/api/webhooks/:id',
    operation: `query WebhookEndpoint($id: String!) { webhookEndpoint(id: $id) { ${ENDPOINT_FIELDS} } }`,
    params: { id: 'id' },
    respond: (data) => data.webhookEndpoint,
  },
  {
    method: 'PATCH',
    path: '/api/webhooks/:id',
    operation: `mutation UpdateWebhookEndpoint($id: String!, $input: UpdateWebhookEndpointInput!) {
      updateWebhookEndpoint(id: $id, input: $input) { ${ENDPOINT_FIELDS} }
    }`,
    params: { id: 'id' },
    body: endpointInput,
    respond: (data) => data.updateWebhookEndpoint,
  },
  {
    method: 'DELETE',
    path: '/api/webhooks/:id',
    operation: `mutation DeleteWebhookEndpoint($id: String!) { deleteWebhookEndpoint(id: $id) { id deleted } }`,
    params: { id: 'id' },
    respond: (data) => data.deleteWebhookEndpoint,
  },
  {
    method: 'POST',
    path: '/api/webhooks/:id/rotate',
    operation: `mutation RotateWebhookSecret($id: String!) {
      rotateWebhookSecret(id: $id) { secret endpoint { id previous_secret_expires_at: previousSecretExpiresAt } }
    }`,
    params: { id: 'id' },
    respond: (data) => {
      const { secret, endpoint } = data.rotateWebhookSecret as { secret: string; endpoint: object };
      return { ...endpoint, secret };
    },
  },
  {
    method: 'POST',
    path: '/api/webhooks/:id/test',
    operation: `mutation TestWebhookEndpoint($id: String!) {
      testWebhookEndpoint(id: $id) { delivery { ${DELIVERY_FIELDS} } }
    }`,
    params: { id: 'id' },
    status: 202,
    respond: queued('testWebhookEndpoint'),
  },
  {
    method: 'POST',
    path: '/api/webhooks/:id/verify',
    operation: `mutation VerifyWebhookEndpoint($id: String!) {
      verifyWebhookEndpoint(id: $id) { delivery { ${DELIVERY_FIELDS} } }
    }`,
    params: { id: 'id' },
    status: 202,
    respond: queued('verifyWebhookEndpoint'),
  },
  {
    method: 'GET',
    path: '/api/webhooks/:id/deliveries',
    operation: `query WebhookDeliveries($id: String!, $page: Int, $limit: Int) {
      webhookDeliveries(id: $id, page: $page, limit: $limit) { nodes { ${DELIVERY_FIELDS} } ${PAGE_INFO} }
    }`,
    params: { id: 'id' },
    query: { page: 'page', limit: 'limit' },
    respond: (data) => {
      const page = data.webhookDeliveries as OffsetPage<unknown>;
      return { deliveries: page.nodes, ...offsetTotals(page) };
    },
  },
  {
    method: 'POST',
    path: '/api/webhooks/:id/deliveries/:delivery/retry',
    operation: `mutation RetryWebhookDelivery($id: String!, $delivery: String!) {
      retryWebhookDelivery(id: $id, delivery: $delivery) { delivery { ${DELIVERY_FIELDS} } }
    }`,
    params: { id: 'id', delivery: 'delivery' },
    status: 202,
    respond: queued('retryWebhookDelivery'),
  },
  {
    method: 'POST',
    path: '/api/webhooks/:id/replay',
    operation: `mutation ReplayWebhookEvents($id: String!, $since: String) {
      replayWebhookEvents(id: $id, since: $since) { queued since }
    }`,
    params: { id: 'id' },
    query: { since: 'since' },
    status: 202,
    respond: (data) => data.replayWebhookEvents,
  },
];
