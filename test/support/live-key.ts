import { createAccount, createApiKey } from '../../gateway/auth/api-keys.ts';
import type { Plan } from '../../subgraphs/platform/context.ts';
import type { Database, Mode } from '../../subgraphs/platform/database.ts';

/** A live key of a new account on `plan`, written straight to the live database (no server needed). */
export async function liveKey(databases: Record<Mode, Database>, plan: Plan = 'analyst') {
  const account = await createAccount(databases.live, plan);
  return (await createApiKey(databases.live, account.id, 'live')).key;
}
