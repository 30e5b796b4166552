/**
 * The event kinds are their subgraphs' (subgraphs/markets/webhooks/event-types.ts lists those an endpoint
 * subscribes to); the kernel's own is the ping that verifies an endpoint's URL (docs/webhooks.md
 * "Verification"), sent before anything else.
 */
export const VERIFICATION_EVENT = 'webhook.verification';

/** What a caller's event says: its kind, its `data` and the attributes filters match on. */
export interface WebhookEventInput {
  type: string;
  data: unknown;
  attributes: Record<string, string | number | null>;
}
