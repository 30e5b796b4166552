import type { Viewer } from '../../subgraphs/platform/context.ts';
import type { Database } from '../../subgraphs/platform/database.ts';
import { publishEvents } from '../../subgraphs/platform/webhooks/outbox.ts';
import type { Usage } from './usage.ts';

/**
 * `credits.low` for the sandbox key's account (docs/webhooks.md): written to the sandbox database, where the
 * account's sandbox endpoints are. The count lives in the control database, so the two are separate writes:
 * a process dying between them loses this one notice, never a call's count.
 */
export function creditsLowPublisher(control: Database, sandbox: Database) {
  return async (viewer: Viewer, usage: Usage): Promise<void> => {
    const [key] = await control.sql.query<{ prefix: string }>('SELECT prefix FROM api_keys WHERE id = $1::uuid', [
      viewer.keyId,
    ]);
    await publishEvents(sandbox.sql, [
      {
        type: 'credits.low',
        data: { key_prefix: key?.prefix ?? null, remaining: usage.remaining, limit: usage.allowance },
        attributes: { account_id: viewer.accountId },
      },
    ]);
  };
}
