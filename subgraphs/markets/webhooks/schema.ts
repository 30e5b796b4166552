import { z } from 'zod';
import { accountOf } from '../../platform/context.ts';
import type { RequestContext } from '../../platform/context.ts';
import { env } from '../../platform/config.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.ts';
import { idCodec } from '../../platform/ids.ts';
import { definePageObject, pageSource } from '../../platform/page-object.ts';
import { pageArgument, pageSizeArgument, resolvePaging } from '../../platform/paging.ts';
import { countTotal } from '../../platform/totals.ts';
import { DestinationRefused, resolveDestination } from '../../platform/webhooks/destination.ts';
import {
  REPLAY_LIMIT,
  queuePing,
  queueVerification,
  replayEvents,
  retryDelivery,
} from '../../platform/webhooks/endpoint-actions.ts';
import { newWebhookSecret } from '../../platform/webhooks/signing.ts';
import { argument, defineArguments } from '../../platform/arguments.ts';
import { PageInfo, builder } from '../builder.ts';
import { MAX_ENDPOINTS_PER_ACCOUNT, createEndpointFields, updateEndpointFields } from './rules.ts';

/** Endpoint and delivery ids as the API prints them (docs/webhooks.md "Endpoints"). */
export const endpointIds = idCodec('wh');
export const deliveryIds = idCodec('whd');

/** After a rotation the previous secret keeps signing this long. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const DELIVERY_PAGING = { defaultPerPage: 50, maxPerPage: 200, sizeArgument: 'limit' };

/** The caller's endpoint, or a 404 (another account's endpoint is not said to exist). */
async function ownEndpoint(context: RequestContext, id: string) {
  const endpoint = await context.db.prisma.webhookEndpoint.findFirst({
    where: { id: endpointIds.parse(id), accountId: accountOf(context) },
  });
  if (!endpoint) throw new NotFoundError(`Webhook endpoint ${id}`);
  return endpoint;
}

type StoredEndpoint = Awaited<ReturnType<typeof ownEndpoint>>;

const isVerified = (endpoint: Pick<StoredEndpoint, 'url' | 'verifiedUrl'>) => endpoint.verifiedUrl === endpoint.url;

/**
 * A 409 naming why the endpoint may not be sent anything now (docs/webhooks.md "Verification"): nothing but its
 * verification goes to a URL its owner has not shown to control.
 */
function requireActive(endpoint: StoredEndpoint): void {
  const id = endpointIds.format(endpoint.id);
  if (endpoint.suspendedReason) {
    throw new ConflictError(`Webhook endpoint ${id} is suspended (${endpoint.suspendedReason}); it is sent nothing.`);
  }
  if (!isVerified(endpoint)) {
    throw new ConflictError(
      `Webhook endpoint ${id} has not verified its URL: answer its webhook.verification ping with 2xx (POST /api/webhooks/${id}/verify sends it again); until then it is sent nothing else.`,
    );
  }
}

/** Queues the signed ping that verifies the endpoint's current URL; the delivery's id. */
const verify = (context: RequestContext, endpoint: Pick<StoredEndpoint, 'id' | 'url'>) =>
  queueVerification(context.db.sql, endpoint.id, endpoint.url, {
    endpoint_id: endpointIds.format(endpoint.id),
    url: endpoint.url,
  });

/** The URL's shape and, after DNS, its addresses: a refusal is a 400 naming `url`. */
async function checkedUrl(context: RequestContext, url: string): Promise<string> {
  try {
    await resolveDestination(url, context.allowPrivateWebhooks ?? env.WEBHOOK_ALLOW_PRIVATE);
    return url;
  } catch (error) {
    if (error instanceof DestinationRefused) throw new BadRequestError({ url: error.message });
    throw error;
  }
}

interface StoredFilters {
  tickers?: string[];
  signal_types?: string[];
  chambers?: string[];
  members?: string[];
}

const WebhookFilters = builder.objectRef<StoredFilters>('WebhookFilters').implement({
  description: 'What narrows an endpoint’s events; an empty list matches everything.',
  fields: (t) => ({
    tickers: t.stringList({
      description: 'Tickers, in their stored form.',
      resolve: (filters) => filters.tickers ?? [],
    }),
    signalTypes: t.stringList({
      description: 'Signal types, for signal.created.',
      resolve: (filters) => filters.signal_types ?? [],
    }),
    chambers: t.stringList({
      description: 'house or senate, for congressional_trade.disclosed.',
      resolve: (filters) => filters.chambers ?? [],
    }),
    members: t.stringList({
      description: 'Bioguide ids or member names as disclosed.',
      resolve: (filters) => filters.members ?? [],
    }),
  }),
});

const WebhookFiltersInput = builder.inputType('WebhookFiltersInput', {
  description: 'What narrows an endpoint’s events: up to 100 values a list; an empty list matches everything.',
  fields: (t) => ({
    tickers: t.stringList({ description: 'Tickers (class shares as BRK.B or BRK-B).' }),
    signalTypes: t.stringList({ description: 'Signal types, for signal.created.' }),
    chambers: t.stringList({ description: 'house or senate, for congressional_trade.disclosed.' }),
    members: t.stringList({ description: 'Bioguide ids or member names as disclosed.' }),
  }),
});

const createFields = createEndpointFields(WebhookFiltersInput);
const updateFields = updateEndpointFields(WebhookFiltersInput);

const CreateWebhookEndpointInput = builder.inputType('CreateWebhookEndpointInput', {
  description: 'A new webhook endpoint: where to deliver and which events.',
  fields: (t) => createFields.graphql(t),
});
const UpdateWebhookEndpointInput = builder.inputType('UpdateWebhookEndpointInput', {
  description: 'A change to a webhook endpoint; fields left out stay as they are.',
  fields: (t) => updateFields.graphql(t),
});

export const WebhookEndpoint = builder.prismaObject('WebhookEndpoint', {
  description: 'Where the account’s events are delivered, signed with the endpoint’s secret (docs/webhooks.md).',
  fields: (t) => ({
    id: t.string({
      description: 'The endpoint’s id, `wh_<n>`.',
      resolve: (endpoint) => endpointIds.format(endpoint.id),
    }),
    url: t.exposeString('url', { description: 'The https URL events are posted to.' }),
    description: t.exposeString('description', { description: 'The account’s note; empty when none was given.' }),
    events: t.exposeStringList('events', { description: 'The event kinds the endpoint receives.' }),
    filters: t.field({
      type: WebhookFilters,
      description: 'What narrows its events.',
      resolve: (endpoint) => endpoint.filters as StoredFilters,
    }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether events are delivered to it.' }),
    verification: t.string({
      description: 'verified, or unverified until the current URL answers its verification ping with 2xx.',
      resolve: (endpoint) => (isVerified(endpoint) ? 'verified' : 'unverified'),
    }),
    verifiedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the current URL was verified.',
      resolve: (endpoint) => (isVerified(endpoint) ? endpoint.verifiedAt : null),
    }),
    suspendedReason: t.exposeString('suspendedReason', {
      nullable: true,
      description:
        'plan_excludes_webhooks or account_disabled while the account may not receive webhooks: kept, sent nothing.',
    }),
    disabledReason: t.exposeString('disabledReason', {
      nullable: true,
      description: 'Why the service disabled the endpoint (three days of failed deliveries).',
    }),
    failingSince: t.expose('failingSince', {
      type: 'DateTime',
      nullable: true,
      description: 'The first failed delivery since the last success.',
    }),
    previousSecretExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Until then the secret before the last rotation signs too.',
      resolve: (endpoint) =>
        endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > new Date()
          ? endpoint.previousSecretExpiresAt
          : null,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the endpoint was registered.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
  }),
});

export const WebhookDelivery = builder.prismaObject('WebhookDelivery', {
  description: 'One event’s delivery to one endpoint, and its latest attempt.',
  fields: (t) => ({
    id: t.string({
      description: 'The delivery’s id, `whd_<n>`.',
      resolve: (delivery) => deliveryIds.format(delivery.id),
    }),
    eventId: t.exposeString('eventId', { description: 'The webhook-id header: the same on every attempt.' }),
    eventType: t.string({
      description: 'The event kind, e.g. signal.created or ping.',
      select: { event: { select: { type: true } } },
      resolve: (delivery) => delivery.event.type,
    }),
    status: t.exposeString('status', {
      description: 'pending, delivered, failed (retries spent) or cancelled (the endpoint was suspended).',
    }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made so far.' }),
    responseCode: t.exposeInt('lastStatusCode', {
      nullable: true,
      description: 'HTTP status of the last attempt; null before one or when it got no answer.',
    }),
    latencyMs: t.exposeInt('lastLatencyMs', { nullable: true, description: 'Milliseconds the last attempt took.' }),
    error: t.exposeString('lastError', {
      nullable: true,
      description: 'Why the last attempt failed; null after a success.',
    }),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the next attempt is due; null unless pending.',
      resolve: (delivery) => (delivery.status === 'pending' ? delivery.nextAttemptAt : null),
    }),
    lastAttemptAt: t.expose('lastAttemptAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the last attempt was made; null before one.',
    }),
    deliveredAt: t.expose('deliveredAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When the endpoint accepted it; null until then.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the delivery was queued.' }),
  }),
});

const DELIVERY_ORDER = [{ createdAt: 'desc' }, { id: 'desc' }];
const WebhookDeliveryPage = definePageObject(
  builder,
  PageInfo,
  'WebhookDeliveryPage',
  WebhookDelivery,
  'WebhookDelivery',
);

const CreatedWebhookEndpoint = builder
  .objectRef<{ endpointId: number; secret: string }>('CreatedWebhookEndpoint')
  .implement({
    description: 'An endpoint with its new signing secret.',
    fields: (t) => ({
      secret: t.exposeString('secret', { description: 'The signing secret (whsec_…): shown here only.' }),
      endpoint: t.prismaField({
        type: WebhookEndpoint,
        description: 'The endpoint.',
        resolve: (query, payload, _args, context) =>
          context.db.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: payload.endpointId } }),
      }),
    }),
  });

const DeletedWebhookEndpoint = builder.objectRef<{ id: string }>('DeletedWebhookEndpoint').implement({
  description: 'The endpoint removed.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The removed endpoint’s id, `wh_<n>`.' }),
    deleted: t.boolean({ description: 'Always true: an unknown endpoint is not_found.', resolve: () => true }),
  }),
});

const QueuedDelivery = builder.objectRef<{ deliveryId: number }>('QueuedWebhookDelivery').implement({
  description: 'A delivery queued by this call.',
  fields: (t) => ({
    delivery: t.prismaField({
      type: WebhookDelivery,
      description: 'The delivery, as queued.',
      resolve: (query, payload, _args, context) =>
        context.db.prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: payload.deliveryId } }),
    }),
  }),
});

const ReplayedEvents = builder.objectRef<{ queued: number; since: Date }>('ReplayedWebhookEvents').implement({
  description: 'How many past events a replay queued again.',
  fields: (t) => ({
    queued: t.exposeInt('queued', { description: `Deliveries queued (at most ${REPLAY_LIMIT} a call).` }),
    since: t.expose('since', { type: 'DateTime', description: 'The moment replayed from.' }),
  }),
});

const replayArguments = defineArguments({
  id: argument('String', z.string(), { required: true }),
  since: argument('String', z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }), {
    required: 'validated',
    description: 'Events written at or after this moment (ISO 8601); kept 30 days.',
  }),
});

builder.queryFields((t) => ({
  webhookEndpoints: t.prismaField({
    type: [WebhookEndpoint],
    description: `The caller’s webhook endpoints, oldest first (at most ${MAX_ENDPOINTS_PER_ACCOUNT}).`,
    resolve: (query, _root, _args, context) =>
      context.db.prisma.webhookEndpoint.findMany({
        ...query,
        where: { accountId: accountOf(context) },
        orderBy: { id: 'asc' },
      }),
  }),
  webhookEndpoint: t.prismaField({
    type: WebhookEndpoint,
    description: 'One of the caller’s endpoints; another account’s or an unknown one is not_found.',
    args: { id: t.arg.string({ required: true, description: 'The endpoint’s id, `wh_<n>`.' }) },
    resolve: async (query, _root, args, context) => {
      const { id } = await ownEndpoint(context, args.id);
      return context.db.prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryPage,
    description: 'An endpoint’s deliveries, newest first: status, response code, latency, next attempt.',
    args: {
      id: t.arg.string({ required: true, description: 'The endpoint’s id, `wh_<n>`.' }),
      page: pageArgument(t.arg),
      limit: pageSizeArgument(t.arg, DELIVERY_PAGING),
    },
    resolve: async (_root, args, context) => {
      const endpoint = await ownEndpoint(context, args.id);
      const paging = resolvePaging({ page: args.page, size: args.limit }, DELIVERY_PAGING);
      // Verification pings are the endpoint's own (its `verification` says how it went), not its events'.
      const where = { endpointId: endpoint.id, purpose: { in: ['event', 'replay'] } };
      return pageSource(where, DELIVERY_ORDER, paging, () => countTotal(context.db, 'WebhookDelivery', where));
    },
  }),
}));

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: CreatedWebhookEndpoint,
    description: 'Registers an endpoint; its secret is in this answer only.',
    args: {
      input: t.arg({ type: CreateWebhookEndpointInput, required: true, description: 'The endpoint to register.' }),
    },
    resolve: async (_root, args, context) => {
      const accountId = accountOf(context);
      const input = createFields.parse(args.input);
      const url = await checkedUrl(context, input.url);
      const secret = newWebhookSecret();
      const endpointId = await context.db.prisma.$transaction(async (tx) => {
        // Serialised per account, so the count and the insert agree and the cap holds exactly.
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${accountId}`}))::text`;
        if ((await tx.webhookEndpoint.count({ where: { accountId } })) >= MAX_ENDPOINTS_PER_ACCOUNT) {
          throw new ConflictError(
            `An account keeps at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one before adding another.`,
          );
        }
        const created = await tx.webhookEndpoint.create({
          data: {
            accountId,
            url,
            events: input.events,
            filters: input.filters ?? {},
            description: input.description ?? '',
            enabled: input.enabled ?? true,
            secret,
          },
        });
        return created.id;
      });
      await verify(context, { id: endpointId, url });
      return { endpointId, secret };
    },
  }),
  updateWebhookEndpoint: t.prismaField({
    type: WebhookEndpoint,
    description: 'Changes the fields given; `enabled: true` re-enables an endpoint the service disabled.',
    args: {
      id: t.arg.string({ required: true, description: 'The endpoint’s id, `wh_<n>`.' }),
      input: t.arg({ type: UpdateWebhookEndpointInput, required: true, description: 'The fields to change.' }),
    },
    resolve: async (query, _root, args, context) => {
      const endpoint = await ownEndpoint(context, args.id);
      const input = updateFields.parse(args.input);
      const reenabled = input.enabled === true && !endpoint.enabled;
      const url = input.url === undefined ? undefined : await checkedUrl(context, input.url);
      const updated = await context.db.prisma.webhookEndpoint.update({
        ...query,
        where: { id: endpoint.id },
        data: {
          url,
          events: input.events,
          filters: input.filters,
          description: input.description,
          enabled: input.enabled,
          ...(reenabled ? { disabledReason: null, failingSince: null } : {}),
        },
      });
      // A new URL is unverified (verified_url is the old one) until it answers its own ping.
      if (!isVerified(updated)) await verify(context, updated);
      return updated;
    },
  }),
  deleteWebhookEndpoint: t.field({
    type: DeletedWebhookEndpoint,
    description: 'Removes the endpoint and its deliveries; nothing more is sent to it.',
    args: { id: t.arg.string({ required: true, description: 'The endpoint’s id, `wh_<n>`.' }) },
    resolve: async (_root, args, context) => {
      const endpoint = await ownEndpoint(context, args.id);
      await context.db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
      return { id: endpointIds.format(endpoint.id) };
    },
  }),
  rotateWebhookSecret: t.field({
    type: CreatedWebhookEndpoint,
    description: 'A new secret (shown here only); the previous one keeps signing for 24 hours beside it.',
    args: { id: t.arg.string({ required: true, description: 'The endpoint’s id, `wh_<n>`.' }) },
    resolve: async (_root, args, context) => {
      const endpoint = await ownEndpoint(context, args.id);
      const secret = newWebhookSecret();
      await context.db.prisma.webhookEndpoint.update({
        where: { id: endpoint.id },
        data: {
          secret,
          previousSecret: endpoint.secret,
          previousSecretExpiresAt: new Date(Date.now() + ROTATION_OVERLAP_MS),
        },
      });
      return { endpointId: endpoint.id, secret };
    },
  }),
  testWebhookEndpoint: t.field({
    type: QueuedDelivery,
    description: 'Queues a `ping` event to the endpoint; its delivery shows how the endpoint answered.',
    args: { id: t.arg.string({ required: true, description: 'The endpoint’s id, `wh_<n>`.' }) },
    resolve: async (_root, args, context) => {
      const endpoint = await ownEndpoint(context, args.id);
      requireActive(endpoint);
      const deliveryId = await queuePing(context.db.sql, endpoint.id, { endpoint_id: endpointIds.format(endpoint.id) });
      return { deliveryId };
    },
  }),
  verifyWebhookEndpoint: t.field({
    type: QueuedDelivery,
    description: 'Sends the endpoint’s verification ping (again) now; its delivery shows how the endpoint answered.',
    args: { id: t.arg.string({ required: true, description: 'The endpoint’s id, `wh_<n>`.' }) },
    resolve: async (_root, args, context) => {
      const endpoint = await ownEndpoint(context, args.id);
      return { deliveryId: await verify(context, endpoint) };
    },
  }),
  retryWebhookDelivery: t.field({
    type: QueuedDelivery,
    description: 'Sends a delivery again now, with a fresh 24-hour retry window.',
    args: {
      id: t.arg.string({ required: true, description: 'The endpoint’s id, `wh_<n>`.' }),
      delivery: t.arg.string({ required: true, description: 'The delivery’s id, `whd_<n>`, of that endpoint.' }),
    },
    resolve: async (_root, args, context) => {
      const endpoint = await ownEndpoint(context, args.id);
      const deliveryId = deliveryIds.parse(args.delivery, 'delivery');
      requireActive(endpoint);
      if (!(await retryDelivery(context.db.sql, endpoint.id, deliveryId))) {
        const exists = await context.db.prisma.webhookDelivery.count({
          where: { id: deliveryId, endpointId: endpoint.id },
        });
        if (!exists) throw new NotFoundError(`Delivery ${args.delivery}`);
        throw new ConflictError('The delivery is being attempted now; retry it once the attempt is recorded.');
      }
      return { deliveryId };
    },
  }),
  replayWebhookEvents: t.field({
    type: ReplayedEvents,
    description: `Queues again every event since a moment that the endpoint receives (at most ${REPLAY_LIMIT}); one replay at a time.`,
    args: {
      id: t.arg.string({ required: true, description: 'The endpoint’s id, `wh_<n>`.' }),
      since: t.arg.string({
        required: false,
        description: 'Required: events written at or after this moment (ISO 8601); kept 30 days.',
      }),
    },
    resolve: async (_root, args, context) => {
      const input = replayArguments.parse(args);
      const endpoint = await ownEndpoint(context, input.id);
      requireActive(endpoint);
      const since = new Date(input.since);
      const queued = await replayEvents(context.db, endpoint.id, since);
      if (queued === undefined) {
        throw new ConflictError(
          `A replay to webhook endpoint ${input.id} is still running (deliveries pending); replay again once they are delivered or failed.`,
        );
      }
      return { queued, since };
    },
  }),
}));
