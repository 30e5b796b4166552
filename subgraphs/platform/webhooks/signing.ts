import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new endpoint secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** The headers of one delivery attempt. */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Signs a delivery body with every secret in force (after a rotation, the new one and, for 24 hours, the old):
 * the signatures are space-separated in one header, and a receiver holding either secret verifies it.
 */
export function signDelivery(secrets: readonly string[], eventId: string, body: string, at: Date): SignedHeaders {
  if (secrets.length === 0) throw new Error('a webhook endpoint without a secret cannot sign');
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(' '),
  };
}
