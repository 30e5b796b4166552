import { getGraphQLRateLimiter } from 'graphql-rate-limit';
import type { GraphQLResolveInfo } from 'graphql';
import type { Viewer } from '../../subgraphs/shared/context.ts';
import { FIELD_LIMITS } from './policy.ts';
import type { CounterStore } from './store.ts';

interface Identity {
  contextIdentity: string;
  fieldIdentity: string;
}

/** graphql-rate-limit's store interface over our counter store, so per-field limits share Redis too. */
class CounterStoreAdapter {
  constructor(private readonly store: CounterStore) {}

  async getForIdentity(identity: Identity): Promise<readonly number[]> {
    const value = await this.store.get(`rl:field:${identity.contextIdentity}:${identity.fieldIdentity}`);
    return value ? (JSON.parse(value) as number[]) : [];
  }

  async setForIdentity(identity: Identity, timestamps: readonly number[], windowMs = 60_000): Promise<void> {
    await this.store.set(`rl:field:${identity.contextIdentity}:${identity.fieldIdentity}`, JSON.stringify(timestamps), windowMs);
  }
}

export interface FieldLimitRefusal {
  coordinate: string;
  message: string;
  retryAfter: number;
}

/**
 * Per-field limits of expensive fields (policy.ts FIELD_LIMITS), checked once per selected field before the
 * operation runs. Refused calls are not counted, so a client that waits is let through again.
 */
export function createFieldLimiter(store: CounterStore) {
  const limiter = getGraphQLRateLimiter({
    identifyContext: (viewer: Viewer) => viewer.accountId,
    store: new CounterStoreAdapter(store),
    formatError: ({ fieldName, max, window }) =>
      `${fieldName} is limited to ${max} calls per ${Math.round(window / 1000)} seconds; retry later.`,
  });

  return async function checkFieldLimits(
    viewer: Viewer,
    fields: Iterable<{ typeName: string; fieldName: string }>,
  ): Promise<FieldLimitRefusal | undefined> {
    const seen = new Set<string>();
    for (const { typeName, fieldName } of fields) {
      const coordinate = `${typeName}.${fieldName}`;
      const limit = FIELD_LIMITS[coordinate];
      if (!limit || seen.has(coordinate)) continue;
      seen.add(coordinate);
      // The limiter reads only the field's name from `info`; the key includes the parent type to stay unique.
      const info = { fieldName: coordinate } as GraphQLResolveInfo;
      const message = await limiter({ parent: undefined, args: {}, context: viewer, info }, { ...limit, uncountRejected: true });
      if (message) return { coordinate, message, retryAfter: windowSeconds(limit.window) };
    }
    return undefined;
  };
}

function windowSeconds(window: string): number {
  const match = /^(\d+)([smh])$/.exec(window);
  const unit = { s: 1, m: 60, h: 3600 }[match?.[2] as 's' | 'm' | 'h'] ?? 60;
  return Number(match?.[1] ?? 1) * unit;
}
