import { getGraphQLRateLimiter } from 'graphql-rate-limit';
import type { GraphQLResolveInfo } from 'graphql';
import type { Viewer } from '../../subgraphs/platform/context.ts';
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
    await this.store.set(
      `rl:field:${identity.contextIdentity}:${identity.fieldIdentity}`,
      JSON.stringify(timestamps),
      windowMs,
    );
  }
}

export interface FieldLimitRefusal {
  coordinate: string;
  message: string;
  retryAfter: number;
}

/**
 * Per-field limits of expensive fields (policy.ts FIELD_LIMITS), charged per occurrence before the operation runs:
 * 20 aliased `members` spend 20 calls. Every limited field is checked first without charging anything, so an
 * operation refused for one field spends nothing on the others; refused calls are never counted.
 */
export function createFieldLimiter(store: CounterStore) {
  const limiter = getGraphQLRateLimiter({
    identifyContext: (viewer: Viewer) => viewer.accountId,
    store: new CounterStoreAdapter(store),
    formatError: ({ fieldName, max, window }) =>
      `${fieldName} is limited to ${max} calls per ${Math.round(window / 1000)} seconds; retry later.`,
  });

  /** Asks graphql-rate-limit about `occurrences` calls at once (its `arrayLengthField` counts an argument's length). */
  const ask = (viewer: Viewer, coordinate: string, occurrences: number, readOnly: boolean) => {
    const limit = FIELD_LIMITS[coordinate]!;
    // The limiter reads only the field's name from `info`; the key includes the parent type to stay unique.
    const info = { fieldName: coordinate } as GraphQLResolveInfo;
    const args = { occurrences: { length: occurrences } };
    return limiter(
      { parent: undefined, args, context: viewer, info },
      { ...limit, arrayLengthField: 'occurrences', uncountRejected: true, readOnly },
    );
  };

  return async function checkFieldLimits(
    viewer: Viewer,
    fields: ReadonlyMap<string, number>,
  ): Promise<FieldLimitRefusal | undefined> {
    const limited = [...fields].filter(([coordinate]) => FIELD_LIMITS[coordinate]);
    for (const readOnly of [true, false]) {
      for (const [coordinate, occurrences] of limited) {
        const message = await ask(viewer, coordinate, occurrences, readOnly);
        if (message) return { coordinate, message, retryAfter: windowSeconds(FIELD_LIMITS[coordinate]!.window) };
      }
    }
    return undefined;
  };
}

function windowSeconds(window: string): number {
  const match = /^(\d+)([smh])$/.exec(window);
  const unit = { s: 1, m: 60, h: 3600 }[match?.[2] as 's' | 'm' | 'h'] ?? 60;
  return Number(match?.[1] ?? 1) * unit;
}
